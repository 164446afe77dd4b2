// Host memory running out, at every allocation the library makes in turn:
// open, the first frame, mid-stream, flush, pooling and the log. Each must
// end in -ENOMEM with a message, leak nothing (the ASan build checks leaks)
// and leave the process able to score the next context exactly. Built for
// the CPU (suite unit) and, with TEST_BACKEND=VMAFHIP_BACKEND_HIP, for the
// GPU (suite gpu), where every checked GPU runtime call (allocations,
// copies, launches, synchronisations) also fails in turn.
#include <gtest/gtest.h>

#include <dirent.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#include "base/fault.h"
#include "tests/common/context.h"
#include "tests/common/fault_scenario.h"

namespace {

std::atomic<long> fail_at{0}; // 0: allocations are not counted
std::atomic<long> seen{0};
long next_fail_at = 0; // armed by arm(), from the scenario

void arm()
{
    seen = 0;
    fail_at = next_fail_at;
}

void *counted_alloc(size_t n, size_t align = 0)
{
    if (fail_at.load(std::memory_order_relaxed) &&
        seen.fetch_add(1, std::memory_order_relaxed) + 1 == fail_at.load(std::memory_order_relaxed))
        return nullptr;
    if (!n)
        n = 1;
    if (!align)
        return std::malloc(n);
    return std::aligned_alloc(align, (n + align - 1) / align * align);
}

void *must_alloc(size_t n, size_t align = 0)
{
    if (void *p = counted_alloc(n, align))
        return p;
    throw std::bad_alloc();
}

} // namespace

// Every form of operator new goes through counted_alloc (the library
// allocates through new: containers, strings, its own objects).
void *operator new(size_t n) { return must_alloc(n); }
void *operator new[](size_t n) { return must_alloc(n); }
void *operator new(size_t n, const std::nothrow_t &) noexcept { return counted_alloc(n); }
void *operator new[](size_t n, const std::nothrow_t &) noexcept { return counted_alloc(n); }
void *operator new(size_t n, std::align_val_t a) { return must_alloc(n, static_cast<size_t>(a)); }
void *operator new[](size_t n, std::align_val_t a) { return must_alloc(n, static_cast<size_t>(a)); }
void *operator new(size_t n, std::align_val_t a, const std::nothrow_t &) noexcept
{
    return counted_alloc(n, static_cast<size_t>(a));
}
void *operator new[](size_t n, std::align_val_t a, const std::nothrow_t &) noexcept
{
    return counted_alloc(n, static_cast<size_t>(a));
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, size_t) noexcept { std::free(p); }
void operator delete[](void *p, size_t) noexcept { std::free(p); }
void operator delete(void *p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void *p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void *p, size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void *p, size_t, std::align_val_t) noexcept { std::free(p); }

namespace {

std::string temp_log()
{
    return ::testing::TempDir() + "vmafhip_faults_" + std::to_string(getpid()) + ".json";
}

std::string file_text(const std::string &path)
{
    std::string text;
    if (FILE *f = std::fopen(path.c_str(), "rb")) {
        char buf[4096];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
            text.append(buf, n);
        std::fclose(f);
    }
    return text;
}

/// Files beside `path` whose names start with its name and a dot (the
/// temporary a log is written to before it replaces `path`).
int temporaries_of(const std::string &path)
{
    const size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
    const std::string prefix = path.substr(slash + 1) + ".";
    int n = 0;
    if (DIR *d = opendir(dir.c_str())) {
        while (const dirent *e = readdir(d))
            n += std::string(e->d_name).rfind(prefix, 0) == 0;
        closedir(d);
    }
    return n;
}

/// How a kind of fault is injected: arm() (run by the scenario right
/// before open) makes the next_fail_at-th event fail; reached() counts the
/// events since.
struct FaultKind {
    const char *what;
    void (*arm)();
    long (*reached)();
    const char *message; ///< what every error message must mention
};

const FaultKind kHostAllocations = {"allocations", arm, [] { return seen.load(); }, "memory"};

/// Fail event 1, 2, 3, ... of the scenario until one run completes without
/// reaching the armed count; every step of `stride` is taken.
void every_fault_in_turn(const FaultKind &kind, const char *features, const char *models, long stride)
{
    const std::string log = temp_log();
    const testfx::FaultOutcome clean = testfx::fault_scenario(TEST_BACKEND, features, models, log);
    ASSERT_EQ(clean.ret, 0) << clean.step << ": " << clean.message;
    std::string last_log = file_text(log);
    long n = 1, failures = 0;
    for (;; n += stride) {
        next_fail_at = n;
        const testfx::FaultOutcome o = testfx::fault_scenario(TEST_BACKEND, features, models, log, kind.arm);
        const long reached = kind.reached();
        next_fail_at = 0;
        kind.arm(); // disarm
        if (reached < n) { // ran to the end without meeting the fault
            EXPECT_EQ(o.ret, 0) << o.step << ": " << o.message;
            EXPECT_EQ(o.values, clean.values);
            break;
        }
        if (o.ret == 0) {
            // The library absorbed it (an optional allocation): results unchanged.
            EXPECT_EQ(o.values, clean.values) << kind.what << " " << n;
            last_log = file_text(log);
            continue;
        }
        failures++;
        // A log that fails is not written half: the previous one stays, and
        // no temporary is left beside it.
        EXPECT_EQ(file_text(log), last_log) << kind.what << " " << n << ", " << o.step;
        EXPECT_EQ(temporaries_of(log), 0) << kind.what << " " << n << ", " << o.step;
        EXPECT_EQ(o.ret, -ENOMEM) << kind.what << " " << n << ", " << o.step << ": " << o.message;
        EXPECT_NE(o.message.find(kind.message), std::string::npos)
            << kind.what << " " << n << ", " << o.step << ": '" << o.message << "'";
        if (::testing::Test::HasFailure())
            break;
    }
    std::remove(log.c_str());
    std::printf("%ld %s walked (every %ld), %ld ended in a clean -ENOMEM\n", n, kind.what, stride, failures);
    EXPECT_GT(failures, 0);
    // The next context scores as if nothing had happened.
    const testfx::FaultOutcome after = testfx::fault_scenario(TEST_BACKEND, features, models, log);
    EXPECT_EQ(after.ret, 0) << after.step << ": " << after.message;
    EXPECT_EQ(after.values, clean.values);
    std::remove(log.c_str());
}

const char kEveryExtractor[] = "psnr=enable_mse=true|float_ssim=enable_lcs=true|adm|vif|motion";

TEST(HostFaults, EveryAllocationOfEveryExtractor)
{
    every_fault_in_turn(kHostAllocations, kEveryExtractor, nullptr, 1);
}

TEST(HostFaults, AllocationsOfTheModels)
{
    // Loading a model parses its JSON (thousands of allocations): a prime
    // stride walks the loader's sites without taking minutes.
    every_fault_in_turn(kHostAllocations, "", "version=vmaf_v0.6.1|version=vmaf_b_v0.6.3:name=b", 31);
}

#if defined(VMAFHIP_TEST_GPU_FAULTS)
void arm_gpu()
{
    vmafhip::fault_arm_gpu(next_fail_at);
}

// Every checked GPU call of a run with every extractor and a model fails in
// turn: the error names the call; the next context on the device works.
TEST(GpuFaults, EveryGpuCall)
{
    const FaultKind gpu_calls = {"GPU calls", arm_gpu, vmafhip::fault_gpu_calls, "failed"};
    every_fault_in_turn(gpu_calls, kEveryExtractor, "version=vmaf_v0.6.1", 1);
}
#endif // defined(VMAFHIP_TEST_GPU_FAULTS)

} // namespace
