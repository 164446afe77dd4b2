// Option values of an extractor instance, read and written through its
// OptionSpec table: defaults, parsing and range checks of text values,
// libvmaf's output-name suffix, and the typed options struct an extractor
// works with.
#pragma once

#include <cstring>
#include <string>

#include "extractors/extractor.h"

namespace vmafhip {

/// The default value of every option of e.
OptionValues default_options(const ExtractorInfo &e);

/// The option of e named `name` (or its alias), or nullptr.
const OptionSpec *find_option(const ExtractorInfo &e, const std::string &name);

/// Set option `name` (or its alias) of e from text: numbers, or
/// true/false/1/0 for booleans.
/// @return 0, -EINVAL (unknown option, unparsable value) or -ERANGE (out of
///         range), with *msg naming the option and what is accepted.
int set_option(const ExtractorInfo &e, OptionValues *v, const std::string &name,
               const std::string &text, std::string *msg);

/// libvmaf's name suffix of the options flagged in_name that differ from
/// their defaults, e.g. "_egl_1" ("" when all are at their defaults).
std::string option_suffix(const ExtractorInfo &e, const OptionValues &v);

/// A value as help texts and messages print it ("true", "3", "0.03125").
std::string format_option(const OptionSpec &o, double v);
/// The accepted values, e.g. "1 to 100" or "true or false".
std::string option_range(const OptionSpec &o);

/// The options struct T of an extractor filled from v: each OptionSpec's
/// offset names an int (Bool, Int) or a double field of T.
template <typename T> T options_struct(const ExtractorInfo &e, const OptionValues &v)
{
    T out{};
    for (int i = 0; i < e.n_options; i++) {
        char *field = reinterpret_cast<char *>(&out) + e.options[i].offset;
        if (e.options[i].type == OptionType::Double) {
            const double d = v[i];
            std::memcpy(field, &d, sizeof d);
        } else {
            const int n = static_cast<int>(v[i]);
            std::memcpy(field, &n, sizeof n);
        }
    }
    return out;
}

} // namespace vmafhip
