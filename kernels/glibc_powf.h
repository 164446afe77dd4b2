// glibc's powf (2.28 and later, every x86-64 Debian and Ubuntu), computed
// step by step in host and device code, so that a kernel raises floats to a
// power exactly as the CPU's C library does. glibc's result is the double
// approximation below rounded to float; it is within 0.82 ulp of the exact
// power, so a correctly rounded power (the device's double pow rounded) is a
// different float wherever glibc's approximation and the exact value fall on
// either side of a halfway point between floats.
//
// The algorithm: x = 2^k z with z in [0x3f330000, 2 x 0x3f330000) as floats;
// log2 x = k + log2 c + P(z/c - 1) with c from a table of 16 intervals and P
// of degree 5; then 2^(y log2 x) = 2^(j/32) 2^r with the table of 2^(j/32)
// and a cubic in r. All of it in double.
//
// glibc on x86-64 runs one of two builds of that C code, chosen when it
// loads: with FMA and AVX2 the compiler fused every a * b + c of it into one
// rounding, without them each product rounds on its own. The double results
// differ in the last bits, and so, rarely, do the floats. `fused` selects
// which build this computes; host_powf_kind() (extractors/powf_kind.h) finds
// the one this process's powf is.
#pragma once

#include <math.h>
#include <stdint.h>

#include "kernels/float_bits.h"
#include "kernels/hd.h"

namespace vmafhip {

namespace glibc_powf_detail {

/// a b + c, in one rounding when fused, else two.
VMAFHIP_HD double mul_add(double a, double b, double c, bool fused)
{
    return fused ? ::fma(a, b, c) : a * b + c;
}

/// log2 x: 1 / c and log2 c of each of the 16 intervals of z (glibc's
/// constants), then P's coefficients from r^5 down to r (the constant
/// term is log2 c + k).
struct Log2Table {
    double inv_c[16], log2_c[16], poly[5];
};

/// 2^(j/32) as double bits less j << 47 (so that adding the scaled
/// exponent gives 2^(k/32)), and the cubic's coefficients from r^3 to r.
struct Exp2Table {
    uint64_t pow2[32];
    double poly[3];
};

// The tables, as host constants and as device globals (a kernel cannot index
// a host constexpr array): one initialiser each.
#define VMAFHIP_GLIBC_POWF_LOG2 \
    { \
    {0x1.661ec79f8f3bep+0, 0x1.571ed4aaf883dp+0, 0x1.49539f0f010bp+0, 0x1.3c995b0b80385p+0, \
    0x1.30d190c8864a5p+0, 0x1.25e227b0b8eap+0, 0x1.1bb4a4a1a343fp+0, 0x1.12358f08ae5bap+0, \
    0x1.0953f419900a7p+0, 0x1p+0, 0x1.e608cfd9a47acp-1, 0x1.ca4b31f026aap-1, \
    0x1.b2036576afce6p-1, 0x1.9c2d163a1aa2dp-1, 0x1.886e6037841edp-1, 0x1.767dcf5534862p-1}, \
    {-0x1.efec65b963019p-2, -0x1.b0b6832d4fca4p-2, -0x1.7418b0a1fb77bp-2, -0x1.39de91a6dcf7bp-2, \
    -0x1.01d9bf3f2b631p-2, -0x1.97c1d1b3b7afp-3, -0x1.2f9e393af3c9fp-3, -0x1.960cbbf788d5cp-4, \
    -0x1.a6f9db6475fcep-5, 0x0p+0, 0x1.338ca9f24f53dp-4, 0x1.476a9543891bap-3, \
    0x1.e840b4ac4e4d2p-3, 0x1.40645f0c6651cp-2, 0x1.88e9c2c1b9ff8p-2, 0x1.ce0a44eb17bccp-2}, \
    {0x1.27616c9496e0bp-2, -0x1.71969a075c67ap-2, 0x1.ec70a6ca7baddp-2, -0x1.7154748bef6c8p-1, \
    0x1.71547652ab82bp0}, \
    }

#define VMAFHIP_GLIBC_POWF_EXP2 \
    { \
    {0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51, \
    0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1, \
    0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d, \
    0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585, \
    0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13, \
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d, \
    0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069, \
    0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540}, \
    {0x1.c6af84b912394p-5, 0x1.ebfce50fac4f3p-3, 0x1.62e42ff0c52d6p-1}, \
    }

static constexpr Log2Table kLog2Host = VMAFHIP_GLIBC_POWF_LOG2;
static constexpr Exp2Table kExp2Host = VMAFHIP_GLIBC_POWF_EXP2;
#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
static __device__ const Log2Table kLog2Device = VMAFHIP_GLIBC_POWF_LOG2;
static __device__ const Exp2Table kExp2Device = VMAFHIP_GLIBC_POWF_EXP2;
#endif

VMAFHIP_HD const Log2Table &log2_table()
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return kLog2Device;
#else
    return kLog2Host;
#endif
}

VMAFHIP_HD const Exp2Table &exp2_table()
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return kExp2Device;
#else
    return kExp2Host;
#endif
}

/// log2 of the positive normal float with bits ix (a subnormal's bits
/// normalised to a negative exponent).
VMAFHIP_HD double log2_of(uint32_t ix, bool fused)
{
    constexpr uint32_t kZ0 = 0x3f330000; // the bits of the smallest z
    const uint32_t from_z0 = ix - kZ0;
    const int i = static_cast<int>((from_z0 >> 19) % 16);
    const uint32_t top = from_z0 & 0xff800000u;
    const double z = bits_float(ix - top);
    const int k = static_cast<int32_t>(top) >> 23;
    const Log2Table &table = log2_table();
    const double *a = table.poly;
    const double r = mul_add(z, table.inv_c[i], -1.0, fused);
    const double y0 = table.log2_c[i] + static_cast<double>(k);
    // glibc's evaluation order: (a0 r + a1) r^4 + ((a2 r + a3) r^2 + (a4 r + y0))
    const double r2 = r * r;
    const double hi = mul_add(a[0], r, a[1], fused);
    const double mid = mul_add(a[2], r, a[3], fused);
    const double r4 = r2 * r2;
    double lo = mul_add(a[4], r, y0, fused);
    lo = mul_add(mid, r2, lo, fused);
    return mul_add(hi, r4, lo, fused);
}

/// 2^t for |t| < 150, negated when negative (float rounding is the caller's).
VMAFHIP_HD double exp2_of(double t, bool negative, bool fused)
{
    constexpr double kShift = 0x1.8p+52 / 32; // t + kShift rounds t to 1/32
    double kd = t + kShift;
    const uint64_t ki = double_bits(kd);
    kd -= kShift;
    const double r = t - kd;
    const Exp2Table &table = exp2_table();
    uint64_t bits = table.pow2[ki % 32];
    bits += (ki + (negative ? uint64_t{1} << 16 : 0)) << 47;
    const double s = bits_double(bits);
    const double *c = table.poly;
    const double z = mul_add(c[0], r, c[1], fused);
    const double r2 = r * r;
    double y = mul_add(c[2], r, 1.0, fused);
    y = mul_add(z, r2, y, fused);
    return y * s;
}

/// 0 when y (bits) is not an integer, 1 when odd, 2 when even.
VMAFHIP_HD int integer_kind(uint32_t iy)
{
    const int e = static_cast<int>(iy >> 23 & 0xff);
    if (e < 0x7f)
        return 0;
    if (e > 0x7f + 23)
        return 2;
    if (iy & ((1u << (0x7f + 23 - e)) - 1))
        return 0;
    return iy & (1u << (0x7f + 23 - e)) ? 1 : 2;
}

} // namespace glibc_powf_detail

/// powf(x, y) as glibc computes it (see the top of this file); `fused`
/// picks its FMA build. Zero, infinite and NaN operands, negative bases and
/// overflow give glibc's values too (its errno and exception flags aside).
VMAFHIP_HD float glibc_powf(float x, float y, bool fused)
{
    using namespace glibc_powf_detail;
    uint32_t ix = float_bits(x);
    const uint32_t iy = float_bits(y);
    bool negative = false;
    const auto zero_inf_nan = [](uint32_t u) { return 2 * u - 1 >= 2u * 0x7f800000 - 1; };
    if (ix - 0x00800000 >= 0x7f800000 - 0x00800000 || zero_inf_nan(iy)) {
        if (zero_inf_nan(iy)) {
            if (2 * iy == 0 || ix == 0x3f800000)
                return 1.0f;
            if (2 * ix > 2u * 0x7f800000 || 2 * iy > 2u * 0x7f800000)
                return x + y;
            if (2 * ix == 2u * 0x3f800000)
                return 1.0f;
            if ((2 * ix < 2u * 0x3f800000) == !(iy & 0x80000000))
                return 0.0f;
            return y * y;
        }
        if (zero_inf_nan(ix)) {
            float x2 = x * x;
            if (ix & 0x80000000 && integer_kind(iy) == 1)
                x2 = -x2;
            return iy & 0x80000000 ? 1 / x2 : x2;
        }
        if (ix & 0x80000000) { // finite x < 0
            const int kind = integer_kind(iy);
            if (kind == 0)
                return NAN;
            negative = kind == 1;
            ix &= 0x7fffffff;
        }
        if (ix < 0x00800000) // subnormal: normalise, leaving a negative exponent
            ix = (float_bits(bits_float(ix) * 0x1p23f) & 0x7fffffff) - (23u << 23);
    }
    const double t = static_cast<double>(y) * log2_of(ix, fused);
    if ((double_bits(t) >> 47 & 0xffff) >= double_bits(126.0) >> 47) {
        if (t > 0x1.fffffffd1d571p+6)
            return negative ? -INFINITY : INFINITY;
        if (t <= -150.0)
            return negative ? -0.0f : 0.0f;
    }
    return static_cast<float>(exp2_of(t, negative, fused));
}

} // namespace vmafhip
