// The extractor table: every extractor vmafhip has, in one list.
#include <cstring>

#include "extractors/extractor.h"

// The rows in the table's order, which is the order of help texts and of
// vmafhip_feature_info(). Each row is defined in its metric's folder
// (extractors/<metric>/<metric>.cpp); adding a metric adds one line here.
#define VMAFHIP_EXTRACTOR_ROWS(ROW) \
    ROW(psnr_extractor)             \
    ROW(ssim_extractor)             \
    ROW(adm_extractor)              \
    ROW(vif_extractor)              \
    ROW(motion_extractor)           \
    ROW(cambi_extractor)            \
    ROW(speed_chroma_extractor)     \
    ROW(speed_temporal_extractor)   \
    ROW(ms_ssim_extractor)          \
    ROW(psnr_hvs_extractor)         \
    ROW(ciede_extractor)            \
    ROW(float_adm_extractor)        \
    ROW(float_vif_extractor)        \
    ROW(float_motion_extractor)     \
    ROW(float_psnr_extractor)       \
    ROW(float_ansnr_extractor)      \
    ROW(float_moment_extractor)     \
    ROW(null_extractor)

namespace vmafhip {

#define VMAFHIP_DECLARE_ROW(row) extern const ExtractorInfo row;
VMAFHIP_EXTRACTOR_ROWS(VMAFHIP_DECLARE_ROW)
#undef VMAFHIP_DECLARE_ROW

const std::vector<const ExtractorInfo *> &extractor_table()
{
#define VMAFHIP_ROW_ADDRESS(row) &row,
    static const std::vector<const ExtractorInfo *> table = {VMAFHIP_EXTRACTOR_ROWS(VMAFHIP_ROW_ADDRESS)};
#undef VMAFHIP_ROW_ADDRESS
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

std::string gpu_unavailable(const Extractor &e)
{
    const GpuImpl *gpu = e.info().gpu;
    if (!gpu)
        return std::string(e.info().name) + " has no GPU implementation in this build";
    const std::string why = gpu->refuse ? gpu->refuse(e) : std::string();
    return why.empty() ? why : std::string(e.info().name) + " cannot run on the GPU here: " + why;
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
