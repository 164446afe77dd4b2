// The metrics of a context: settings validation, libvmaf's registration of
// extractors (models first, then features, duplicates dropped), columns, the
// accumulator layout, and the finish of a frame's scores.
#include "core/metrics.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <limits>

#include "base/cpu_flags.h"
#include "core/options.h"
#include "core/specs.h"
#include "extractors/options.h"

namespace vmafhip {

namespace {

constexpr size_t kAccumAlign = 16;

size_t align_accum(size_t v)
{
    return (v + kAccumAlign - 1) / kAccumAlign * kAccumAlign;
}

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
    if (s.n_subsample < 1) {
        *msg = strprintf("n_subsample %d is not valid: it must be 1 (every frame) or more",
                         s.n_subsample);
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
    if (s.threads < 0 || s.threads > VMAFHIP_MAX_THREADS) {
        *msg = strprintf("threads %d is not valid: accepted are 0 (one per core) to %d", s.threads,
                         VMAFHIP_MAX_THREADS);
        return -EINVAL;
    }
    if (s.queue_depth < 0 || s.queue_depth > kMaxQueueDepth) {
        *msg = strprintf("queue_depth %d is not valid: accepted are 0 (automatic) to %d",
                         s.queue_depth, kMaxQueueDepth);
        return -EINVAL;
    }
    if (s.gpu_wait != 0 && s.gpu_wait != 1) {
        *msg = strprintf("gpu_wait %d is not valid: accepted are 0 (score on the CPU while the GPU "
                         "starts) and 1 (wait for the GPU)", s.gpu_wait);
        return -EINVAL;
    }
    if (s.private_reference != 0 && s.private_reference != 1) {
        *msg = strprintf("private_reference %d is not valid: accepted are 0 (share reference "
                         "pictures with other contexts on the GPU) and 1 (copy them privately)",
                         s.private_reference);
        return -EINVAL;
    }
    const int layout = stored_enum(s.layout);
    if (layout < VMAFHIP_LAYOUT_PLANAR || layout > VMAFHIP_LAYOUT_NV_MSB) {
        *msg = strprintf("plane layout %d is not valid: accepted are 0 (planar), 1 (semi-planar: "
                         "nv12 and kin) and 2 (semi-planar, samples in the high bits: p010 and kin)",
                         layout);
        return -EINVAL;
    }
    if (layout != VMAFHIP_LAYOUT_PLANAR && chroma == VMAFHIP_CHROMA_400) {
        *msg = "a semi-planar layout needs chroma planes: 4:0:0 (gray) has luma only";
        return -EINVAL;
    }
    if (layout == VMAFHIP_LAYOUT_NV_MSB && s.bitdepth == 8) {
        *msg = "samples in the high bits of 16-bit words (p010 and kin) are 10, 12 or 16 bits, not "
               "8: 8-bit semi-planar pictures (nv12) are the layout nv";
        return -EINVAL;
    }
    return 0;
}

std::string bit_depth_list(unsigned mask)
{
    std::string out;
    for (int b = 8; b <= 16; b++)
        if (mask & bit_depth(b))
            out += strprintf("%s%d", out.empty() ? "" : ", ", b);
    return out;
}

/// Add extractor `info` with `options` unless an instance with the same
/// output names exists (libvmaf drops such a registration silently; we say
/// so when it asked for other options). @return its index, or a negative errno.
int add_instance(Metrics *m, const ExtractorInfo &info, const OptionValues &options,
                 const std::string &origin, const Logger &log, std::string *msg)
{
    const std::string suffix = option_suffix(info, options);
    for (size_t i = 0; i < m->ext.size(); i++) {
        const Instance &x = m->ext[i];
        if (&x.ext->info() != &info || x.suffix != suffix)
            continue;
        if (x.options != options)
            log.log(VMAFHIP_LOG_WARNING,
                    "%s: %s with the same output names already runs (for %s), so this one is "
                    "dropped and its other options are ignored, as libvmaf does; give it an "
                    "option that renames its outputs to run both\n",
                    origin.c_str(), info.name, x.origin.c_str());
        return static_cast<int>(i);
    }
    ExtractorConfig c;
    c.g = m->g;
    c.options = options;
    c.suffix = suffix;
    c.cpu_flags = m->cpu_flags;
    int ret = -EINVAL;
    std::unique_ptr<Extractor> e = info.create(c, &ret, msg);
    if (!e)
        return ret;
    if (!(info.bit_depths & bit_depth(m->g.bpc))) {
        *msg = strprintf("%s: bit depth %d is not supported: accepted are %s", info.name, m->g.bpc,
                         bit_depth_list(info.bit_depths).c_str());
        return -ENOTSUP;
    }
    Instance x;
    x.ext = std::move(e);
    x.options = options;
    x.suffix = suffix;
    x.origin = origin;
    m->ext.push_back(std::move(x));
    return static_cast<int>(m->ext.size() - 1);
}

std::string extractor_of(const std::string &libvmaf_name)
{
    const ExtractorInfo *e = find_provider(libvmaf_name);
    return e ? e->name : "";
}

/// Load one model and register the extractors its features need.
/// *instances gets, per model feature, the index of its instance.
int add_model(Metrics *m, const ModelSpec &spec, const Logger &log, std::vector<int> *instances,
              std::string *msg)
{
    ModelSlot slot;
    slot.source = spec.version.empty() ? spec.path : spec.version;
    int ret = Model::load(spec, extractor_of, &slot.model, msg);
    if (ret < 0)
        return ret;
    const std::string origin = "model " + slot.source;
    for (const ModelFeature &f : slot.model->features()) {
        const ExtractorInfo &info = *find_provider(f.libvmaf_name); // load() checked it
        OptionValues options = default_options(info);
        for (const auto &kv : f.options) {
            std::string why;
            if ((ret = set_option(info, &options, kv.first, kv.second, &why)) < 0) {
                *msg = strprintf("%s, feature %s: %s", origin.c_str(), f.libvmaf_name.c_str(),
                                 why.c_str());
                return ret;
            }
        }
        if ((ret = add_instance(m, info, options, origin, log, msg)) < 0)
            return ret;
        instances->push_back(ret);
    }
    m->models.push_back(std::move(slot));
    return 0;
}

/// Columns, accumulator layout and the frame-level properties.
void lay_out(Metrics *m)
{
    m->accum_bytes = align_accum(sizeof(FrameHeader));
    for (Instance &x : m->ext) {
        x.accum_offset = m->accum_bytes;
        m->accum_bytes += align_accum(x.ext->accum_bytes());
        m->planes = std::max(m->planes, x.ext->planes());
        m->lookbehind = std::max(m->lookbehind, x.ext->lookbehind());
        m->lookbehind_dis = m->lookbehind_dis || x.ext->lookbehind_dis();
        m->lookbehind_chroma = m->lookbehind_chroma || x.ext->lookbehind_chroma();
        m->lookahead = std::max(m->lookahead, x.ext->lookahead());
    }
    // libvmaf's log order: what extractors write per frame (with the late
    // outputs libvmaf lists among them), then what they write at the end of
    // the stream (motion2, motion3), then the models.
    std::vector<std::vector<std::string>> late(m->ext.size());
    for (size_t k = 0; k < m->ext.size(); k++) {
        Instance &x = m->ext[k];
        x.ext->late_names(&late[k]);
        x.n_lead = static_cast<size_t>(x.ext->leading_late());
        x.lead = m->names.size();
        m->names.insert(m->names.end(), late[k].begin(), late[k].begin() + x.n_lead);
        x.names = m->names.size();
        x.ext->names(&m->names);
        x.n_names = m->names.size() - x.names;
    }
    for (size_t k = 0; k < m->ext.size(); k++) {
        Instance &x = m->ext[k];
        x.late = m->names.size();
        m->names.insert(m->names.end(), late[k].begin() + x.n_lead, late[k].end());
        x.n_late = m->names.size() - x.late;
    }
    for (ModelSlot &s : m->models) {
        s.outputs = m->names.size();
        for (const std::string &n : s.model->output_names())
            m->names.push_back(n);
    }
    for (Instance &x : m->ext) {
        x.aggregates = m->aggregate_names.size();
        x.ext->aggregate_names(&m->aggregate_names);
        x.n_aggregates = m->aggregate_names.size() - x.aggregates;
    }
}

/// The column of each model input. @return 0 or -EINVAL.
int connect_models(Metrics *m, const std::vector<std::vector<int>> &instances, std::string *msg)
{
    for (size_t k = 0; k < m->models.size(); k++) {
        ModelSlot &s = m->models[k];
        const auto &features = s.model->features();
        for (size_t j = 0; j < features.size(); j++) {
            const Instance &x = m->ext[static_cast<size_t>(instances[k][j])];
            const std::string name =
                provided_output_name(x.ext->info(), features[j].libvmaf_name, x.suffix);
            const auto it = std::find(m->names.begin(), m->names.end(), name);
            if (it == m->names.end()) {
                *msg = strprintf("model %s reads %s, which %s writes only with other options "
                                 "(e.g. debug=true)",
                                 s.source.c_str(), features[j].libvmaf_name.c_str(),
                                 x.ext->info().name);
                return -EINVAL;
            }
            s.inputs.push_back(static_cast<size_t>(it - m->names.begin()));
        }
    }
    return 0;
}

int check_unique_names(const Metrics &m, std::string *msg)
{
    for (size_t i = 0; i < m.names.size(); i++)
        for (size_t j = i + 1; j < m.names.size(); j++)
            if (m.names[i] == m.names[j]) {
                *msg = strprintf("two scores are named '%s': give each model its own name "
                                 "(name=...) that no feature uses",
                                 m.names[i].c_str());
                return -EINVAL;
            }
    return 0;
}

} // namespace

int metrics_create(const VmafHipSettings &s, const Logger &log, Metrics *m, std::string *msg)
{
    int ret;
    if ((ret = check_settings(s, msg)) < 0)
        return ret;
    m->g.w = s.width;
    m->g.h = s.height;
    m->g.bpc = s.bitdepth;
    m->g.chroma = s.chroma;
    m->g.layout = s.layout;
    m->n_subsample = static_cast<unsigned>(s.n_subsample);
    m->cpu_flags = cpu_flags() & ~s.cpumask;
    log.log(VMAFHIP_LOG_DEBUG, "CPU kernels: %s\n",
            m->cpu_flags & CPU_FLAG_AVX2 ? "AVX2"
            : cpu_flags() & CPU_FLAG_AVX2 ? "plain C++ (cpumask turns AVX2 off)"
                                          : "plain C++ (no AVX2 on this CPU)");

    std::vector<ModelSpec> specs;
    std::vector<FeatureRequest> requests;
    if ((ret = parse_models(s.models, &specs, msg)) < 0 ||
        (ret = parse_features(s.features, &requests, msg)) < 0)
        return ret;
    if (specs.empty() && requests.empty()) {
        *msg = "nothing to compute: the settings name no model and no feature";
        return -EINVAL;
    }
    std::vector<std::vector<int>> instances(specs.size());
    for (size_t k = 0; k < specs.size(); k++)
        if ((ret = add_model(m, specs[k], log, &instances[k], msg)) < 0)
            return ret;
    for (const FeatureRequest &r : requests)
        if ((ret = add_instance(m, *r.info, r.options, "feature '" + r.text + "'", log, msg)) < 0)
            return ret;
    lay_out(m);
    if ((ret = check_unique_names(*m, msg)) < 0)
        return ret;
    return connect_models(m, instances, msg);
}

void metrics_finish(Metrics &m, unsigned index, const uint8_t *accum, double *row)
{
    for (Instance &x : m.ext) {
        if (m.runs(x, index))
            x.ext->finish(index, accum + x.accum_offset, row + x.names);
        else
            std::fill_n(row + x.names, x.n_names, std::numeric_limits<double>::quiet_NaN());
    }
}

void metrics_complete(Metrics &m, unsigned index, unsigned frames, double *row)
{
    for (Instance &x : m.ext) {
        if (!x.n_lead) {
            if (x.n_late)
                x.ext->finish_late(index, frames, row + x.late);
            continue;
        }
        // The leading columns stand apart from the others (lay_out()).
        m.late_values.resize(x.n_lead + x.n_late);
        x.ext->finish_late(index, frames, m.late_values.data());
        std::copy_n(m.late_values.begin(), x.n_lead, row + x.lead);
        std::copy_n(m.late_values.begin() + static_cast<ptrdiff_t>(x.n_lead), x.n_late, row + x.late);
    }
    if (!m.scored(index))
        return;
    for (const ModelSlot &s : m.models) {
        m.model_inputs.clear();
        for (size_t c : s.inputs)
            m.model_inputs.push_back(row[c]);
        s.model->predict(m.model_inputs.data(), row + s.outputs);
    }
}

void metrics_aggregate(const Metrics &m, double *out)
{
    for (const Instance &x : m.ext)
        if (x.n_aggregates)
            x.ext->aggregate(out + x.aggregates);
}

} // namespace vmafhip
