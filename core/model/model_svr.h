// One libvmaf SVR model (a "model_dict": normalisation, SVM, transform,
// clip) and its evaluation in libvmaf's operation order, plus the bootstrap
// statistics over a collection's sub-models (docs/model.md §3-§5).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/model/svm.h"

namespace vmafhip {

/// Most features one model may read (a bound of ours: libvmaf 3.2 sets
/// none, and its own models read 6).
constexpr int MODEL_MAX_FEATURES = 64;

/// What is wrong with a model file; the loader turns it into -EINVAL and a message.
struct ModelError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// libvmaf's model_type values.
enum class SvrType { NuSvr, Bootstrap, ResidueBootstrap };

/// The optional mapping of the score (docs/model.md §4).
struct ScoreTransform {
    bool enabled = false;
    bool has_p[3] = {false, false, false}; ///< p0, p1, p2 present (not absent or null)
    double p[3] = {0, 0, 0};
    std::vector<std::pair<double, double>> knots; ///< (x, y), empty = no piecewise mapping
    bool out_lte_in = false, out_gte_in = false;
};

struct SvrModel {
    std::string name;                  ///< output name
    SvrType type = SvrType::NuSvr;
    bool linear_rescale = false;       ///< norm_type: linear_rescale, or none
    double slope = 1, intercept = 0;   ///< of the output (slopes[0], intercepts[0])
    std::vector<std::string> feature_names; ///< libvmaf feature names, in node order
    /// feature_opts_dicts: per feature, (option, value text) in file order.
    std::vector<std::vector<std::pair<std::string, std::string>>> feature_opts;
    std::vector<double> slopes, intercepts; ///< per feature (linear_rescale only)
    bool clip = false;                 ///< score_clip present and not disabled
    double clip_min = 0, clip_max = 0;
    ScoreTransform transform;          ///< enabled by the file or the load flag
    /// chroma_correction_parameter (VMAF v1), 0 = none: when the SpEED chroma
    /// input is 0, it is replaced by parameter * (1 - adm3) (docs/model.md §3).
    double chroma_correction = 0;
    int correction_adm3 = -1, correction_speed = -1; ///< their positions in feature_names
    Svm svm;

    /// Normalise the inputs, run the SVM, denormalise: libvmaf's score before
    /// transform and clip. features[input[i]] is the value of features[i].
    double raw(const double *features, const int *input) const;
    /// The chroma correction on the normalised inputs x, when the model has one.
    void correct_chroma(double *x) const;
    /// The transform, when enabled.
    double transformed(double y) const;
    /// The clip, when enabled.
    double clipped(double y) const;
    /// What libvmaf writes for this model: raw, transformed, clipped.
    double score(double raw_score) const { return clipped(transformed(raw_score)); }
};

/// Statistics of a bootstrap collection from its sub-models' raw scores
/// (sorted in place), with `first` (the first sub-model) mapping them as
/// libvmaf does.
struct BootstrapStats {
    double bagging, stddev, ci_p95_lo, ci_p95_hi;
};
BootstrapStats bootstrap_stats(double *raw, unsigned n, const SvrModel &first);

} // namespace vmafhip
