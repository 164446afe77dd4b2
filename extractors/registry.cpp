// The extractor table: every extractor vmafhip has, in one list.
#include <cstring>

#include "extractors/adm/adm.h"
#include "extractors/extractor.h"
#include "extractors/motion/motion.h"
#include "extractors/psnr/psnr.h"
#include "extractors/ssim/ssim.h"
#include "extractors/vif/vif.h"

namespace vmafhip {

const std::vector<const ExtractorInfo *> &extractor_table()
{
    static const std::vector<const ExtractorInfo *> table = {
        &psnr_extractor,
        &ssim_extractor,
        &adm_extractor,
        &vif_extractor,
        &motion_extractor,
    };
    return table;
}

const ExtractorInfo *find_extractor(const std::string &name)
{
    for (const ExtractorInfo *e : extractor_table())
        if (name == e->name)
            return e;
    return nullptr;
}

const ExtractorInfo *find_provider(const std::string &libvmaf_name)
{
    for (const ExtractorInfo *e : extractor_table())
        for (int i = 0; i < e->n_provides; i++)
            if (libvmaf_name == e->provides[i].libvmaf_name)
                return e;
    return nullptr;
}

std::string provided_output_name(const ExtractorInfo &e, const std::string &libvmaf_name,
                                 const std::string &suffix)
{
    for (int i = 0; i < e.n_provides; i++)
        if (libvmaf_name == e.provides[i].libvmaf_name)
            return e.provides[i].output_name + suffix;
    return "";
}

} // namespace vmafhip
