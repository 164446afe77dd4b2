// libvmaf's JSON model files, read and validated: one model ("model_dict")
// or a bootstrap collection ("0", "1", ...) (docs/model.md §2, §6).
#pragma once

#include <string>
#include <vector>

#include "core/model/model_svr.h"

namespace vmafhip {

/// The load flags and output name of a model spec.
struct ModelFlags {
    std::string name;              ///< the model's output name
    bool enable_transform = false; ///< VMAF_MODEL_FLAG_ENABLE_TRANSFORM
    bool disable_clip = false;     ///< VMAF_MODEL_FLAG_DISABLE_CLIP
};

/// What one file holds.
struct ModelFile {
    bool collection = false;
    /// The model, or a collection's main model ("0") then its sub-models.
    std::vector<SvrModel> models;
};

/// Most bytes of model JSON accepted (libvmaf's largest file has 0.4 MB).
constexpr size_t MODEL_MAX_BYTES = 16u << 20;

/// Read a model file's text. Throws ModelError (what is wrong and where, as
/// a JSON pointer) or std::bad_alloc.
ModelFile read_model_json(const std::string &text, const ModelFlags &flags);

} // namespace vmafhip
