// ciede's per-pixel arithmetic (docs/ciede.md §3-§4), shared by the CPU
// reference and the GPU kernels: a YUV sample to CIE L*a*b*, and the
// CIEDE2000 difference of two colours, in libvmaf's mix of float32 and double.
// Every float variable is a float32 rounding point of libvmaf's ciede.c;
// every other step is double. The squares are products (what libvmaf's
// compiler makes of pow(x, 2), and the same value); the other powers, roots
// and trigonometric functions are the C library's on the CPU, as libvmaf
// calls them: the double functions, except powf and fabsf where libvmaf calls
// those. On the GPU they are the device's (§7). Every § below is a section of
// docs/ciede.md.
#pragma once

#include <math.h>

#include "kernels/c_powf.h"
#include "kernels/hd.h"

namespace vmafhip {

/// A colour in CIE L*a*b*, each component rounded to float32 (libvmaf's LABColor).
struct CiedeLab {
    float l, a, b;
};

/// The frame's sum of per-pixel differences (double, in libvmaf's order);
/// the same bytes on the CPU and the GPU.
struct CiedeAccum {
    double sum;
};

constexpr double CIEDE_PI = 3.14159265358979323846; // M_CIEDE_PI

VMAFHIP_HD double ciede_sq(double x) { return x * x; }

/// §3.2: sRGB's transfer function undone (libvmaf's threshold 10 / 255).
VMAFHIP_HD double ciede_linear(double c)
{
    if (c > 10. / 255.)
        return ::pow((c + 0.055) * (1.0 / 1.055), 2.4);
    return c * (1.0 / 12.92);
}

/// §3.3: L*a*b*'s companding of one XYZ component, rounded to float.
VMAFHIP_HD float ciede_lab_f(double c)
{
    constexpr double KAPPA = 24389.0 / 27.0, EPSILON = 216.0 / 24389.0;
    if (c > EPSILON)
        return static_cast<float>(::pow(c, 1.0 / 3.0));
    return static_cast<float>((KAPPA * c + 16.0) * (1.0 / 116.0));
}

/// §4: the hue angle of (a', b'), in [0, 2 pi).
VMAFHIP_HD float ciede_hue_angle(float b, float a)
{
    if (b == 0.0 && a == 0.0)
        return 0.0;
    float h = static_cast<float>(::atan2(static_cast<double>(b), static_cast<double>(a)));
    if (h < 0.0)
        h = static_cast<float>(h + 2. * CIEDE_PI);
    return h;
}

VMAFHIP_HD float ciede_hue_difference(float c1, float c2, float h1, float h2)
{
    if (c1 == 0.0 || c2 == 0.0)
        return 0.0;
    const float d = h2 - h1;
    if (::fabsf(h1 - h2) <= CIEDE_PI)
        return d;
    return static_cast<float>(h2 <= h1 ? d + 2. * CIEDE_PI : d - 2. * CIEDE_PI);
}

VMAFHIP_HD float ciede_mean_hue(float h1, float h2)
{
    const float sum = h1 + h2;
    const float diff = h1 - h2;
    return static_cast<float>(::fabs(static_cast<double>(diff)) > CIEDE_PI ? (sum + 2.0 * CIEDE_PI) / 2.0
                                                                       : sum / 2.0);
}

VMAFHIP_HD float ciede_hue_weight(float h)
{
    return static_cast<float>(1.0 - 0.17 * ::cos(h - CIEDE_PI / 6.0) + 0.24 * ::cos(2.0 * h) +
                              0.32 * ::cos(3.0 * h + CIEDE_PI / 30.0) -
                              0.20 * ::cos(4.0 * h - 7.0 * CIEDE_PI / 20.0));
}

VMAFHIP_HD float ciede_rotation(float c_bar, float h_bar, int powf_kind)
{
    const float degrees_h = static_cast<float>(h_bar * (180.0 / CIEDE_PI));
    const float t = static_cast<float>((degrees_h - 275.0) * (1.0 / 25.0));
    // powf as libvmaf calls it (kernels/c_powf.h, §7)
    const float c7 = c_powf(c_bar, 7.0f, powf_kind);
    const float ratio = c7 / (c7 + c_powf(25.0f, 7.0f, powf_kind));
    const float t2 = t * t;
    const float degrees = static_cast<float>(60.0 * ::exp(static_cast<double>(-t2)));
    const float radians = static_cast<float>(degrees * (CIEDE_PI / 180.0));
    return static_cast<float>(-2.0 * ::sqrt(static_cast<double>(ratio)) *
                              ::sin(static_cast<double>(radians)));
}

VMAFHIP_HD CiedeLab ciede_lab(double y, double u, double v, int bpc)
{
    // §3.1: limited range to [0, 1] luma and [-1/2, 1/2] chroma, then BT.709.
    const double scale = 1 << (bpc - 8);
    y = (y - 16. * scale) * (1. / (219. * scale));
    u = (u - 128. * scale) * (1. / (224. * scale));
    v = (v - 128. * scale) * (1. / (224. * scale));
    const double r = ciede_linear(y + 1.28033 * v);
    const double g = ciede_linear(y - 0.21482 * u - 0.38059 * v);
    const double b = ciede_linear(y + 2.12798 * u);
    // §3.3: XYZ (sRGB primaries, D65), normalised by the white point.
    const double x = ciede_lab_f((r * 0.4124564390896921 + g * 0.357576077643909 + b * 0.18043748326639894) *
                           (1.0 / 0.95047));
    const double yy = ciede_lab_f(r * 0.21267285140562248 + g * 0.715152155287818 + b * 0.07217499330655958);
    const double z = ciede_lab_f((r * 0.019333895582329317 + g * 0.119192025881303 + b * 0.9503040785363677) *
                           (1.0 / 1.08883));
    return CiedeLab{static_cast<float>(116.0 * yy - 16.0), static_cast<float>(500.0 * (x - yy)),
                    static_cast<float>(200.0 * (yy - z))};
}

VMAFHIP_HD float ciede2000(const CiedeLab &c1, const CiedeLab &c2, int powf_kind)
{
    constexpr float KL = 0.65f, KC = 1.0f, KH = 4.0f;
    const float delta_l = c2.l - c1.l;
    const float l_bar = (c1.l + c2.l) / 2;
    const float chroma1 = static_cast<float>(::sqrt(ciede_sq(c1.a) + ciede_sq(c1.b)));
    const float chroma2 = static_cast<float>(::sqrt(ciede_sq(c2.a) + ciede_sq(c2.b)));
    const float c_bar = (chroma1 + chroma2) / 2;
    // a' stretches a by 1 + (1 - sqrt(C^7 / (C^7 + 25^7))) / 2.
    const double c_bar7 = ::pow(static_cast<double>(c_bar), 7.0);
    const double g = 1 - ::sqrt(c_bar7 / (c_bar7 + 6103515625.0)); // 25^7
    const float a1 = static_cast<float>(c1.a + (c1.a / 2) * g);
    const float a2 = static_cast<float>(c2.a + (c2.a / 2) * g);
    const float cp1 = static_cast<float>(::sqrt(ciede_sq(a1) + ciede_sq(c1.b)));
    const float cp2 = static_cast<float>(::sqrt(ciede_sq(a2) + ciede_sq(c2.b)));
    const float cp_bar = (cp1 + cp2) / 2;
    const float delta_c = cp2 - cp1;
    const float l50 = l_bar - 50;
    const float s_l = static_cast<float>(1. + ((0.015 * ciede_sq(l50)) / ::sqrt(20 + ciede_sq(l50))));
    const float s_c = static_cast<float>(1. + 0.045 * cp_bar);
    const float h1 = ciede_hue_angle(c1.b, a1);
    const float h2 = ciede_hue_angle(c2.b, a2);
    const float delta_h = ciede_hue_difference(chroma1, chroma2, h1, h2);
    const float cp12 = cp1 * cp2;
    const float delta_upper_h =
        static_cast<float>(2.0 * ::sqrt(static_cast<double>(cp12)) * ::sin(delta_h / 2.0));
    const float h_bar = ciede_mean_hue(h1, h2);
    const float t = ciede_hue_weight(h_bar);
    const float s_h = static_cast<float>(1.0 + 0.015 * cp_bar * t);
    const float r_t = ciede_rotation(cp_bar, h_bar, powf_kind);
    const float kl_sl = KL * s_l, kc_sc = KC * s_c, kh_sh = KH * s_h;
    const float lightness = delta_l / kl_sl;
    const float chroma = delta_c / kc_sc;
    const float hue = delta_upper_h / kh_sh;
    const float r_ch = r_t * chroma;
    const float cross = r_ch * hue;
    return static_cast<float>(::sqrt(ciede_sq(lightness) + ciede_sq(chroma) + ciede_sq(hue) + cross));
}

/// §2-§4: the difference at one pixel from the samples of its two colours
/// (luma, Cb, Cr of the reference, then of the distorted picture), which
/// libvmaf converts to float and then passes as doubles.
VMAFHIP_HD float ciede_pixel(float ry, float ru, float rv, float dy, float du, float dv, int bpc,
                             int powf_kind)
{
    return ciede2000(ciede_lab(ry, ru, rv, bpc), ciede_lab(dy, du, dv, bpc), powf_kind);
}

} // namespace vmafhip
