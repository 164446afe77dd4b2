// psnr host side: names, caps and the scalar finish (spec psnr.md §4-§6).
#include "extractors/psnr.h"

#include <cerrno>
#include <cmath>

#include "base/log.h"

namespace vmafhip {

namespace {

// libvmaf's peak for bpc > 8 and for apsnr (spec §4).
uint32_t peak_of(const VmafHipPsnrSettings &s, int bpc)
{
    return s.reduced_hbd_peak ? 255u << (bpc - 8) : (1u << bpc) - 1;
}

// libvmaf's MAX/MIN macros: (a) > (b) ? (a) : (b). Kept literally so NaN
// (a 0-pixel plane) takes the same branch.
double max_of(double a, double b) { return a > b ? a : b; }
double min_of(double a, double b) { return a < b ? a : b; }

const char *const plane_suffix[] = {"y", "cb", "cr"};

} // namespace

int Psnr::check(const VmafHipPsnrSettings &, const Geometry &, std::string *)
{
    return 0; // any size from 1x1 and every supported bit depth
}

Psnr::Psnr(const VmafHipPsnrSettings &s, const Geometry &g)
    : s_(s), g_(g), planes_(s.enable_chroma && g.chroma != VMAFHIP_CHROMA_400 ? 3 : 1)
{
    const uint32_t peak = peak_of(s, g.bpc);
    for (int p = 0; p < 3; p++) {
        if (s.min_sse == 0.0) {
            psnr_max_[p] = 6 * g.bpc + 12;
            continue;
        }
        const unsigned n = static_cast<unsigned>(g.scored_w(p)) * static_cast<unsigned>(g.scored_h(p));
        const double mse_floor = s.min_sse / n;
        psnr_max_[p] = std::ceil(10 * std::log10(static_cast<double>(peak * peak) / mse_floor));
    }
}

void Psnr::names(std::vector<std::string> *out) const
{
    for (int p = 0; p < planes_; p++)
        out->push_back(std::string("psnr_") + plane_suffix[p]);
    if (s_.enable_mse)
        for (int p = 0; p < planes_; p++)
            out->push_back(std::string("mse_") + plane_suffix[p]);
}

void Psnr::aggregate_names(std::vector<std::string> *out) const
{
    if (s_.enable_apsnr)
        for (int p = 0; p < 3; p++)
            out->push_back(std::string("apsnr_") + plane_suffix[p]);
}

void Psnr::finish(const PsnrAccum &a, double *out)
{
    // The 8-bit path of libvmaf uses the literal 255^2; the same value.
    const uint32_t peak = g_.bpc == 8 ? 255 : peak_of(s_, g_.bpc);
    const double p2 = static_cast<double>(peak * peak);
    for (int p = 0; p < planes_; p++) {
        const unsigned n = static_cast<unsigned>(g_.scored_w(p)) * static_cast<unsigned>(g_.scored_h(p));
        const double mse = static_cast<double>(a.sse[p]) / static_cast<double>(n);
        out[p] = min_of(10 * std::log10(p2 / max_of(mse, 1e-16)), psnr_max_[p]);
        if (s_.enable_mse)
            out[planes_ + p] = mse;
        total_sse_[p] += a.sse[p];
        total_n_[p] += n;
    }
}

void Psnr::aggregate(double *out) const
{
    const uint32_t peak = peak_of(s_, g_.bpc);
    const uint64_t p2 = static_cast<uint64_t>(peak) * peak;
    for (int p = 0; p < 3; p++) {
        // Spec §6: three separate log10s; a disabled plane gives NaN vs -inf: -inf.
        const double apsnr = 10 * (std::log10(static_cast<double>(p2)) +
                                   std::log10(static_cast<double>(total_n_[p])) -
                                   std::log10(static_cast<double>(total_sse_[p])));
        const double max_apsnr = std::ceil(10 * std::log10(static_cast<double>(p2 * total_n_[p] * 2)));
        out[p] = apsnr < max_apsnr ? apsnr : max_apsnr;
    }
}

} // namespace vmafhip
