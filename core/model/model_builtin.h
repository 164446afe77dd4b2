// The model files of models/, compiled into the library: the table is
// generated at build time by core/model/embed_models.py, which checks each file
// against models/SHA256SUMS (docs/model.md §1).
#pragma once

#include <cstddef>
#include <string>

namespace vmafhip {

struct BuiltinModel {
    const char *version; ///< the name models are loaded by, e.g. "vmaf_v0.6.1"
    const char *text;    ///< the JSON file, byte for byte
    size_t size;         ///< bytes of text
    const char *sha256;  ///< of text, as models/SHA256SUMS lists it
};

/// In the order of builtin_models(), the default first.
extern const BuiltinModel builtin_model_table[];
extern const size_t builtin_model_count;

/// The built-in model named `version`, or nullptr.
const BuiltinModel *find_builtin_model(const std::string &version);

} // namespace vmafhip
