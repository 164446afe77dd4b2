// The metrics of a context: settings validation, creation of the enabled
// extractors in libvmaf's output order, and the finish of a frame's scores.
#include "core/metrics.h"

#include <cerrno>

#include "base/log.h"
#include "core/options.h"

namespace vmafhip {

namespace {

int check_settings(const VmafHipSettings &s, std::string *msg)
{
    if (s.struct_size != sizeof(VmafHipSettings)) {
        *msg = strprintf("settings struct_size is %zu, this library expects %zu: "
                         "fill the settings with vmafhip_default_settings()",
                         s.struct_size, sizeof(VmafHipSettings));
        return -EINVAL;
    }
    // 32768 keeps every size computation (and the 4K-and-beyond use cases)
    // far from integer overflow: 32768^2 * 2 bytes = 2 GiB per plane.
    if (s.width < 1 || s.width > 32768 || s.height < 1 || s.height > 32768) {
        *msg = strprintf("frame size %dx%d is not supported: width and height must be 1 to 32768",
                         s.width, s.height);
        return -EINVAL;
    }
    if (s.bitdepth != 8 && s.bitdepth != 10 && s.bitdepth != 12 && s.bitdepth != 16) {
        *msg = strprintf("bit depth %d is not supported: accepted are 8, 10, 12 and 16",
                         s.bitdepth);
        return -EINVAL;
    }
    const int chroma = stored_enum(s.chroma);
    if (chroma < VMAFHIP_CHROMA_420 || chroma > VMAFHIP_CHROMA_400) {
        *msg = strprintf("chroma layout %d is not supported: accepted are 420, 422, 444 and 400",
                         chroma);
        return -EINVAL;
    }
    if (!s.features || (s.features & ~static_cast<unsigned>(VMAFHIP_FEATURE_ALL))) {
        *msg = strprintf("feature mask 0x%x is not valid: use psnr, float_ssim and/or adm",
                         s.features);
        return -EINVAL;
    }
    const int backend = stored_enum(s.backend);
    if (backend < VMAFHIP_BACKEND_AUTO || backend > VMAFHIP_BACKEND_HIP) {
        *msg = strprintf("backend %d is not valid: accepted are auto, cpu and hip", backend);
        return -EINVAL;
    }
    const int log_level = stored_enum(s.log_level);
    if (log_level < VMAFHIP_LOG_ERROR || log_level > VMAFHIP_LOG_DEBUG) {
        *msg = strprintf("log_level %d is not valid: accepted are 0 (errors) to 3 (debug)", log_level);
        return -EINVAL;
    }
    if (s.device < 0) {
        *msg = strprintf("device index %d is not valid: it must be 0 or more", s.device);
        return -EINVAL;
    }
    if (s.threads < 0 || s.threads > 1024) {
        *msg = strprintf("threads %d is not valid: accepted are 0 (one per core) to 1024", s.threads);
        return -EINVAL;
    }
    if (s.queue_depth < 0 || s.queue_depth > 16) {
        *msg = strprintf("queue_depth %d is not valid: accepted are 0 (automatic) to 16",
                         s.queue_depth);
        return -EINVAL;
    }
    return check_options(s, msg);
}

} // namespace

int metrics_create(const VmafHipSettings &s, Metrics *mp, std::vector<std::string> *names,
                   std::vector<std::string> *aggregate_names, std::string *msg)
{
    int ret;
    if ((ret = check_settings(s, msg)) < 0)
        return ret;
    Metrics &m = *mp;
    m.g.w = s.width;
    m.g.h = s.height;
    m.g.bpc = s.bitdepth;
    m.g.chroma = s.chroma;
    m.features = s.features;
    if (s.features & VMAFHIP_FEATURE_ADM) {
        if ((ret = Adm::check(s.adm, m.g, msg)) < 0)
            return ret;
        m.adm = std::make_unique<Adm>(s.adm, m.g, feature_name_suffix(s, "adm"));
    }
    if (s.features & VMAFHIP_FEATURE_PSNR) {
        if ((ret = Psnr::check(s.psnr, m.g, msg)) < 0)
            return ret;
        m.psnr = std::make_unique<Psnr>(s.psnr, m.g);
    }
    if (s.features & VMAFHIP_FEATURE_FLOAT_SSIM) {
        if ((ret = Ssim::check(s.ssim, m.g, msg)) < 0)
            return ret;
        m.ssim = std::make_unique<Ssim>(s.ssim, m.g);
    }
    // libvmaf's output order: adm, then psnr, then float_ssim.
    if (m.adm) {
        m.adm_offset = names->size();
        m.adm->names(names);
    }
    if (m.psnr) {
        m.psnr_offset = names->size();
        m.psnr->names(names);
        m.psnr->aggregate_names(aggregate_names);
    }
    if (m.ssim) {
        m.ssim_offset = names->size();
        m.ssim->names(names);
    }
    return 0;
}

void metrics_finish(const Metrics &m, const FrameAccum &a, double *out)
{
    if (m.adm)
        m.adm->finish(a.adm, out + m.adm_offset);
    if (m.psnr)
        m.psnr->finish(a.psnr, out + m.psnr_offset);
    if (m.ssim)
        m.ssim->finish(a.ssim, out + m.ssim_offset);
}

} // namespace vmafhip
