// VMAF models: libvmaf's JSON model files loaded as data, and the per-frame
// prediction from feature values (docs/model.md).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace vmafhip {

/// One model as a libvmaf model spec names it ("version=vmaf_v0.6.1:name=vmaf").
struct ModelSpec {
    std::string version;           ///< built-in model name, or ""
    std::string path;              ///< JSON file, or "" (version wins when both are given)
    std::string name;              ///< output name; "" = libvmaf's default ("vmaf")
    bool enable_transform = false; ///< VMAF_MODEL_FLAG_ENABLE_TRANSFORM
    bool disable_clip = false;     ///< VMAF_MODEL_FLAG_DISABLE_CLIP
    /// "<extractor>.<option>=<value>" overloads, in order.
    struct Overload {
        std::string extractor, option, value;
    };
    std::vector<Overload> overloads;
};

/// A feature a model reads, and the extractor options the model sets for it.
struct ModelFeature {
    std::string libvmaf_name;                                 ///< e.g. "VMAF_integer_feature_adm2_score"
    std::vector<std::pair<std::string, std::string>> options; ///< (option name, value text)
};

class Model {
public:
    virtual ~Model() = default;
    /// Load spec; @return 0 or a negative errno with *msg naming the model and what is wrong.
    static int load(const ModelSpec &spec,
                    const std::function<std::string(const std::string &)> &extractor_of,
                    std::unique_ptr<Model> *out, std::string *msg);
    virtual const std::string &name() const = 0;
    virtual const std::vector<ModelFeature> &features() const = 0;
    virtual const std::vector<std::string> &output_names() const = 0;
    virtual int main_output() const = 0;
    virtual void predict(const double *features, double *out) const = 0;
};

const std::vector<std::string> &builtin_models();

} // namespace vmafhip
