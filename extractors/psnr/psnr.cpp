// psnr host side: the table entry, names, caps and the scalar finish
// (docs/psnr.md; § numbers below are its sections).
#include "extractors/psnr/psnr.h"

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <iterator>

#include "extractors/options.h"
#include "extractors/psnr/psnr_cpu_rows.h"

namespace vmafhip {

namespace {

#define PSNR_OPT(f) offsetof(PsnrOptions, f)

// Names, defaults and ranges are libvmaf's (integer_psnr.c).
const OptionSpec options[] = {
    {.name = "enable_chroma", .alias = nullptr, .type = OptionType::Bool,
     .offset = PSNR_OPT(enable_chroma), .def = 1, .min = 0, .max = 1,
     .in_name = false,
     .help = "compute psnr_cb and psnr_cr too"},
    {.name = "enable_mse", .alias = nullptr, .type = OptionType::Bool,
     .offset = PSNR_OPT(enable_mse), .def = 0, .min = 0, .max = 1,
     .in_name = false,
     .help = "also report mse_y, mse_cb, mse_cr"},
    {.name = "enable_apsnr", .alias = nullptr, .type = OptionType::Bool,
     .offset = PSNR_OPT(enable_apsnr), .def = 0, .min = 0, .max = 1,
     .in_name = false,
     .help = "report apsnr_y, apsnr_cb, apsnr_cr over the whole stream"},
    {.name = "reduced_hbd_peak", .alias = nullptr, .type = OptionType::Bool,
     .offset = PSNR_OPT(reduced_hbd_peak), .def = 0, .min = 0, .max = 1,
     .in_name = false,
     .help = "use the peak 255*2^(bpc-8) instead of 2^bpc-1 above 8 bits"},
    {.name = "min_sse", .alias = nullptr, .type = OptionType::Double,
     .offset = PSNR_OPT(min_sse), .def = 0, .min = 0, .max = DBL_MAX,
     .in_name = false,
     .help = "SSE floor that sets the PSNR cap; 0 = cap at 6*bpc+12 dB"},
};

#undef PSNR_OPT

const ProvidedFeature provides[] = {
    {"psnr_y", "psnr_y"},   {"psnr_cb", "psnr_cb"}, {"psnr_cr", "psnr_cr"},
    {"mse_y", "mse_y"},     {"mse_cb", "mse_cb"},   {"mse_cr", "mse_cr"},
};

std::unique_ptr<Extractor> create(const ExtractorConfig &c, int *, std::string *)
{
    return std::make_unique<Psnr>(c); // any size from 1x1 and every bit depth
}

// libvmaf's peak for bpc > 8 and for apsnr (§3).
uint32_t peak_of(const PsnrOptions &o, int bpc)
{
    return o.reduced_hbd_peak ? 255u << (bpc - 8) : (1u << bpc) - 1;
}

// libvmaf's MAX/MIN macros: (a) > (b) ? (a) : (b). Kept literally so NaN
// (a 0-pixel plane) takes the same branch (§4.3, §6).
double max_of(double a, double b) { return a > b ? a : b; }
double min_of(double a, double b) { return a < b ? a : b; }

const char *const plane_suffix[] = {"y", "cb", "cr"};

} // namespace

extern const GpuImpl psnr_gpu;

const ExtractorInfo psnr_extractor = {
    .name = "psnr",
    .help = "integer PSNR of luma and chroma: psnr_y, psnr_cb, psnr_cr",
    .options = options,
    .n_options = static_cast<int>(std::size(options)),
    .provides = provides,
    .n_provides = static_cast<int>(std::size(provides)),
    .min_w = 1,
    .min_h = 1,
    .bit_depths = bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16),
    .max_lookahead = 0,
    .create = create,
    .gpu = VMAFHIP_GPU_IMPL(psnr_gpu),
};

Psnr::Psnr(const ExtractorConfig &c)
    : Extractor(psnr_extractor), o_(options_struct<PsnrOptions>(psnr_extractor, c.options)),
      g_(c.g), planes_(o_.enable_chroma && c.g.chroma != VMAFHIP_CHROMA_400 ? 3 : 1),
      k_(&choose_kernels(c.cpu_flags, psnr_kernels_scalar(), psnr_kernels_avx2()))
{
    const uint32_t peak = peak_of(o_, g_.bpc);
    for (int p = 0; p < 3; p++) {
        if (o_.min_sse == 0.0) {
            psnr_max_[p] = 6 * g_.bpc + 12;
            continue;
        }
        const unsigned n = static_cast<unsigned>(g_.scored_w(p)) * static_cast<unsigned>(g_.scored_h(p));
        const double mse_floor = o_.min_sse / n;
        psnr_max_[p] = std::ceil(10 * std::log10(static_cast<double>(peak * peak) / mse_floor));
    }
}

void Psnr::names(std::vector<std::string> *out) const
{
    // libvmaf writes each plane's psnr and then its mse (integer_psnr.c extract()).
    for (int p = 0; p < planes_; p++) {
        out->push_back(std::string("psnr_") + plane_suffix[p]);
        if (o_.enable_mse)
            out->push_back(std::string("mse_") + plane_suffix[p]);
    }
}

void Psnr::aggregate_names(std::vector<std::string> *out) const
{
    if (o_.enable_apsnr)
        for (int p = 0; p < 3; p++)
            out->push_back(std::string("apsnr_") + plane_suffix[p]);
}

void Psnr::finish(unsigned, const void *accum, double *out)
{
    const PsnrAccum &a = *static_cast<const PsnrAccum *>(accum);
    // The 8-bit path of libvmaf uses the literal 255^2; the same value.
    const uint32_t peak = g_.bpc == 8 ? 255 : peak_of(o_, g_.bpc);
    const double p2 = static_cast<double>(peak * peak);
    for (int p = 0; p < planes_; p++) {
        const unsigned n = static_cast<unsigned>(g_.scored_w(p)) * static_cast<unsigned>(g_.scored_h(p));
        const double mse = static_cast<double>(a.sse[p]) / static_cast<double>(n);
        *out++ = min_of(10 * std::log10(p2 / max_of(mse, 1e-16)), psnr_max_[p]);
        if (o_.enable_mse)
            *out++ = mse;
        total_sse_[p] += a.sse[p];
        total_n_[p] += n;
    }
}

void Psnr::aggregate(double *out) const
{
    const uint32_t peak = peak_of(o_, g_.bpc);
    const uint64_t p2 = static_cast<uint64_t>(peak) * peak;
    for (int p = 0; p < 3; p++) {
        // §5: three separate log10s; a disabled plane gives NaN vs -inf: -inf.
        const double apsnr = 10 * (std::log10(static_cast<double>(p2)) +
                                   std::log10(static_cast<double>(total_n_[p])) -
                                   std::log10(static_cast<double>(total_sse_[p])));
        const double max_apsnr = std::ceil(10 * std::log10(static_cast<double>(p2 * total_n_[p] * 2)));
        out[p] = apsnr < max_apsnr ? apsnr : max_apsnr;
    }
}

} // namespace vmafhip
