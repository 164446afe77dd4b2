// Every extractor of the table on every fixture pair with the SIMD kernels
// on (cpumask 0) and off (cpumask 63, libvmaf's "plain C"): the same scores,
// bit for bit, on every frame, with the extractors' debug outputs (the
// sums behind the scores) where they have them. On a CPU with AVX2 the two
// runs take different kernels, which the context's debug line shows.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "tests/common/bits.h"
#include "tests/common/context.h"
#include "tests/common/fixtures.h"
#include "tests/common/score.h"
#include "vmafhip.h"

namespace {

constexpr unsigned kPlainOnly = 63;

/// The extractors of the table, each with debug=true where it has that
/// option: "psnr", "adm=debug=true", ...
std::vector<std::string> every_extractor()
{
    std::vector<std::string> out;
    for (int i = 0; i < vmafhip_feature_count(); i++) {
        const char *name = nullptr, *help = nullptr;
        EXPECT_EQ(vmafhip_feature_info(i, &name, &help), 0);
        std::string spec = name;
        for (int k = 0; k < vmafhip_option_count(); k++) {
            const char *feature, *option, *alias, *ohelp, *def, *range;
            if (vmafhip_option_info(k, &feature, &option, &alias, &ohelp, &def, &range) == 0 &&
                spec == feature && std::strcmp(option, "debug") == 0)
                spec += "=debug=true";
        }
        out.push_back(spec);
    }
    return out;
}

/// Whether the pair's size and depth suit the extractor (it opens); the
/// refusal's message is kept out of the test's output.
bool opens(const VmafHipSettings &s)
{
    testfx::LogLines refusal;
    return testfx::try_open(s, &refusal) == 0;
}

/// The context's debug line naming the CPU kernels it chose.
std::string kernels_line(VmafHipSettings s)
{
    testfx::LogLines log;
    s.log_level = VMAFHIP_LOG_DEBUG;
    s.log_callback = testfx::collect_log;
    s.log_cookie = &log;
    testfx::open_ctx(s);
    for (const std::string &l : log.lines)
        if (l.rfind("CPU kernels: ", 0) == 0)
            return l;
    return "";
}

class CpuMask : public testing::TestWithParam<testfx::Fixture> {};

TEST_P(CpuMask, SimdOffGivesTheSameScores)
{
    const testfx::Fixture &f = GetParam();
    int compared = 0;
    for (const std::string &spec : every_extractor()) {
        VmafHipSettings s = testfx::settings(f.w, f.h, f.bpc, f.chroma, spec.c_str());
        s.backend = VMAFHIP_BACKEND_CPU;
        if (!opens(s))
            continue; // below the extractor's size, or a depth it refuses
        const testfx::Scored simd = testfx::score(f, s);
        s.cpumask = kPlainOnly;
        const testfx::Scored plain = testfx::score(f, s);
        ASSERT_EQ(simd.names, plain.names) << spec;
        ASSERT_EQ(simd.frames.size(), plain.frames.size()) << spec;
        for (size_t i = 0; i < simd.frames.size(); i++)
            for (size_t k = 0; k < simd.names.size(); k++) {
                EXPECT_EQ(testfx::bits(simd.frames[i][k]), testfx::bits(plain.frames[i][k]))
                    << spec << " frame " << i << " " << simd.names[k] << ": " << simd.frames[i][k]
                    << " with SIMD, " << plain.frames[i][k] << " without";
                compared++;
            }
    }
    EXPECT_GT(compared, 0) << "no extractor opened on " << f.name;
}

TEST(CpuMaskKernels, MaskChoosesThePlainKernels)
{
    VmafHipSettings s = testfx::settings(64, 64, 8, VMAFHIP_CHROMA_420, "psnr");
    s.backend = VMAFHIP_BACKEND_CPU;
    const std::string with_simd = kernels_line(s);
    s.cpumask = kPlainOnly;
    const std::string masked = kernels_line(s);
    s.cpumask = 16; // libvmaf's "no AVX-512": AVX2 stays
    const std::string no_avx512 = kernels_line(s);
    EXPECT_EQ(masked.rfind("CPU kernels: plain C++", 0), 0u) << masked;
    if (with_simd.rfind("CPU kernels: plain C++ (no AVX2 on this CPU)", 0) == 0)
        GTEST_SKIP() << "this CPU has no AVX2: every run takes the plain kernels";
    EXPECT_EQ(with_simd, "CPU kernels: AVX2\n");
    EXPECT_EQ(no_avx512, "CPU kernels: AVX2\n");
    EXPECT_EQ(masked, "CPU kernels: plain C++ (cpumask turns AVX2 off)\n");
}

INSTANTIATE_TEST_SUITE_P(Fixtures, CpuMask, testing::ValuesIn(testfx::fixtures()),
                         [](const testing::TestParamInfo<testfx::Fixture> &i) { return testfx::test_name(i.param); });

} // namespace
