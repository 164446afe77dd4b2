// The metrics of a context, fixed at open: the extractor instances in
// libvmaf's registration order (the models' extractors first, then the
// requested features, each (extractor, output names) pair once), the models
// and which columns they read, the per-frame columns, and the layout of a
// frame's accumulator block. Finishing a frame's scores from its
// accumulators is the same host code for every backend.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/log.h"
#include "core/model/model.h"
#include "extractors/extractor.h"

namespace vmafhip {

/// Most frames in flight a context's settings may ask for (queue_depth).
constexpr int kMaxQueueDepth = 16;

/// Start of every frame's accumulator block; the extractors' blocks follow.
struct FrameHeader {
    uint32_t max_sample; ///< largest sample of every plane read (range check above 8 bits)
    uint32_t reserved;
};

/// One extractor of a context and where its data lives.
struct Instance {
    std::unique_ptr<Extractor> ext;
    OptionValues options;
    std::string suffix;              ///< libvmaf's name suffix of its options
    std::string origin;              ///< what asked for it first, for messages
    size_t accum_offset = 0;         ///< of its block in the frame's accumulator block
    size_t names = 0, n_names = 0;   ///< first column and count of names()
    size_t lead = 0, n_lead = 0;     ///< of the leading late_names() (Extractor::leading_late())
    size_t late = 0, n_late = 0;     ///< of the other late_names()
    size_t aggregates = 0, n_aggregates = 0;
};

/// One model of a context.
struct ModelSlot {
    std::unique_ptr<Model> model;
    std::string source;         ///< version or path, as given
    std::vector<size_t> inputs; ///< column of each of the model's features
    size_t outputs = 0;         ///< first column of its output_names()
};

struct Metrics {
    Geometry g;
    unsigned cpu_flags = 0; ///< CpuFlag bits the CPU code may use: the CPU's, less the cpumask
    unsigned n_subsample = 1;
    std::vector<Instance> ext;
    std::vector<ModelSlot> models;
    std::vector<std::string> names;           ///< per-frame columns, libvmaf's log order
    std::vector<std::string> aggregate_names; ///< end-of-stream values
    size_t accum_bytes = 0;                   ///< FrameHeader and every extractor's block
    int planes = 1;                           ///< planes of both pictures read: 1 or 3
    int lookbehind = 0;                       ///< earlier reference pictures read
    bool lookbehind_dis = false;              ///< their distorted pictures too (prev_dis)
    bool lookbehind_chroma = false;           ///< their chroma too (prev_ref_chroma; planes is 3)
    int lookahead = 0;                        ///< later frames a frame's scores need
    std::vector<double> model_inputs;         ///< scratch of metrics_complete()
    std::vector<double> late_values;          ///< scratch of metrics_complete()

    /// Frames that n_subsample keeps: they have scores.
    bool scored(unsigned index) const { return index % n_subsample == 0; }
    /// Whether extractor x runs on frame index.
    bool runs(const Instance &x, unsigned index) const
    {
        return scored(index) || x.ext->every_frame();
    }
    /// Some extractor reads other frames than the scored one.
    bool temporal() const { return lookbehind > 0 || lookahead > 0; }
};

/// Validate s (sizes, formats, features, models, each extractor's limits),
/// load the models and create the extractors. Warnings (a feature that an
/// earlier one already computes) go to log.
/// @return 0 or a negative errno with *msg saying what is wrong and what is accepted.
int metrics_create(const VmafHipSettings &s, const Logger &log, Metrics *m, std::string *msg);

/// The names() columns of frame `index` from its accumulator block, for the
/// extractors that ran on it. Call in frame order.
void metrics_finish(Metrics &m, unsigned index, const uint8_t *accum, double *row);

/// The late_names() columns of frame `index` and, if it is scored, its
/// model outputs. Call in frame order once frames up to index + lookahead
/// are finished, or with `frames` = the stream's final length (0 while it
/// is not known).
void metrics_complete(Metrics &m, unsigned index, unsigned frames, double *row);

/// The aggregate_names() values after the last frame.
void metrics_aggregate(const Metrics &m, double *out);

} // namespace vmafhip
