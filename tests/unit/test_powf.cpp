// kernels/glibc_powf.h against this process's powf, and host_powf_kind().
// meson runs this program twice: as it is, and with glibc told to ignore
// FMA and AVX2 (VMAFHIP_TEST_POWF_KIND=glibc says which kind to expect then),
// so both of glibc's builds are compared where glibc is the C library.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>

#include "extractors/powf_kind.h"
#include "kernels/glibc_powf.h"

using namespace vmafhip;

namespace {

/// What host_powf_kind() must say on this machine.
PowfKind expected_kind()
{
#if defined(__GLIBC__) && defined(__x86_64__)
    const char *e = std::getenv("VMAFHIP_TEST_POWF_KIND");
    if (e && !std::strcmp(e, "glibc"))
        return POWF_GLIBC;
    return __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2") ? POWF_GLIBC_FUSED
                                                                            : POWF_GLIBC;
#else
    return host_powf_kind(); // another C library: nothing to expect
#endif
}

const char *kind_name(PowfKind kind)
{
    switch (kind) {
    case POWF_GLIBC_FUSED: return "glibc's powf (FMA build)";
    case POWF_GLIBC: return "glibc's powf";
    case POWF_ROUNDED_POW: break;
    }
    return "the double pow rounded";
}

/// Fails with both operands where glibc_powf() and powf() give other bits
/// (any NaN equals any NaN).
void expect_same(float x, float y, bool fused)
{
    volatile float vx = x, vy = y; // keeps the compiler from computing powf itself
    const float host = ::powf(vx, vy), ours = glibc_powf(x, y, fused);
    if (std::isnan(host) && std::isnan(ours))
        return;
    ASSERT_EQ(float_bits(host), float_bits(ours))
        << "powf(" << std::hexfloat << x << ", " << y << "): " << host << ", emulated " << ours;
}

} // namespace

TEST(GlibcPowf, KindIsTheBuildTheCLibraryRuns)
{
    EXPECT_EQ(host_powf_kind(), expected_kind()) << kind_name(host_powf_kind()) << ", expected "
                                                 << kind_name(expected_kind());
}

TEST(GlibcPowf, SameFloatsAsTheCLibrary)
{
    const PowfKind kind = host_powf_kind();
    if (kind == POWF_ROUNDED_POW)
        GTEST_SKIP() << "the C library's powf is not glibc's";
    const bool fused = kind == POWF_GLIBC_FUSED;
    std::mt19937 rng(20261207);
    std::uniform_int_distribution<uint32_t> positive(0, 0x7f800000), any;
    // adm_p_norm's exponents and ciede's 7; x over every positive exponent
    for (const float y : {2.5f, 0.4f, 4.7f, 20.0f, 7.0f, 1.0f / 3.0f, 1.0f / 2.5f, 1.0f / 20.0f})
        for (int i = 0; i < 1 << 19; i++)
            ASSERT_NO_FATAL_FAILURE(expect_same(bits_float(positive(rng)), y, fused));
    // any bits: negative bases, integer and huge exponents, zeros,
    // subnormals, infinities, NaNs, overflow and underflow
    for (int i = 0; i < 1 << 21; i++)
        ASSERT_NO_FATAL_FAILURE(expect_same(bits_float(any(rng)), bits_float(any(rng)), fused));
    const float edges[] = {0.0f, -0.0f, 1.0f, -1.0f, 0x1p-149f, 0x1p-126f, 0x1.fffffep127f,
                           INFINITY, -INFINITY, NAN, 2.0f, -2.0f, 0.5f, 3.0f, -3.0f, 1e-30f};
    for (const float x : edges)
        for (const float y : edges)
            ASSERT_NO_FATAL_FAILURE(expect_same(x, y, fused));
}

TEST(GlibcPowf, TheTwoBuildsDiffer)
{
    // Why the kind matters: the plain build's float differs from the FMA
    // build's here (the first of host_powf_kind()'s probes).
    const float x = bits_float(0x2e70c856), y = bits_float(0x3ecccccd);
    EXPECT_EQ(float_bits(glibc_powf(x, y, true)), 0x38a4ce9eu);
    EXPECT_EQ(float_bits(glibc_powf(x, y, false)), 0x38a4ce9fu);
}

TEST(GlibcPowf, PowersOfTwoTable)
{
    // each entry is 2^(j/32) rounded to double, less j << 47
    for (uint64_t j = 0; j < 32; j++)
        EXPECT_EQ(glibc_powf_detail::exp2_table().pow2[j],
                  double_bits(std::exp2(static_cast<double>(j) / 32)) - (j << 47))
            << j;
}
