#include "core/model/model_json.h"

#include <cfloat>
#include <charconv>
#include <cmath>
#include <string>
#include <utility>

#include "base/log.h"
#include "core/model/json_tree.h"
#include "core/model/svm.h"

namespace vmafhip {

namespace {

// Members in file order: a collection's models are read in file order, as
// libvmaf's streaming parser reads them.
using Json = JsonValue;

/// Most sub-models of a collection: libvmaf names them <name>_0001 to
/// <name>_9999 and matches keys of at most 4 digits.
constexpr unsigned MAX_SUB_MODELS = 9999;
/// Most support vector values (coefficients included) of one file, dense:
/// 32 MiB. libvmaf's vmaf_b_v0.6.3 has 30 thousand.
constexpr size_t MAX_SV_VALUES = size_t{4} << 20;

[[noreturn]] void fail(const std::string &where, const std::string &what)
{
    throw ModelError("at " + (where.empty() ? std::string("/") : where) + ": " + what);
}

std::string type_of(const Json &v)
{
    switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return "true/false";
    case Json::value_t::string: return "a string";
    case Json::value_t::array: return "an array";
    case Json::value_t::object: return "an object";
    case Json::value_t::number: return "a number";
    }
    return "?";
}

void expect(const Json &v, Json::value_t t, const char *what, const std::string &where)
{
    if (v.type() != t)
        fail(where, std::string("expected ") + what + ", found " + type_of(v));
}

double number(const Json &v, const std::string &where)
{
    if (!v.is_number())
        fail(where, "expected a number, found " + type_of(v));
    const double d = v.number();
    if (!std::isfinite(d))
        fail(where, v.text() + " is not a finite number");
    return d;
}

std::vector<double> numbers(const Json &v, const std::string &where)
{
    expect(v, Json::value_t::array, "an array of numbers", where);
    std::vector<double> out;
    for (size_t i = 0; i < v.size(); i++)
        out.push_back(number(v[i], where + "/" + std::to_string(i)));
    return out;
}

const std::string &text(const Json &v, const std::string &where)
{
    expect(v, Json::value_t::string, "a string", where);
    return v.text();
}

bool flag_text(const Json &v, const std::string &where)
{
    const std::string &s = text(v, where);
    if (s != "true" && s != "false")
        fail(where, quoted_text(s) + " is not \"true\" or \"false\"");
    return s == "true";
}

/// A feature option value as libvmaf's dictionary stores it: numbers
/// rounded to float and printed "%g" (dict.c, VMAF_DICT_NORMALIZE_NUMERICAL_VALUES),
/// booleans "true"/"false", strings as they are (the extractor reads them:
/// "speed_prescale_method": "bilinear").
std::string option_text(const Json &v, const std::string &where)
{
    if (v.is_boolean())
        return v.boolean() ? "true" : "false";
    if (v.type() == Json::value_t::string)
        return v.text();
    if (!v.is_number())
        fail(where, "expected a number, true/false or a string, found " + type_of(v));
    const double d = number(v, where);
    if (std::fabs(d) > FLT_MAX)
        fail(where, v.text() + " is out of the range of a float option");
    const double f = static_cast<float>(d);
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::general, 6);
    return std::string(buf, r.ptr);
}

void read_transform(const Json &st, const std::string &where, ScoreTransform *t)
{
    expect(st, Json::value_t::object, "an object", where);
    for (const auto &[key, v] : st.members()) {
        const std::string at = where + "/" + json_pointer_token(key);
        if (key == "enabled") {
            expect(v, Json::value_t::boolean, "true or false", at);
            t->enabled = v.boolean();
        } else if (key == "p0" || key == "p1" || key == "p2") {
            // null leaves the term out, as the absent key does (libvmaf 3.2
            // means this but fails on null: docs/model.md §4)
            const int i = key[1] - '0';
            t->has_p[i] = !v.is_null();
            if (t->has_p[i])
                t->p[i] = number(v, at);
        } else if (key == "knots") {
            t->knots.clear();
            if (v.is_null())
                continue;
            expect(v, Json::value_t::array, "null or an array of [x, y] knots", at);
            if (v.size() < 2 || v.size() > 10)
                fail(at, strprintf("%zu knots; 2 to 10 are accepted", v.size()));
            for (size_t i = 0; i < v.size(); i++) {
                const std::string ki = at + "/" + std::to_string(i);
                const std::vector<double> xy = numbers(v[i], ki);
                if (xy.size() != 2)
                    fail(ki, "a knot is [x, y]");
                if (i && !(xy[0] > t->knots.back().first && xy[1] >= t->knots.back().second))
                    fail(ki, "knots need rising x and non-falling y");
                t->knots.emplace_back(xy[0], xy[1]);
            }
        } else if (key == "out_lte_in") {
            t->out_lte_in = flag_text(v, at);
        } else if (key == "out_gte_in") {
            t->out_gte_in = flag_text(v, at);
        }
        // other keys: ignored, as libvmaf does
    }
}

/// The two inputs of the chroma correction: libvmaf's predict.c finds them
/// by the substrings "adm3" and "speed_chroma" in the model's feature names,
/// and reads whatever its stack held when one is missing; one each is required.
void find_correction_inputs(const std::string &at, SvrModel *m)
{
    auto the_one = [&](const char *part) {
        int found = -1;
        for (size_t i = 0; i < m->feature_names.size(); i++) {
            if (m->feature_names[i].find(part) == std::string::npos)
                continue;
            if (found >= 0)
                fail(at + "/feature_names/" + std::to_string(i),
                     strprintf("a second feature name containing \"%s\": chroma_correction_parameter "
                               "needs exactly one", part));
            found = static_cast<int>(i);
        }
        if (found < 0)
            fail(at + "/chroma_correction_parameter",
                 strprintf("the chroma correction reads a feature whose name contains \"%s\", "
                           "and the model has none", part));
        return found;
    };
    m->correction_adm3 = the_one("adm3");
    m->correction_speed = the_one("speed_chroma");
}

/// One model: the "model_dict" of object `top` (the file, or one member of
/// a collection).
SvrModel read_model(const Json &top, const std::string &where, const ModelFlags &flags,
                    const std::string &name, size_t *sv_budget)
{
    expect(top, Json::value_t::object, "an object", where);
    const Json *found = top.find("model_dict");
    if (!found)
        fail(where, "no \"model_dict\" (the model)");
    const Json &md = *found;
    const std::string at = where + "/model_dict";
    expect(md, Json::value_t::object, "an object", at);

    SvrModel m;
    m.name = name;
    bool have_type = false, have_norm = false, have_names = false;
    bool have_slopes = false, have_intercepts = false, have_opts = false;
    bool have_correction = false;
    const std::string *svm_text = nullptr;
    std::vector<double> slopes, intercepts;
    for (const auto &[key, v] : md.members()) {
        const std::string k = at + "/" + json_pointer_token(key);
        if (key == "model_type") {
            const std::string &s = text(v, k);
            if (s == "LIBSVMNUSVR")
                m.type = SvrType::NuSvr;
            else if (s == "BOOTSTRAP_LIBSVMNUSVR")
                m.type = SvrType::Bootstrap;
            else if (s == "RESIDUEBOOTSTRAP_LIBSVMNUSVR")
                m.type = SvrType::ResidueBootstrap;
            else
                fail(k, "model_type " + quoted_text(s) + " is not supported (accepted: LIBSVMNUSVR, "
                        "BOOTSTRAP_LIBSVMNUSVR, RESIDUEBOOTSTRAP_LIBSVMNUSVR)");
            have_type = true;
        } else if (key == "norm_type") {
            const std::string &s = text(v, k);
            if (s != "linear_rescale" && s != "none")
                fail(k, "norm_type " + quoted_text(s) + " is not supported (accepted: linear_rescale, none)");
            m.linear_rescale = s == "linear_rescale";
            have_norm = true;
        } else if (key == "score_clip") {
            const std::vector<double> c = numbers(v, k);
            if (c.size() != 2 || c[0] > c[1])
                fail(k, "score_clip is [min, max] with min <= max");
            // libvmaf skips the clip when loaded with VMAF_MODEL_FLAG_DISABLE_CLIP
            m.clip = !flags.disable_clip;
            m.clip_min = c[0];
            m.clip_max = c[1];
        } else if (key == "slopes") {
            slopes = numbers(v, k);
            have_slopes = true;
        } else if (key == "intercepts") {
            intercepts = numbers(v, k);
            have_intercepts = true;
        } else if (key == "feature_names") {
            expect(v, Json::value_t::array, "an array of feature names", k);
            if (v.empty() || v.size() > MODEL_MAX_FEATURES)
                fail(k, strprintf("%zu features; 1 to %d are accepted", v.size(), MODEL_MAX_FEATURES));
            for (size_t i = 0; i < v.size(); i++) {
                const std::string &f = text(v[i], k + "/" + std::to_string(i));
                if (f.empty())
                    fail(k + "/" + std::to_string(i), "empty feature name");
                m.feature_names.push_back(f);
            }
            have_names = true;
        } else if (key == "feature_opts_dicts") {
            expect(v, Json::value_t::array, "an array of option objects", k);
            m.feature_opts.clear();
            for (size_t i = 0; i < v.size(); i++) {
                const std::string ki = k + "/" + std::to_string(i);
                expect(v[i], Json::value_t::object, "an object of feature options", ki);
                m.feature_opts.emplace_back();
                for (const auto &[opt, val] : v[i].members())
                    m.feature_opts.back().emplace_back(opt, option_text(val, ki + "/" + json_pointer_token(opt)));
            }
            have_opts = true;
        } else if (key == "score_transform") {
            read_transform(v, k, &m.transform);
        } else if (key == "model") {
            svm_text = &text(v, k);
        } else if (key == "chroma_correction_parameter") {
            m.chroma_correction = number(v, k);
            // libvmaf 3.2 takes 0 as "on" and then writes no score at all
            if (m.chroma_correction == 0)
                fail(k, "0 gives no score in libvmaf 3.2; a non-zero number is accepted");
            have_correction = true;
        }
        // other keys (feature_dict, ...): ignored, as libvmaf does
    }

    if (!have_type)
        fail(at, "no \"model_type\"");
    if (!have_norm)
        fail(at, "no \"norm_type\" (linear_rescale or none)");
    if (!have_names)
        fail(at, "no \"feature_names\"");
    if (!svm_text)
        fail(at, "no \"model\" (the libsvm text)");
    const size_t n = m.feature_names.size();
    if (m.linear_rescale && (!have_slopes || !have_intercepts))
        fail(at, "norm_type linear_rescale needs \"slopes\" and \"intercepts\"");
    auto check_length = [&](const char *key, const std::vector<double> &list, bool have) {
        if (have && list.size() != n + 1)
            fail(at + "/" + key, strprintf("%zu values for %zu features: the output's, then one per "
                                           "feature (%zu) are expected", list.size(), n, n + 1));
    };
    check_length("slopes", slopes, have_slopes);
    check_length("intercepts", intercepts, have_intercepts);
    if (have_opts && m.feature_opts.size() != n)
        fail(at + "/feature_opts_dicts",
             strprintf("%zu option objects for %zu features", m.feature_opts.size(), n));
    m.feature_opts.resize(n);
    if (m.linear_rescale) {
        if (slopes[0] == 0)
            fail(at + "/slopes/0", "the output's slope is 0 (scores would be infinite)");
        m.slope = slopes[0];
        m.intercept = intercepts[0];
        m.slopes.assign(slopes.begin() + 1, slopes.end());
        m.intercepts.assign(intercepts.begin() + 1, intercepts.end());
    }
    if (have_correction)
        find_correction_inputs(at, &m);
    // the file's "enabled", or forced on by the flag (read_json_model.c); a
    // model without score_transform has no terms, so it still maps nothing
    m.transform.enabled = m.transform.enabled || flags.enable_transform;

    const std::string err = svm_read(*svm_text, static_cast<int>(n), sv_budget, &m.svm);
    if (!err.empty())
        fail(at + "/model", "libsvm text: " + err);
    return m;
}

/// JSON text to a document; keys must be unique in each object (libvmaf's
/// streaming reader would take them all, one after another).
Json parse(const std::string &text)
{
    Json doc;
    JsonError err;
    if (!json_parse(text, &doc, &err)) {
        if (err.pointer.empty())
            throw ModelError("invalid JSON: " + err.message);
        fail(err.pointer, err.message);
    }
    return doc;
}

bool is_index(const std::string &k)
{
    if (k.empty())
        return false;
    for (const char c : k)
        if (c < '0' || c > '9')
            return false;
    return true;
}

} // namespace

ModelFile read_model_json(const std::string &text, const ModelFlags &flags)
{
    if (text.size() > MODEL_MAX_BYTES)
        throw ModelError(strprintf("is %zu bytes; model files up to %zu bytes are accepted",
                                   text.size(), MODEL_MAX_BYTES));
    const Json doc = parse(text);
    expect(doc, Json::value_t::object, "an object", "");
    size_t sv_budget = MAX_SV_VALUES;
    ModelFile f;

    // A file with "model_dict" is one model, as libvmaf tries it first
    // (vmaf_model_load before vmaf_model_collection_load).
    if (doc.find("model_dict")) {
        f.models.push_back(read_model(doc, "", flags, flags.name, &sv_budget));
        return f;
    }

    // A collection (read_json_model.c model_collection_parse): "0" is the
    // main model, named like a model; "1", "2", ... are the sub-models
    // <name>_0001, <name>_0002, ...; other keys are skipped.
    f.collection = true;
    unsigned next = 0;
    for (const auto &[key, v] : doc.members()) {
        if (!is_index(key))
            continue;
        if (key != std::to_string(next))
            fail("/" + key, strprintf("the models of a collection are \"0\", \"1\", ... in order; "
                                      "\"%u\" was expected here", next));
        if (next > MAX_SUB_MODELS)
            fail("/" + key, strprintf("more than %u sub-models", MAX_SUB_MODELS));
        const std::string name = next ? strprintf("%s_%04u", flags.name.c_str(), next) : flags.name;
        f.models.push_back(read_model(v, "/" + key, flags, name, &sv_budget));
        if (next) {
            const SvrModel &m = f.models.back();
            if (m.type == SvrType::NuSvr)
                fail("/" + key + "/model_dict/model_type",
                     "the sub-models of a collection are BOOTSTRAP_LIBSVMNUSVR or "
                     "RESIDUEBOOTSTRAP_LIBSVMNUSVR");
            if (m.type != f.models[1].type)
                fail("/" + key + "/model_dict/model_type",
                     "all sub-models of a collection have the model_type of \"1\"");
        }
        next++;
    }
    if (next == 0)
        fail("", "neither \"model_dict\" (a model) nor \"0\", \"1\", ... (a bootstrap collection)");
    if (next == 1)
        fail("", "a bootstrap collection has sub-models \"1\", \"2\", ... after its main model \"0\"");
    return f;
}

} // namespace vmafhip
