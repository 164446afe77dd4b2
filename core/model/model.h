// VMAF models: libvmaf's JSON model files (built in, or any file by path),
// and the per-frame scores they predict from per-frame feature values, bit
// for bit as libvmaf 3.2 (f85a8536) computes them, bootstrap collections
// included. Host only. How and why: docs/model.md.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace vmafhip {

struct SvrModel;

/// One model as a libvmaf model spec names it ("version=vmaf_v0.6.1:name=vmaf", parsed elsewhere).
struct ModelSpec {
    std::string version;   ///< built-in model name, or ""
    std::string path;      ///< JSON file, or "" (version wins when both are given, as libvmaf's filter does)
    std::string name;      ///< output name; "" = libvmaf's default ("vmaf")
    bool enable_transform = false; ///< VMAF_MODEL_FLAG_ENABLE_TRANSFORM
    bool disable_clip = false;     ///< VMAF_MODEL_FLAG_DISABLE_CLIP
    /// "<extractor>.<option>=<value>" overloads (libvmaf vmaf_model_feature_overload), in order.
    struct Overload { std::string extractor, option, value; };
    std::vector<Overload> overloads;
};

/// A feature a model reads, and the extractor options the model sets for it
/// (feature_opts_dicts, then overloads), as text values ("1" or "1.0": whatever parses as the option's number).
struct ModelFeature {
    std::string libvmaf_name;                                  ///< e.g. "VMAF_integer_feature_adm2_score"
    std::vector<std::pair<std::string, std::string>> options;  ///< (option name, value text)
};

/// The extractor ("adm", "vif", "motion", ...) providing a libvmaf feature
/// name, or "" when none does.
using ExtractorOf = std::function<std::string(const std::string &libvmaf_name)>;

/// A loaded model (or bootstrap collection), ready to predict.
/// Thread-safety: immutable once loaded; predict() may run on any number of
/// threads at once.
class Model {
public:
    /// Load spec.
    /// @param extractor_of  names the extractor of each feature the model reads
    ///                      (overloads match on it); only called during load.
    /// @param out           receives the model on success, untouched otherwise.
    /// @param msg           on failure: names the model (file path or version)
    ///                      and says what is wrong and what is accepted.
    /// @return 0 | -EINVAL malformed or unsupported model, unknown version,
    ///         unknown feature | -ENOENT, -EACCES, -EISDIR, -EFBIG, ... the file
    ///         | -ENOMEM. Never throws.
    static int load(const ModelSpec &spec, const ExtractorOf &extractor_of,
                    std::unique_ptr<Model> *out, std::string *msg);
    /// Same, from JSON text already in memory (spec.version and spec.path are
    /// not read); `origin` names the text in messages.
    static int load_text(const std::string &text, const std::string &origin,
                         const ModelSpec &spec, const ExtractorOf &extractor_of,
                         std::unique_ptr<Model> *out, std::string *msg);

    ~Model();
    Model(const Model &) = delete;
    Model &operator=(const Model &) = delete;

    const std::string &name() const { return name_; }
    /// Inputs, in the model's order (a collection: every sub-model's, each once).
    const std::vector<ModelFeature> &features() const { return features_; }
    /// {name}, or for a bootstrap collection libvmaf's list: name,
    /// name_0001..name_NNNN, name_bagging, name_stddev, name_ci_p95_lo,
    /// name_ci_p95_hi.
    const std::vector<std::string> &output_names() const { return output_names_; }
    /// Index in output_names() of the score libvmaf's tools report as the
    /// model's pooled score: the (main) model's own score, always 0.
    int main_output() const { return 0; }
    /// Per-frame outputs (output_names() order) from one frame's feature
    /// values (features() order). No allocation for a single model.
    void predict(const double *features, double *out) const;

private:
    Model();

    std::string name_;
    std::vector<ModelFeature> features_;
    std::vector<std::string> output_names_;
    /// One model, or a collection's main model followed by its sub-models.
    std::vector<SvrModel> parts_;
    /// For each part, the position in features_ of each of its inputs.
    std::vector<std::vector<int>> inputs_;
    bool bootstrap_ = false;
};

/// Names of the built-in models, the default (vmaf_v0.6.1) first.
const std::vector<std::string> &builtin_models();

} // namespace vmafhip
