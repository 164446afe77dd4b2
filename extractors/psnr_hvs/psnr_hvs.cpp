// psnr_hvs host side: the table entry, the format checks, names and the dB
// values (docs/psnr_hvs.md).
#include "extractors/psnr_hvs/psnr_hvs.h"

#include <cerrno>
#include <cstdint>
#include <cmath>
#include <iterator>

#include "base/log.h"

namespace vmafhip {

namespace {

const ProvidedFeature provides[] = {
    {"psnr_hvs_y", "psnr_hvs_y"},
    {"psnr_hvs_cb", "psnr_hvs_cb"},
    {"psnr_hvs_cr", "psnr_hvs_cr"},
    {"psnr_hvs", "psnr_hvs"},
};

std::unique_ptr<Extractor> create(const ExtractorConfig &c, int *ret, std::string *msg)
{
    return create_checked<PsnrHvs>(psnr_hvs_extractor, c, ret, msg);
}

/// §5: psnr_hvs.c's convert_score_db with weight 1: 0 gives +inf.
double to_db(double score)
{
    return 10 * (-1 * std::log10(1.0 * score));
}

} // namespace

extern const GpuImpl psnr_hvs_gpu;

const ExtractorInfo psnr_hvs_extractor = {
    .name = "psnr_hvs",
    .help = "libvmaf's PSNR-HVS (8x8 DCT, contrast sensitivity and masking): psnr_hvs_y, "
            "psnr_hvs_cb, psnr_hvs_cr, psnr_hvs",
    .options = nullptr,
    .n_options = 0,
    .provides = provides,
    .n_provides = static_cast<int>(std::size(provides)),
    .min_w = PSNR_HVS_BLOCK,
    .min_h = PSNR_HVS_BLOCK,
    .bit_depths = bit_depth(8) | bit_depth(10) | bit_depth(12),
    .max_lookahead = 0,
    .create = create,
    .gpu = VMAFHIP_GPU_IMPL(psnr_hvs_gpu),
};

int PsnrHvs::check(const ExtractorConfig &c, std::string *msg)
{
    const Geometry &g = c.g;
    // §2: libvmaf refuses 4:0:0 (its init fails without a message).
    if (g.chroma == VMAFHIP_CHROMA_400) {
        *msg = "psnr_hvs: 4:0:0 is not accepted: libvmaf's psnr_hvs scores the Cb and Cr "
               "planes too; use 4:2:0, 4:2:2 or 4:4:4";
        return -EINVAL;
    }
    // §6: a plane without a whole block gives libvmaf 0/0, a NaN; refuse.
    const int min_w = PSNR_HVS_BLOCK << g.ss_x(), min_h = PSNR_HVS_BLOCK << g.ss_y();
    if (g.w < min_w || g.h < min_h) {
        *msg = strprintf("psnr_hvs: frame %dx%d has a plane smaller than the %dx%d DCT block: "
                         "this chroma format needs at least %dx%d",
                         g.w, g.h, PSNR_HVS_BLOCK, PSNR_HVS_BLOCK, min_w, min_h);
        return -ERANGE;
    }
    return 0;
}

PsnrHvs::PsnrHvs(const ExtractorConfig &c) : Extractor(psnr_hvs_extractor), g_(c.g) {}

void PsnrHvs::names(std::vector<std::string> *out) const
{
    for (const ProvidedFeature &p : provides)
        out->push_back(p.output_name);
}

void PsnrHvs::finish(unsigned, const void *accum, double *out)
{
    const PsnrHvsAccum &a = *static_cast<const PsnrHvsAccum *>(accum);
    // §5: in float32, the sum over the coefficients counted, then over the
    // squared peak (int products converted to float, as in C).
    const int32_t peak = (1 << g_.bpc) - 1;
    double score[3];
    for (int p = 0; p < 3; p++) {
        const int32_t coefficients =
            psnr_hvs_blocks(g_.scored_w(p)) * psnr_hvs_blocks(g_.scored_h(p)) * PSNR_HVS_TERMS;
        float r = static_cast<float>(a.sum[p]);
        r /= static_cast<float>(coefficients);
        r /= static_cast<float>(peak * peak);
        score[p] = r;
        out[p] = to_db(score[p]);
    }
    out[3] = to_db(score[0] * .8 + .1 * (score[1] + score[2]));
}

} // namespace vmafhip
