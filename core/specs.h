// The feature and model strings of VmafHipSettings, parsed: libvmaf's CLI
// spellings ("adm=adm_enhn_gain_limit=1", "version=vmaf_v0.6.1:name=vmaf")
// and FFmpeg libvmaf filter spellings ("name=adm:adm_enhn_gain_limit=1"),
// entries separated by '|'. Names and values are checked against the
// extractor table; models are only named here (core/model/model.h loads them).
#pragma once

#include <string>
#include <vector>

#include "core/model/model.h"
#include "extractors/extractor.h"

namespace vmafhip {

/// One requested extractor with its options.
struct FeatureRequest {
    const ExtractorInfo *info = nullptr;
    OptionValues options;
    std::vector<std::string> given; ///< options the request set, by name, for messages
    std::string text;               ///< the entry as written, for messages
};

/// Parse the features string (NULL or "" = none). Empty entries are skipped.
/// @return 0, -EINVAL (unknown extractor or option, bad syntax or value) or
///         -ERANGE (value out of range), with *msg naming the entry and what
///         is accepted.
int parse_features(const char *text, std::vector<FeatureRequest> *out, std::string *msg);

/// Parse the models string (NULL or "" = none). Empty entries are skipped.
/// @return 0 or -EINVAL with *msg naming the entry and what is accepted.
int parse_models(const char *text, std::vector<ModelSpec> *out, std::string *msg);

/// Split s at every `sep`.
std::vector<std::string> split(const std::string &s, char sep);

} // namespace vmafhip
