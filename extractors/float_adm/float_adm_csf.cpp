// float_adm CSF weights (docs/float_adm.md §5): Watson (shared with the
// integer ADM), Barten as HDR-VDP2 simplifies it, and the DLM paper's own
// CSF, each in libvmaf's float/double order; then the per-scale overrides.
#include <cmath>

#include "extractors/adm/adm.h"
#include "extractors/float_adm/float_adm.h"

namespace vmafhip {

namespace {

constexpr double PI = 3.14159265358979323846; // M_PI

/// §5.2 the nominal spatial frequency of scale lambda: half the display's
/// pixels per degree at scale 0, float where libvmaf stores it.
float scale_frequency(double nvd, int rdh, int lambda)
{
    const float r = static_cast<float>(nvd * rdh * PI / 180.0);
    return static_cast<float>(r / std::pow(2.0, lambda + 1));
}

// §5.2 barten_csf_tools.h's tables (float literals). libvmaf calls C's double
// exp/pow/log10 on float values: the double() casts keep C++ off the float
// overloads.
constexpr float BARTEN_LUM_ANCHORS[6] = {0.002f, 0.02f, 0.2f, 2.0f, 20.0f, 150.0f};
constexpr float BARTEN_PARAMS[6][5] = {
    {0.0160737f, 0.991265f, 3.74038f, 0.50722f, 4.46044f},
    {0.383873f, 0.800889f, 3.54104f, 0.682505f, 4.94958f},
    {0.929301f, 0.476505f, 4.37453f, 0.750315f, 5.28678f},
    {1.29776f, 0.405782f, 4.40602f, 0.935314f, 5.61425f},
    {1.49222f, 0.334278f, 3.79542f, 1.07327f, 6.4635f},
    {1.46213f, 0.394533f, 2.7755f, 1.16577f, 7.45665f},
};
constexpr float BARTEN_SA[4] = {30.162f, 4.0627f, 1.6596f, 0.2712f};
constexpr float BARTEN_MTF_A[4] = {0.424838596301290f, 0.572435103936480f,
                                   0.000167576239164937f, 0.00255872352306433f};
constexpr float BARTEN_MTF_B[4] = {0.028f, 0.37f, 37.0f, 360.0f};
/// DEFAULT_ADM_CSF_LUMINANCE_LEVEL, cd/m²: float_adm has no option for it.
constexpr double BARTEN_LUMINANCE = 100.0;

float lerp(float x0, float y0, float x1, float y1, float x)
{
    return y0 + ((y1 - y0) / (x1 - x0)) * (x - x0);
}

float barten_mtf(float f)
{
    float mtf = 0.0f;
    for (int i = 0; i < 4; i++)
        mtf = static_cast<float>(mtf + BARTEN_MTF_A[i] * std::exp(double(-BARTEN_MTF_B[i] * f)));
    return mtf;
}

float barten_rod_cone(float lum)
{
    return static_cast<float>(
        BARTEN_SA[0] *
        std::pow(std::pow(double(BARTEN_SA[1] / lum), double(BARTEN_SA[2])) + 1, double(-BARTEN_SA[3])));
}

/// §5.2 Barten's CSF at the default luminance, times `scale`.
float barten_csf(double nvd, int rdh, int lambda, double scale)
{
    const float f = scale_frequency(nvd, rdh, lambda);
    const double lum = BARTEN_LUMINANCE < BARTEN_LUM_ANCHORS[0]   ? BARTEN_LUM_ANCHORS[0]
                       : BARTEN_LUMINANCE > BARTEN_LUM_ANCHORS[5] ? BARTEN_LUM_ANCHORS[5]
                                                                  : BARTEN_LUMINANCE;
    int lo = 0, hi = 0;
    for (int i = 0; i < 5; i++)
        if (lum >= BARTEN_LUM_ANCHORS[i] && lum <= BARTEN_LUM_ANCHORS[i + 1]) {
            lo = i;
            hi = i + 1;
            break;
        }
    const float x0 = static_cast<float>(std::log10(double(BARTEN_LUM_ANCHORS[lo])));
    const float x1 = static_cast<float>(std::log10(double(BARTEN_LUM_ANCHORS[hi])));
    const float x = static_cast<float>(std::log10(lum));
    float p[4];
    for (int k = 0; k < 4; k++)
        p[k] = lerp(x0, BARTEN_PARAMS[lo][k + 1], x1, BARTEN_PARAMS[hi][k + 1], x);
    const float a = static_cast<float>(1.0f + std::pow(double(p[0] * f), double(p[1])));
    const float b = static_cast<float>(
        1.0f / std::pow(1 - std::exp(-std::pow(double(f / 7), 2.0)), double(p[2]))); // f / 7: a float division
    const float csf = static_cast<float>(p[3] / std::pow(double(a * b), 0.5));
    const float lum_f = static_cast<float>(BARTEN_LUMINANCE);
    return static_cast<float>(csf * barten_mtf(f) * barten_rod_cone(lum_f) * scale);
}

/// §5.3 the CSF of the DLM paper (Li et al. 2011), theta 0 (H, V) or 45 (D).
float native_csf(double nvd, int rdh, int lambda, int theta)
{
    float f = scale_frequency(nvd, rdh, lambda);
    if (theta == 45)
        f = static_cast<float>(f / 0.7);
    return static_cast<float>((0.31 + 0.69 * f) * std::exp(-0.29 * f));
}

} // namespace

void FloatAdm::csf_weights(const FloatAdmOptions &o, float rf[FLOAT_ADM_SCALES][2])
{
    const double nvd = o.norm_view_dist;
    const int rdh = o.ref_display_height;
    for (int s = 0; s < FLOAT_ADM_SCALES; s++) {
        switch (o.csf_mode) {
        case FLOAT_ADM_CSF_BARTEN:
            rf[s][0] = barten_csf(nvd, rdh, s, o.csf_scale);
            rf[s][1] = barten_csf(nvd, rdh, s, o.csf_diag_scale);
            break;
        case FLOAT_ADM_CSF_NATIVE:
            rf[s][0] = native_csf(nvd, rdh, s, 0);
            rf[s][1] = native_csf(nvd, rdh, s, 45);
            break;
        default: // §5.1: 0 and every unnamed mode up to 9
            rf[s][0] = watson_rf(nvd, rdh, s, 1);
            rf[s][1] = watson_rf(nvd, rdh, s, 2);
        }
        // §5.4: adm_f1sN / adm_f2sN replace the model's weight when not negative.
        if (o.f1s[s] >= 0)
            rf[s][0] = static_cast<float>(o.f1s[s]);
        if (o.f2s[s] >= 0)
            rf[s][1] = static_cast<float>(o.f2s[s]);
    }
}

} // namespace vmafhip
