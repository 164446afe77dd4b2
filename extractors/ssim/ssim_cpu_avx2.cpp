// float_ssim row kernels with AVX2 intrinsics (docs/ssim.md §5): eight
// outputs at a time, each with the operations of the plain kernels
// (kernels/ssim/ssim_ops.h) in their order and precision, so the floats and
// doubles are the same to the last bit. A float32 product is a vmulps
// (IEEE single rounding, no FMA: the build contracts nothing), widened
// exactly to double by vcvtps2pd and summed in double tap by tap in one
// accumulator per output; vcvtpd2ps rounds to nearest as the casts do;
// vsqrtpd and vdivpd are IEEE like sqrt() and /. The last columns of a row go to the plain
// kernels.
#include "extractors/ssim/ssim_cpu_rows.h"

#if defined(__x86_64__)
#include "base/avx2.h"
#endif // defined(__x86_64__)

namespace vmafhip {

#if defined(__x86_64__)

namespace {

using F = __m256;  // 8 floats
using D = __m256d; // 4 doubles

/// The low and the high 4 floats of v, widened to double (exactly).
VMAFHIP_AVX2 inline D lo(F v) { return _mm256_cvtps_pd(_mm256_castps256_ps128(v)); }
VMAFHIP_AVX2 inline D hi(F v) { return _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)); }

/// Double sums of 8 outputs, as two halves of 4.
struct Acc {
    D lo, hi;
};

VMAFHIP_AVX2 inline Acc acc_zero() { return Acc{_mm256_setzero_pd(), _mm256_setzero_pd()}; }

/// The 8 floats of v, widened, added to a.
VMAFHIP_AVX2 inline Acc acc_add(Acc a, F v)
{
    a.lo = _mm256_add_pd(a.lo, lo(v));
    a.hi = _mm256_add_pd(a.hi, hi(v));
    return a;
}

/// The accumulators rounded to float.
VMAFHIP_AVX2 inline F acc_float(Acc a)
{
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(a.lo)), _mm256_cvtpd_ps(a.hi), 1);
}

VMAFHIP_AVX2 void hpass(const float *r, const float *d, int n, SsimPlanes out)
{
    int x = 0;
    for (; x + 8 <= n; x += 8) {
        Acc a1 = acc_zero(), a2 = acc_zero(), a11 = acc_zero(), a22 = acc_zero(), a12 = acc_zero();
        for (int u = 0; u < SSIM_TAPS; u++) {
            const F g = _mm256_set1_ps(ssim_gauss_tap(u));
            const F rv = _mm256_loadu_ps(r + x + u), dv = _mm256_loadu_ps(d + x + u);
            const F rr = _mm256_mul_ps(rv, rv), dd = _mm256_mul_ps(dv, dv), rd = _mm256_mul_ps(rv, dv);
            a1 = acc_add(a1, _mm256_mul_ps(rv, g));
            a2 = acc_add(a2, _mm256_mul_ps(dv, g));
            a11 = acc_add(a11, _mm256_mul_ps(rr, g));
            a22 = acc_add(a22, _mm256_mul_ps(dd, g));
            a12 = acc_add(a12, _mm256_mul_ps(rd, g));
        }
        _mm256_storeu_ps(out[0] + x, acc_float(a1));
        _mm256_storeu_ps(out[1] + x, acc_float(a2));
        _mm256_storeu_ps(out[2] + x, acc_float(a11));
        _mm256_storeu_ps(out[3] + x, acc_float(a22));
        _mm256_storeu_ps(out[4] + x, acc_float(a12));
    }
    if (x < n) {
        float *const rest[5] = {out[0] + x, out[1] + x, out[2] + x, out[3] + x, out[4] + x};
        ssim_kernels_scalar().hpass(r + x, d + x, n - x, rest);
    }
}

/// ssim_filter11 of 8 columns.
VMAFHIP_AVX2 inline F filter11(const float *p, ptrdiff_t stride)
{
    Acc a = acc_zero();
    for (int u = 0; u < SSIM_TAPS; u++)
        a = acc_add(a, _mm256_mul_ps(_mm256_loadu_ps(p + u * stride), _mm256_set1_ps(ssim_gauss_tap(u))));
    return acc_float(a);
}

/// v where v < 0 does not hold, else 0 (the clamp of ssim_pixel, NaN kept).
VMAFHIP_AVX2 inline F zero_below(F v)
{
    return _mm256_andnot_ps(_mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LT_OQ), v);
}

/// The terms of 4 pixels that ssim_pixel uses in double, widened from its floats.
struct PixelTerms {
    D mu1, mu2, sd, l_den, c_den, s;
};

/// The double part of ssim_pixel for 4 pixels: l, c, s and ssim into out at x.
VMAFHIP_AVX2 inline void pixel4(const PixelTerms &t, const SsimPixelRow &out, int x)
{
    const D two = _mm256_set1_pd(2.0);
    const D l_num = _mm256_add_pd(_mm256_mul_pd(_mm256_mul_pd(two, t.mu1), t.mu2),
                                  _mm256_set1_pd(static_cast<double>(SSIM_C1)));
    const D l = _mm256_div_pd(l_num, t.l_den);
    const D c_num = _mm256_add_pd(_mm256_mul_pd(two, t.sd), _mm256_set1_pd(static_cast<double>(SSIM_C2)));
    const D c = _mm256_div_pd(c_num, t.c_den);
    _mm256_storeu_pd(out.l + x, l);
    _mm256_storeu_pd(out.c + x, c);
    _mm256_storeu_pd(out.s + x, t.s);
    _mm256_storeu_pd(out.ssim + x, _mm256_mul_pd(_mm256_mul_pd(l, c), t.s));
}

VMAFHIP_AVX2 void vpass_pixel(const float *const in[5], ptrdiff_t stride, int n, const SsimPixelRow &out)
{
    const F zero = _mm256_setzero_ps();
    int x = 0;
    for (; x + 8 <= n; x += 8) {
        const F mu1 = filter11(in[0] + x, stride), mu2 = filter11(in[1] + x, stride);
        const F e11 = filter11(in[2] + x, stride), e22 = filter11(in[3] + x, stride);
        const F e12 = filter11(in[4] + x, stride);
        const F mu11 = _mm256_mul_ps(mu1, mu1), mu22 = _mm256_mul_ps(mu2, mu2), mu12 = _mm256_mul_ps(mu1, mu2);
        const F s11 = zero_below(_mm256_sub_ps(e11, mu11)), s22 = zero_below(_mm256_sub_ps(e22, mu22));
        const F s12 = _mm256_sub_ps(e12, mu12);
        const F s1122 = _mm256_mul_ps(s11, s22);
        // float(sqrt(double)), as ssim_pixel.
        const F sd = _mm256_insertf128_ps(
            _mm256_castps128_ps256(_mm256_cvtpd_ps(_mm256_sqrt_pd(lo(s1122)))),
            _mm256_cvtpd_ps(_mm256_sqrt_pd(hi(s1122))), 1);
        const F l_den = _mm256_add_ps(_mm256_add_ps(mu11, mu22), _mm256_set1_ps(SSIM_C1));
        const F c_den = _mm256_add_ps(_mm256_add_ps(s11, s22), _mm256_set1_ps(SSIM_C2));
        // s12 where not (s12 < 0 and sd <= 0), else 0.
        const F flat = _mm256_and_ps(_mm256_cmp_ps(s12, zero, _CMP_LT_OQ), _mm256_cmp_ps(sd, zero, _CMP_LE_OQ));
        const F s12c = _mm256_andnot_ps(flat, s12);
        const F c3 = _mm256_set1_ps(SSIM_C3);
        const F s = _mm256_div_ps(_mm256_add_ps(s12c, c3), _mm256_add_ps(sd, c3));
        pixel4(PixelTerms{lo(mu1), lo(mu2), lo(sd), lo(l_den), lo(c_den), lo(s)}, out, x);
        pixel4(PixelTerms{hi(mu1), hi(mu2), hi(sd), hi(l_den), hi(c_den), hi(s)}, out, x + 4);
    }
    if (x < n) {
        const float *const rest[5] = {in[0] + x, in[1] + x, in[2] + x, in[3] + x, in[4] + x};
        ssim_kernels_scalar().vpass_pixel(rest, stride, n - x,
                                          SsimPixelRow{out.l + x, out.c + x, out.s + x, out.ssim + x});
    }
}

} // namespace

#endif // defined(__x86_64__)

const SsimKernels *ssim_kernels_avx2()
{
#if defined(__x86_64__)
    static const SsimKernels k = {hpass, vpass_pixel};
    if (cpu_has_avx2())
        return &k;
#endif
    return nullptr;
}

} // namespace vmafhip
