#include "core/specs.h"

#include <cerrno>

#include "base/log.h"
#include "extractors/options.h"

namespace vmafhip {

namespace {

std::string extractor_list()
{
    std::string out;
    for (const ExtractorInfo *e : extractor_table())
        out += std::string(out.empty() ? "" : ", ") + e->name;
    return out;
}

// "key=value" into its halves. @return false when there is no '=' or no key.
bool key_value(const std::string &kv, std::string *key, std::string *value)
{
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
        return false;
    *key = kv.substr(0, eq);
    *value = kv.substr(eq + 1);
    return true;
}

int parse_bool(const std::string &entry, const std::string &key, const std::string &v, bool *out,
               std::string *msg)
{
    if (v == "true" || v == "1" || v == "false" || v == "0") {
        *out = v == "true" || v == "1";
        return 0;
    }
    *msg = strprintf("model '%s': %s=%s is not valid: accepted values are true and false",
                     entry.c_str(), key.c_str(), v.c_str());
    return -EINVAL;
}

// One features entry: "NAME", "NAME=opt=val:opt=val" or "name=NAME:opt=val".
int parse_feature(const std::string &entry, FeatureRequest *r, std::string *msg)
{
    std::string name, rest;
    if (entry.compare(0, 5, "name=") == 0) {
        const size_t colon = entry.find(':');
        name = entry.substr(5, colon == std::string::npos ? colon : colon - 5);
        rest = colon == std::string::npos ? "" : entry.substr(colon + 1);
    } else {
        const size_t eq = entry.find('=');
        name = entry.substr(0, eq);
        rest = eq == std::string::npos ? "" : entry.substr(eq + 1);
    }
    r->info = find_extractor(name);
    if (!r->info) {
        *msg = strprintf("feature '%s': unknown feature '%s': accepted features are %s",
                         entry.c_str(), name.c_str(), extractor_list().c_str());
        return -EINVAL;
    }
    r->text = entry;
    r->options = default_options(*r->info);
    if (rest.empty())
        return 0;
    for (const std::string &kv : split(rest, ':')) {
        std::string key, value;
        if (!key_value(kv, &key, &value)) {
            *msg = strprintf("feature '%s': '%s' is not of the form option=value", entry.c_str(),
                             kv.c_str());
            return -EINVAL;
        }
        std::string why;
        const int ret = set_option(*r->info, &r->options, key, value, &why);
        if (ret < 0) {
            *msg = strprintf("feature '%s': %s", entry.c_str(), why.c_str());
            return ret;
        }
        r->given.push_back(find_option(*r->info, key)->name);
    }
    return 0;
}

// One models entry: "key=value:key=value".
int parse_model(const std::string &entry, ModelSpec *m, std::string *msg)
{
    for (const std::string &kv : split(entry, ':')) {
        std::string key, value;
        if (!key_value(kv, &key, &value)) {
            *msg = strprintf("model '%s': '%s' is not of the form key=value", entry.c_str(),
                             kv.c_str());
            return -EINVAL;
        }
        int ret = 0;
        const size_t dot = key.find('.');
        if (key == "version")
            m->version = value;
        else if (key == "path")
            m->path = value;
        else if (key == "name")
            m->name = value;
        else if (key == "enable_transform")
            ret = parse_bool(entry, key, value, &m->enable_transform, msg);
        else if (key == "disable_clip")
            ret = parse_bool(entry, key, value, &m->disable_clip, msg);
        else if (dot != std::string::npos && dot > 0 && dot + 1 < key.size())
            m->overloads.push_back({key.substr(0, dot), key.substr(dot + 1), value});
        else {
            *msg = strprintf("model '%s': unknown key '%s': accepted keys are version, path, "
                             "name, enable_transform, disable_clip and FEATURE.OPTION "
                             "(e.g. adm.adm_enhn_gain_limit)",
                             entry.c_str(), key.c_str());
            ret = -EINVAL;
        }
        if (ret < 0)
            return ret;
    }
    if (m->version.empty() && m->path.empty()) {
        *msg = strprintf("model '%s': neither version= (a built-in model) nor path= (a model "
                         "file) is given",
                         entry.c_str());
        return -EINVAL;
    }
    return 0;
}

} // namespace

std::vector<std::string> split(const std::string &s, char sep)
{
    std::vector<std::string> out;
    size_t pos = 0;
    for (;;) {
        const size_t end = s.find(sep, pos);
        out.push_back(s.substr(pos, end == std::string::npos ? end : end - pos));
        if (end == std::string::npos)
            return out;
        pos = end + 1;
    }
}

int parse_features(const char *text, std::vector<FeatureRequest> *out, std::string *msg)
{
    if (!text)
        return 0;
    for (const std::string &entry : split(text, '|')) {
        if (entry.empty())
            continue;
        FeatureRequest r;
        const int ret = parse_feature(entry, &r, msg);
        if (ret < 0)
            return ret;
        out->push_back(r);
    }
    return 0;
}

int parse_models(const char *text, std::vector<ModelSpec> *out, std::string *msg)
{
    if (!text)
        return 0;
    for (const std::string &entry : split(text, '|')) {
        if (entry.empty())
            continue;
        ModelSpec m;
        const int ret = parse_model(entry, &m, msg);
        if (ret < 0)
            return ret;
        out->push_back(m);
    }
    return 0;
}

} // namespace vmafhip
