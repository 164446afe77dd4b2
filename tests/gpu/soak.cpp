// Soak of the GPU backend through the path the filter takes: frame pairs in
// FFmpeg's layout (padded line sizes), the filter's default features (the
// vmaf_v0.6.1 model, psnr, float_ssim), frames in flight, scores read as
// frames complete. Reports device and host memory after warm-up and at the
// end (both must stay flat, beyond the per-frame results), and compares
// sampled frames with the CPU backend. With --contexts 2 two contexts run
// at once on two threads.
//   gpu_soak [--frames N] [--size WxH] [--contexts K]
// Exit status: 0 pass, 1 failure, 2 bad arguments, 77 no GPU.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/gpu/gpu_device.h"
#include "tests/common/fixtures.h"
#include "tests/common/memory.h"
#include "vmafhip.h"

namespace {

constexpr int kCycle = 8;          // distinct frame pairs, repeated
constexpr int kWarmup = 100;       // frames before the first memory reading
constexpr int kLinesizeAlign = 64; // FFmpeg's frame pools pad lines like this
const char kFeatures[] = "psnr|float_ssim";
const char kModels[] = "version=vmaf_v0.6.1";

struct Frame {
    std::vector<uint8_t> plane[3];
    VmafHipPicture pic{};
};

// 4:2:0 8-bit, a moving texture; dis = ref plus frame-dependent noise.
Frame make_frame(int w, int h, int i, const Frame *ref)
{
    Frame f;
    for (int p = 0; p < 3; p++) {
        const int pw = p ? (w + 1) / 2 : w, ph = p ? (h + 1) / 2 : h;
        const int stride = (pw + kLinesizeAlign - 1) / kLinesizeAlign * kLinesizeAlign;
        f.plane[p].assign(static_cast<size_t>(stride) * ph, 0);
        for (int y = 0; y < ph; y++)
            for (int x = 0; x < pw; x++) {
                const size_t o = static_cast<size_t>(y) * stride + x;
                if (ref) {
                    const uint32_t n = (static_cast<uint32_t>(x) * 2654435761u) ^ (y * 40503u) ^ (i * 977u);
                    const int v = ref->plane[p][o] + static_cast<int>((n >> 13) % 9) - 4;
                    f.plane[p][o] = static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v);
                } else {
                    const double v = 128 + 60 * std::sin((x + 3 * i) * 0.07) * std::cos((y - 2 * i) * 0.05);
                    f.plane[p][o] = static_cast<uint8_t>(v + ((x * 7 + y * 13 + i) % 11));
                }
            }
        f.pic.data[p] = f.plane[p].data();
        f.pic.stride[p] = stride;
    }
    return f;
}

VmafHipSettings settings(int w, int h, VmafHipBackend backend)
{
    VmafHipSettings s = testfx::settings(w, h, 8, VMAFHIP_CHROMA_420, kFeatures);
    s.models = kModels;
    s.backend = backend;
    s.gpu_wait = backend != VMAFHIP_BACKEND_CPU; // every frame on the GPU
    return s;
}

struct Run {
    std::vector<std::pair<unsigned, std::vector<double>>> kept; // (frame, scores)
    int features = 0;
    size_t rss_warm = 0, rss_end = 0;
    std::string error;
};

constexpr unsigned kSample = 997; // the GPU runs keep every kSample-th frame

// Scores `frames` frames of the cycle; reads each frame's scores once it is
// complete (as the filter does), keeps every `keep_every`-th.
Run score(int w, int h, int frames, VmafHipBackend backend, const std::vector<Frame> &ref,
          const std::vector<Frame> &dis, unsigned keep_every)
{
    Run r;
    const VmafHipSettings s = settings(w, h, backend);
    VmafHipContext *c = nullptr;
    if (vmafhip_open(&c, &s) < 0) {
        r.error = vmafhip_last_error(nullptr);
        return r;
    }
    const char *const *names;
    const int n = vmafhip_feature_names(c, &names);
    r.features = n;
    unsigned next = 0; // first frame whose scores were not read
    auto read_ready = [&](bool wait) {
        for (;;) {
            const double *v;
            if (next >= vmafhip_frame_count(c))
                return true;
            const int ret = vmafhip_frame_scores(c, next, wait, &v);
            if (ret == -EAGAIN)
                return true;
            if (ret != 0) {
                r.error = "frame " + std::to_string(next) + ": " + vmafhip_last_error(c);
                return false;
            }
            if (next % keep_every == 0)
                r.kept.emplace_back(next, std::vector<double>(v, v + n));
            next++;
        }
    };
    for (int i = 0; i < frames && r.error.empty(); i++) {
        if (vmafhip_submit(c, &dis[i % kCycle].pic, &ref[i % kCycle].pic) < 0) {
            r.error = vmafhip_last_error(c);
            break;
        }
        if (!read_ready(false))
            break;
        if (i == kWarmup)
            r.rss_warm = testfx::resident_kib();
    }
    if (r.error.empty() && vmafhip_flush(c) < 0)
        r.error = vmafhip_last_error(c);
    if (r.error.empty())
        read_ready(true);
    r.rss_end = testfx::resident_kib();
    vmafhip_close(&c);
    return r;
}

bool parse_args(int argc, char **argv, int *frames, int *w, int *h, int *contexts)
{
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (i + 1 >= argc)
            return false;
        const char *v = argv[++i];
        if (a == "--frames")
            *frames = std::atoi(v);
        else if (a == "--size")
            std::sscanf(v, "%dx%d", w, h);
        else if (a == "--contexts")
            *contexts = std::atoi(v);
        else
            return false;
    }
    return *frames > 2 * kCycle + kWarmup && *w >= 64 && *h >= 64 && *contexts >= 1 && *contexts <= 8;
}

} // namespace

int main(int argc, char **argv)
{
    int frames = 100000, w = 1920, h = 1080, contexts = 1;
    if (!parse_args(argc, argv, &frames, &w, &h, &contexts)) {
        std::fprintf(stderr, "usage: gpu_soak [--frames N > %d] [--size WxH >= 64x64] [--contexts 1-8]\n",
                     2 * kCycle + kWarmup);
        return 2;
    }
    if (vmafhip_device_count() == 0) {
        std::printf("no usable GPU (or built with gpu_platform=none): skipped\n");
        return 77;
    }
    std::vector<Frame> ref, dis;
    for (int i = 0; i < kCycle; i++)
        ref.push_back(make_frame(w, h, i, nullptr));
    for (int i = 0; i < kCycle; i++)
        dis.push_back(make_frame(w, h, i, &ref[i]));

    // The CPU reference: the cycle's steady state repeats with period
    // kCycle (motion compares neighbours), so frame i >= kCycle equals CPU
    // frame kCycle + i % kCycle, except at the stream's last frames.
    const Run cpu = score(w, h, 3 * kCycle, VMAFHIP_BACKEND_CPU, ref, dis, 1);
    if (!cpu.error.empty()) {
        std::printf("FAILED: CPU reference: %s\n", cpu.error.c_str());
        return 1;
    }
    size_t free0 = 0, free1 = 0, total = 0;
    std::vector<Run> gpu(static_cast<size_t>(contexts));
    {
        // Device memory before the contexts exist and after they are gone,
        // once a first run on as many threads has loaded what the runtime
        // keeps for the process (kernel code, per-thread state).
        std::vector<std::thread> warm;
        for (int k = 0; k < contexts; k++)
            warm.emplace_back([&] { score(w, h, kWarmup + 2 * kCycle + 1, VMAFHIP_BACKEND_HIP, ref, dis, kSample); });
        for (auto &t : warm)
            t.join();
        if (vmafhip::gpu_memory_info(&free0, &total) < 0)
            return 1;
        std::vector<std::thread> threads;
        for (int k = 0; k < contexts; k++)
            threads.emplace_back(
                [&, k] { gpu[k] = score(w, h, frames, VMAFHIP_BACKEND_HIP, ref, dis, kSample); });
        for (auto &t : threads)
            t.join();
        if (vmafhip::gpu_memory_info(&free1, &total) < 0)
            return 1;
    }
    int failures = 0;
    for (int k = 0; k < contexts; k++) {
        const Run &g = gpu[k];
        if (!g.error.empty()) {
            std::printf("context %d: FAILED: %s\n", k, g.error.c_str());
            failures++;
            continue;
        }
        int compared = 0;
        for (const auto &[i, v] : g.kept) {
            if (i < kCycle || i + kCycle >= static_cast<unsigned>(frames))
                continue; // the stream's first and last frames see other neighbours
            const std::vector<double> &want = cpu.kept[kCycle + i % kCycle].second;
            for (size_t j = 0; j < v.size(); j++) {
                // float_ssim is compared to 1e-6 (the last feature), the rest exactly
                const bool ssim = j + 1 == v.size();
                if (ssim ? std::fabs(v[j] - want[j]) > 1e-6 : v[j] != want[j]) {
                    std::printf("context %d: FAILED: frame %u, score %zu: GPU %.17g, CPU %.17g\n", k, i, j,
                                v[j], want[j]);
                    failures++;
                    break;
                }
            }
            compared++;
        }
        // The results themselves (a row of doubles per frame) are the only growth.
        const size_t results_kib = static_cast<size_t>(frames) * g.features * sizeof(double) / 1024;
        const size_t growth = g.rss_end > g.rss_warm ? g.rss_end - g.rss_warm : 0;
        std::printf("context %d: %d frames %dx%d, %d sampled frames equal to the CPU; host RSS %zu KiB "
                    "after %d frames, %zu KiB at the end (+%zu KiB; results %zu KiB)\n",
                    k, frames, w, h, compared, g.rss_warm, kWarmup, g.rss_end, growth, results_kib);
        if (growth > contexts * results_kib + 32 * 1024) {
            std::printf("context %d: FAILED: host memory grew beyond the results\n", k);
            failures++;
        }
        if (compared == 0) {
            std::printf("context %d: FAILED: no frame compared\n", k);
            failures++;
        }
    }
    std::printf("device free memory: %zu MiB before, %zu MiB after (total %zu MiB)\n", free0 >> 20, free1 >> 20,
                total >> 20);
    if (free1 != free0) {
        std::printf("FAILED: device memory not returned\n");
        failures++;
    }
    return failures ? 1 : 0;
}
