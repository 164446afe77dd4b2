// ciede host side: the table entry, the formats libvmaf scores, the name and
// the score (docs/ciede.md).
#include "extractors/ciede/ciede.h"

#include <cerrno>
#include <cmath>
#include <iterator>

#include "base/log.h"

namespace vmafhip {

extern const GpuImpl ciede_gpu;

namespace {

const ProvidedFeature provides[] = {
    {"ciede2000", "ciede2000"},
};

std::unique_ptr<Extractor> create(const ExtractorConfig &c, int *ret, std::string *msg)
{
    return create_checked<Ciede>(ciede_extractor, c, ret, msg);
}

} // namespace

const ExtractorInfo ciede_extractor = {
    .name = "ciede",
    .help = "libvmaf's CIEDE2000 colour difference of BT.709 YUV as CIE L*a*b*: ciede2000",
    .options = nullptr,
    .n_options = 0,
    .provides = provides,
    .n_provides = static_cast<int>(std::size(provides)),
    .min_w = 1,
    .min_h = 1,
    .bit_depths = bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16),
    .max_lookahead = 0,
    .create = create,
    .gpu = VMAFHIP_GPU_IMPL(ciede_gpu),
};

int Ciede::check(const ExtractorConfig &c, std::string *msg)
{
    const Geometry &g = c.g;
    // §2: what libvmaf scores as it means to.
    switch (g.chroma) {
    case VMAFHIP_CHROMA_400:
        *msg = "ciede: 4:0:0 is not accepted: libvmaf's ciede needs the Cb and Cr planes; use "
               "4:2:0 or 4:4:4";
        return -EINVAL;
    case VMAFHIP_CHROMA_422:
        *msg = "ciede: 4:2:2 is not accepted: libvmaf's ciede upsamples 4:2:2 chroma as if it "
               "were half height and full width, reading samples outside the chroma planes; use "
               "4:2:0 or 4:4:4";
        return -EINVAL;
    case VMAFHIP_CHROMA_420:
        if ((g.w | g.h) & 1) {
            *msg = strprintf("ciede: 4:2:0 frame %dx%d is not accepted: libvmaf's ciede reads "
                             "one chroma column or row past the planes of odd sizes; width and "
                             "height must be even",
                             g.w, g.h);
            return -EINVAL;
        }
        return 0;
    default:
        return 0;
    }
}

Ciede::Ciede(const ExtractorConfig &c) : Extractor(ciede_extractor), g_(c.g) {}

void Ciede::names(std::vector<std::string> *out) const
{
    out->push_back("ciede2000");
}

void Ciede::finish(unsigned, const void *accum, double *out)
{
    // §5: the mean difference over the unsigned pixel count; 0 gives +inf.
    const double pixels = static_cast<unsigned>(g_.w) * static_cast<unsigned>(g_.h);
    out[0] = 45. - 20. * std::log10(static_cast<const CiedeAccum *>(accum)->sum / pixels);
}

} // namespace vmafhip
