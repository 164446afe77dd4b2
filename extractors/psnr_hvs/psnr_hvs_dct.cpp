// psnr_hvs's integer DCT (docs/psnr_hvs.md §4). Every step is a lifting step
// or a butterfly on int32, in the order of Daala's od_bin_fdct8; the
// arithmetic right shifts and the rounding offsets are part of the result.
#include "extractors/psnr_hvs/psnr_hvs_dct.h"

namespace vmafhip {

namespace {

/// a / 2 rounded toward zero (Daala's OD_DCT_RSHIFT(a, 1): the sign bit is
/// added before the arithmetic shift).
int32_t half(int32_t a)
{
    return static_cast<int32_t>((static_cast<uint32_t>(a) >> 31) + static_cast<uint32_t>(a)) >> 1;
}

/// (a * m + 2^(s-1)) >> s in int32, as the C code computes it: the product
/// and the offset wrap like the 32-bit multiply libvmaf's build emits (no
/// value of 8 to 12-bit blocks comes near it).
int32_t lift(int32_t a, int32_t m, int s)
{
    const uint32_t p = static_cast<uint32_t>(a) * static_cast<uint32_t>(m) + (1u << (s - 1));
    return static_cast<int32_t>(p) >> s;
}

/// The 1-D transform of x[0], x[stride], ..., x[7 * stride] into y[0..7].
void fdct8(const int32_t *x, int stride, int32_t y[8])
{
    // Inputs in the transform's permuted order.
    int32_t t0 = x[0 * stride], t4 = x[1 * stride], t2 = x[2 * stride], t6 = x[3 * stride];
    int32_t t7 = x[4 * stride], t3 = x[5 * stride], t5 = x[6 * stride], t1 = x[7 * stride];
    // +1/-1 butterflies.
    t1 = t0 - t1;
    const int32_t t1h = half(t1);
    t0 -= t1h;
    t4 += t5;
    const int32_t t4h = half(t4);
    t5 -= t4h;
    t3 = t2 - t3;
    t2 -= half(t3);
    t6 += t7;
    const int32_t t6h = half(t6);
    t7 = t6h - t7;
    // The embedded 4-point DCT-II.
    t0 += t6h;
    t6 = t0 - t6;
    t2 = t4h - t2;
    t4 = t2 - t4;
    // Its 2-point DCT-II: sqrt(2) - 1, sqrt(1/2), sqrt(2) - 1.
    t0 -= lift(t4, 13573, 15);
    t4 += lift(t0, 11585, 14);
    t0 -= lift(t4, 13573, 15);
    // Its 2-point DST-IV: (1 - cos(3pi/8)) / sin(3pi/8), sin(3pi/8), again the first.
    t6 -= lift(t2, 21895, 15);
    t2 += lift(t6, 15137, 14);
    t6 -= lift(t2, 21895, 15);
    // The embedded 4-point DST-IV.
    t3 += lift(t5, 19195, 15);
    t5 += lift(t3, 11585, 14);
    t3 -= lift(t5, 7489, 13);
    t7 = half(t5) - t7;
    t5 -= t7;
    t3 = t1h - t3;
    t1 -= t3;
    // Rotations by pi/16 and 3pi/16, three lifts each.
    t7 += lift(t1, 3227, 15);
    t1 -= lift(t7, 6393, 15);
    t7 += lift(t1, 3227, 15);
    t5 += lift(t3, 2485, 13);
    t3 -= lift(t5, 18205, 15);
    t5 += lift(t3, 2485, 13);
    y[0] = t0;
    y[1] = t1;
    y[2] = t2;
    y[3] = t3;
    y[4] = t4;
    y[5] = t5;
    y[6] = t6;
    y[7] = t7;
}

} // namespace

void psnr_hvs_fdct8x8(const int32_t x[64], int32_t y[64])
{
    int32_t z[64];
    for (int i = 0; i < 8; i++)
        fdct8(x + i, 8, z + 8 * i);
    for (int i = 0; i < 8; i++)
        fdct8(z + i, 8, y + 8 * i);
}

} // namespace vmafhip
