// float_ssim host side: option checks, downscale factor and sizes (spec
// ssim.md §4), names and the scalar finish (§6, §1).
#include "extractors/ssim.h"

#include <algorithm>
#include <cerrno>
#include <cmath>

#include "base/log.h"
#include "kernels/ssim_ops.h"

namespace vmafhip {

namespace {

// libvmaf's MIN macro, (a) < (b) ? (a) : (b), kept literally: a NaN dB value
// (a mean above 1) takes the cap, as in float_ssim.c convert_to_db().
double min_of(double a, double b) { return a < b ? a : b; }

int scale_of(const VmafHipSsimSettings &s, const Geometry &g)
{
    return s.scale > 0 ? s.scale : Ssim::auto_scale(g.w, g.h);
}

} // namespace

int Ssim::auto_scale(int w, int h)
{
    // §4: a = min(W, H) / 256 in float, then libiqa's _round (truncate, +1
    // when the fraction is >= 0.5), at least 1.
    const float a = static_cast<float>(std::min(w, h)) / 256.0f;
    int r = static_cast<int>(a);
    if (a - static_cast<float>(r) >= 0.5f)
        r++;
    return std::max(1, r);
}

int Ssim::check(const VmafHipSsimSettings &s, const Geometry &g, std::string *msg)
{
    if (s.scale < 0 || s.scale > 10) {
        *msg = strprintf("float_ssim scale %d is not valid: accepted are 0 (automatic) and 1 to 10",
                         s.scale);
        return -EINVAL;
    }
    // §2: libvmaf reads any other depth as 8-bit bytes (garbage).
    if (g.bpc != 8 && g.bpc != 10 && g.bpc != 12 && g.bpc != 16) {
        *msg = strprintf("float_ssim: bit depth %d is not supported: accepted are 8, 10, 12 and 16",
                         g.bpc);
        return -EINVAL;
    }
    const int f = scale_of(s, g);
    const int dw = ssim_decimated_size(g.w, f), dh = ssim_decimated_size(g.h, f);
    if (dw < SSIM_MIN_SIZE || dh < SSIM_MIN_SIZE) {
        // §7: libvmaf does not check. Its SSIM map is then empty and it
        // reports 0/0 = NaN (a side of exactly 10) or 0 (smaller): refuse instead.
        *msg = strprintf("float_ssim: frame %dx%d downscaled by %d (%s) is %dx%d, smaller than "
                         "the %dx%d SSIM window: the frame must be at least %dx%d after "
                         "downscaling%s",
                         g.w, g.h, f, s.scale > 0 ? "scale option" : "automatic scale", dw, dh,
                         SSIM_MIN_SIZE, SSIM_MIN_SIZE, SSIM_MIN_SIZE, SSIM_MIN_SIZE,
                         s.scale > 1 ? "; use a smaller scale" : "");
        return -ERANGE;
    }
    return 0;
}

Ssim::Ssim(const VmafHipSsimSettings &s, const Geometry &g)
    : s_(s), scale_(scale_of(s, g)), dec_w_(ssim_decimated_size(g.w, scale_)),
      dec_h_(ssim_decimated_size(g.h, scale_)), max_db_(INFINITY)
{
    if (s.clip_db) {
        // §1: half a code value of error per frame; unsigned products as in
        // float_ssim.c init() (65535^2 and 32768^2 still fit).
        const unsigned peak = (1u << g.bpc) - 1;
        const double mse = 0.5 / (static_cast<unsigned>(g.w) * static_cast<unsigned>(g.h));
        max_db_ = std::ceil(10. * std::log10(peak * peak / mse));
    }
}

void Ssim::names(std::vector<std::string> *out) const
{
    out->push_back("float_ssim");
    if (s_.enable_lcs) { // float_ssim.c appends them in this order
        out->push_back("float_ssim_l");
        out->push_back("float_ssim_c");
        out->push_back("float_ssim_s");
    }
}

void Ssim::finish(const SsimAccum &a, double *out) const
{
    // §6: mean over the map with a signed int count, rounded to float.
    const double n = static_cast<double>(map_w() * map_h());
    const auto mean = [n](double sum) { return static_cast<double>(static_cast<float>(sum / n)); };
    double score = mean(a.ssim);
    if (s_.enable_db) // §1: the rounded mean, then dB; l/c/s stay linear
        score = min_of(-10. * std::log10(1 - score), max_db_);
    out[0] = score;
    if (s_.enable_lcs) {
        out[1] = mean(a.l);
        out[2] = mean(a.c);
        out[3] = mean(a.s);
    }
}

} // namespace vmafhip
