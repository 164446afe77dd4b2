// float_vif per-sample arithmetic (docs/float_vif.md §3.2, §4), shared by
// the CPU code and the GPU kernels, and the accumulator block both write.
//
// Device-code rules for this header: float, double and int arithmetic only
// (each +, -, *, / and conversion correctly rounded; the builds have no
// contraction), no libm calls, no namespace-scope tables.
#pragma once

#include <stdint.h>

#include "kernels/float_bits.h"
#include "kernels/hd.h"

namespace vmafhip {

constexpr int FLOAT_VIF_SCALES = 4;

/// The per-scale float sums of one frame (§4), held as doubles (exact):
/// the same bytes on the CPU and the GPU. A scale not computed (scale 0
/// with vif_skip_scale0) stays 0.
struct FloatVifAccum {
    double num[FLOAT_VIF_SCALES];
    double den[FLOAT_VIF_SCALES];
};

/// §3.2: the five images a scale filters, in the order the statistic takes them.
enum FloatVifImage { FVIF_MU1, FVIF_MU2, FVIF_XX, FVIF_YY, FVIF_XY, FVIF_IMAGES };

/// §3.2: sample k of the five images from the reference sample a and the
/// distorted sample b (products before the tap's).
VMAFHIP_HD float fvif_operand(int k, float a, float b)
{
    switch (k) {
    case FVIF_MU1: return a;
    case FVIF_MU2: return b;
    case FVIF_XX: return a * a;
    case FVIF_YY: return b * b;
    default: return a * b;
    }
}

/// §4.1: libvmaf's log2f_approx (VIF_OPT_FAST_LOG2 is on): the exponent,
/// plus a degree-8 polynomial of the mantissa in [0, 1), Horner's scheme in
/// float from 0 (0 * x + p0 included: it can be -0 or NaN).
VMAFHIP_HD float fvif_log2(float x)
{
    const float poly[] = {-0.012671635276421f, 0.064841182402670f, -0.157048836463065f,
                          0.257167726303123f,  -0.353800560300520f, 0.480131410397451f,
                          -0.721314327952201f, 1.442694803896991f,  0.0f};
    if (x == 0.0f)
        return -bits_float(0x7F800000u); // -inf
    if (x < 0.0f)
        return bits_float(0x7FC00000u); // NaN
    const uint32_t u = float_bits(x);
    const int exponent = static_cast<int>((u & 0x7F800000u) >> 23);
    const float remain = bits_float((u & 0x007FFFFFu) | 0x3F800000u) - 1.0f;
    float v = 0.0f;
    for (int i = 0; i < 9; i++)
        v = v * remain + poly[i];
    return static_cast<float>(exponent - 127) + v;
}

/// §4.1: the argument of the logarithm, a double rounded to float, with
/// x86's NaN. The only NaN the statistic meets is 0 / 0 (vif_sigma_nsq 0 and
/// a flat sample): x86 gives its "indefinite" NaN, 0xFFC00000 as a float,
/// which the fast log2 reads as exponent 128 and mantissa 0.5; a GPU gives
/// another NaN (NVIDIA's 0x7FFFFFFF), which it would read otherwise.
VMAFHIP_HD float fvif_log2_arg(double v)
{
    return v != v ? bits_float(0xFFC00000u) : static_cast<float>(v);
}

/// §4: the statistic of one sample from its five filtered values.
struct FvifStat {
    float egl;           ///< (float)vif_enhn_gain_limit
    double nsq;          ///< vif_sigma_nsq, a double in every use
    float sigma_max_inv; ///< (float)(powf((float)nsq, 2) / 65025.0), host-computed

    VMAFHIP_HD void operator()(float mu1, float mu2, float xx, float yy, float xy, float *num,
                               float *den) const
    {
        const float eps = 1.0e-10f;
        float s1 = xx - mu1 * mu1;
        float s2 = yy - mu2 * mu2;
        const float s12 = xy - mu1 * mu2;
        s1 = s1 > 0.0f ? s1 : 0.0f;
        s2 = s2 > 0.0f ? s2 : 0.0f;
        float g = s12 / (s1 + eps);
        float sv = s2 - g * s12;
        if (s1 < eps) {
            g = 0.0f;
            sv = s2;
            s1 = 0.0f;
        }
        if (s2 < eps) {
            g = 0.0f;
            sv = 0.0f;
        }
        if (g < 0.0f) {
            sv = s2;
            g = 0.0f;
        }
        sv = sv > eps ? sv : eps;
        g = g < egl ? g : egl;
        // Double sums (nsq is a double), each rounded to float by log2f's argument.
        float n = fvif_log2(fvif_log2_arg(
            1.0 + static_cast<double>(g * g * s1) / (static_cast<double>(sv) + nsq)));
        float d = fvif_log2(fvif_log2_arg(1.0 + static_cast<double>(s1) / nsq));
        if (s12 < 0.0f)
            n = 0.0f;
        if (static_cast<double>(s1) < nsq) {
            n = 1.0f - s2 * sigma_max_inv;
            d = 1.0f;
        }
        *num = n;
        *den = d;
    }
};

} // namespace vmafhip
