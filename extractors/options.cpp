#include "extractors/options.h"

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdlib>

#include "base/log.h"

namespace vmafhip {

namespace {

// Parses text for o into *v. @return 0 or -EINVAL.
int parse_value(const OptionSpec &o, const std::string &text, double *v)
{
    if (o.type == OptionType::Bool) {
        if (text == "true" || text == "1")
            *v = 1;
        else if (text == "false" || text == "0")
            *v = 0;
        else
            return -EINVAL;
        return 0;
    }
    if (o.type == OptionType::Enum) {
        for (int i = 0; o.choices[i]; i++)
            if (text == o.choices[i]) {
                *v = i;
                return 0;
            }
        return -EINVAL;
    }
    const char *s = text.c_str();
    char *end = nullptr;
    errno = 0;
    if (o.type == OptionType::Int) {
        const long l = std::strtol(s, &end, 10);
        if (end == s || *end || errno)
            return -EINVAL;
        // Out-of-int values stay out of range (and are reported as such).
        *v = l < INT_MIN ? INT_MIN - 1.0 : l > INT_MAX ? INT_MAX + 1.0 : static_cast<double>(l);
        return 0;
    }
    *v = std::strtod(s, &end);
    if (end == s || *end || errno || std::isnan(*v))
        return -EINVAL;
    return 0;
}

} // namespace

OptionValues default_options(const ExtractorInfo &e)
{
    OptionValues v;
    for (int i = 0; i < e.n_options; i++)
        v.push_back(e.options[i].def);
    return v;
}

const OptionSpec *find_option(const ExtractorInfo &e, const std::string &name)
{
    for (int i = 0; i < e.n_options; i++) {
        const OptionSpec &o = e.options[i];
        if (name == o.name || (o.alias && name == o.alias))
            return &o;
    }
    return nullptr;
}

int set_option(const ExtractorInfo &e, OptionValues *v, const std::string &name,
               const std::string &text, std::string *msg)
{
    const OptionSpec *o = find_option(e, name);
    for (int i = 0; !o && i < e.n_unsupported; i++) {
        const UnsupportedOption &u = e.unsupported[i];
        if (name == u.name || (u.alias && name == u.alias)) {
            *msg = strprintf("%s option %s is not supported by vmafhip yet: %s", e.name, u.name,
                             u.why);
            return -EINVAL;
        }
    }
    if (!o) {
        std::string list;
        for (int i = 0; i < e.n_options; i++)
            list += std::string(i ? ", " : "") + e.options[i].name;
        *msg = strprintf("unknown option '%s' for feature %s: accepted options are %s",
                         name.c_str(), e.name, list.empty() ? "none" : list.c_str());
        return -EINVAL;
    }
    double d;
    if (parse_value(*o, text, &d) < 0) {
        *msg = strprintf("%s option %s: '%s' is not a valid value: accepted values are %s", e.name,
                         o->name, text.c_str(), option_range(*o).c_str());
        return -EINVAL;
    }
    if (!(d >= o->min && d <= o->max)) {
        *msg = strprintf("%s option %s: %s is out of range: accepted values are %s", e.name,
                         o->name, text.c_str(), option_range(*o).c_str());
        return -ERANGE;
    }
    (*v)[static_cast<size_t>(o - e.options)] = d;
    return 0;
}

std::string option_suffix(const ExtractorInfo &e, const OptionValues &v)
{
    std::vector<int> changed;
    for (int i = 0; i < e.n_options; i++)
        if (e.options[i].in_name && v[i] != e.options[i].def)
            changed.push_back(i);
    // libvmaf orders the suffixes by option name (not alias).
    std::sort(changed.begin(), changed.end(), [&](int a, int b) {
        return std::string(e.options[a].name) < e.options[b].name;
    });
    std::string out;
    for (int i : changed) {
        const OptionSpec &o = e.options[i];
        const char *key = o.alias ? o.alias : o.name;
        if (o.type == OptionType::Bool)
            out += v[i] ? strprintf("_%s", key) : std::string();
        else if (o.type == OptionType::Int)
            out += strprintf("_%s_%d", key, static_cast<int>(v[i]));
        else if (o.type == OptionType::Enum)
            out += strprintf("_%s_%s", key, format_option(o, v[i]).c_str());
        else
            out += strprintf("_%s_%g", key, v[i]);
    }
    return out;
}

std::string format_option(const OptionSpec &o, double v)
{
    switch (o.type) {
    case OptionType::Bool: return v ? "true" : "false";
    case OptionType::Int: return strprintf("%d", static_cast<int>(v));
    case OptionType::Enum: return o.choices[static_cast<int>(v)];
    case OptionType::Double: break;
    }
    return o.max == DBL_MAX && v == DBL_MAX ? "DBL_MAX" : strprintf("%g", v);
}

std::string option_range(const OptionSpec &o)
{
    if (o.type == OptionType::Bool)
        return "true or false";
    if (o.type == OptionType::Enum) {
        std::string out;
        for (int i = 0; o.choices[i]; i++)
            out += std::string(i == 0 ? "" : o.choices[i + 1] ? ", " : " or ") + o.choices[i];
        return out;
    }
    return format_option(o, o.min) + " to " + format_option(o, o.max);
}

} // namespace vmafhip
