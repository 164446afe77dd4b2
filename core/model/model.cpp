#include "core/model/model.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <new>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "core/model/model_builtin.h"
#include "core/model/model_json.h"
#include "core/model/model_svr.h"
#include "core/model/svm.h"

namespace vmafhip {

namespace {

std::string builtin_list()
{
    std::string s;
    for (const std::string &v : builtin_models())
        s += (s.empty() ? "" : ", ") + v;
    return s;
}

/// Read a regular file of at most MODEL_MAX_BYTES.
/// @return 0 or a negative errno, with *msg saying why.
int read_file(const std::string &path, std::string *text, std::string *msg)
{
    const std::string what = "model file \"" + path + "\": ";
    // O_NONBLOCK: opening a FIFO must not wait for a writer.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        const int err = errno;
        *msg = what + std::strerror(err);
        return -err;
    }
    struct stat st;
    int ret = 0;
    if (::fstat(fd, &st) != 0) {
        ret = -errno;
        *msg = what + std::strerror(-ret);
    } else if (S_ISDIR(st.st_mode)) {
        ret = -EISDIR;
        *msg = what + "is a directory, not a JSON model file";
    } else if (!S_ISREG(st.st_mode)) {
        ret = -EINVAL;
        *msg = what + "is not a regular file";
    } else if (static_cast<unsigned long long>(st.st_size) > MODEL_MAX_BYTES) {
        ret = -EFBIG;
        *msg = what + strprintf("is %lld bytes; model files up to %zu bytes are accepted",
                                static_cast<long long>(st.st_size), MODEL_MAX_BYTES);
    } else {
        // read until the end, which may differ from st_size if the file changes
        char buf[65536];
        for (;;) {
            const ssize_t n = ::read(fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                ret = -errno;
                *msg = what + std::strerror(-ret);
                break;
            }
            if (n == 0)
                break;
            if (text->size() + static_cast<size_t>(n) > MODEL_MAX_BYTES) {
                ret = -EFBIG;
                *msg = what + strprintf("grew beyond %zu bytes while read", MODEL_MAX_BYTES);
                break;
            }
            text->append(buf, static_cast<size_t>(n));
        }
    }
    ::close(fd);
    return ret;
}

/// A feature option value as libvmaf's feature dictionary stores a number
/// given on its command line (dict.c vmaf_feature_dictionary_set): rounded
/// to float and printed "%g". Other text is kept as it is.
std::string option_value(const std::string &v)
{
    float f;
    const char *b = v.data(), *e = b + v.size();
    const auto r = std::from_chars(b, e, f, std::chars_format::general);
    if (v.empty() || r.ec != std::errc() || r.ptr != e)
        return v;
    char buf[64];
    const auto w = std::to_chars(buf, buf + sizeof buf, static_cast<double>(f),
                                 std::chars_format::general, 6);
    return std::string(buf, w.ptr);
}

/// Apply an overload (vmaf_dictionary_merge without flags): a new value
/// replaces the old one in place, a new option is appended.
void set_option(std::vector<std::pair<std::string, std::string>> *opts, const std::string &name,
                const std::string &value)
{
    for (auto &o : *opts)
        if (o.first == name) {
            o.second = value;
            return;
        }
    opts->emplace_back(name, value);
}

} // namespace

Model::Model() = default;
Model::~Model() = default;

const std::vector<std::string> &builtin_models()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (size_t i = 0; i < builtin_model_count; i++)
            v.emplace_back(builtin_model_table[i].version);
        return v;
    }();
    return names;
}

const BuiltinModel *find_builtin_model(const std::string &version)
{
    for (size_t i = 0; i < builtin_model_count; i++)
        if (version == builtin_model_table[i].version)
            return &builtin_model_table[i];
    return nullptr;
}

int Model::load(const ModelSpec &spec, const ExtractorOf &extractor_of, std::unique_ptr<Model> *out,
                std::string *msg)
{
    if (!spec.version.empty()) {
        const BuiltinModel *b = find_builtin_model(spec.version);
        if (!b) {
            *msg = "model version \"" + spec.version + "\" is not a built-in model (built in: " +
                   builtin_list() + "; other models load with path=FILE)";
            return -EINVAL;
        }
        try {
            return load_text(std::string(b->text, b->size), "built-in model " + spec.version, spec,
                             extractor_of, out, msg);
        } catch (const std::bad_alloc &) {
            *msg = "built-in model " + spec.version + ": out of memory";
            return -ENOMEM;
        }
    }
    if (spec.path.empty()) {
        *msg = "the model names neither a version (built in: " + builtin_list() +
               ") nor a path (a JSON model file)";
        return -EINVAL;
    }
    std::string text;
    try {
        const int err = read_file(spec.path, &text, msg);
        if (err)
            return err;
    } catch (const std::bad_alloc &) {
        *msg = "model file \"" + spec.path + "\": out of memory";
        return -ENOMEM;
    }
    return load_text(text, "model file \"" + spec.path + "\"", spec, extractor_of, out, msg);
}

int Model::load_text(const std::string &text, const std::string &origin, const ModelSpec &spec,
                     const ExtractorOf &extractor_of, std::unique_ptr<Model> *out, std::string *msg)
{
    try {
        ModelFlags flags;
        flags.name = spec.name.empty() ? "vmaf" : spec.name; // vmaf_model_generate_name()
        flags.enable_transform = spec.enable_transform;
        flags.disable_clip = spec.disable_clip;
        ModelFile file = read_model_json(text, flags);

        std::unique_ptr<Model> m(new Model());
        m->name_ = flags.name;
        m->bootstrap_ = file.collection;
        // Each part's features, with the model's options and then the
        // overloads for their extractor (model.c vmaf_model_feature_overload,
        // docs/model.md §7); the same feature with the same options is one input.
        for (const SvrModel &part : file.models) {
            std::vector<int> inputs;
            for (size_t i = 0; i < part.feature_names.size(); i++) {
                ModelFeature f{part.feature_names[i], part.feature_opts[i]};
                const std::string extractor = extractor_of ? extractor_of(f.libvmaf_name) : "";
                if (extractor.empty())
                    throw ModelError("reads feature " + quoted_text(f.libvmaf_name) +
                                     ", which no vmafhip extractor provides");
                for (const ModelSpec::Overload &o : spec.overloads)
                    if (o.extractor == extractor)
                        set_option(&f.options, o.option, option_value(o.value));
                size_t k = 0;
                while (k < m->features_.size() && (m->features_[k].libvmaf_name != f.libvmaf_name ||
                                                   m->features_[k].options != f.options))
                    k++;
                if (k == m->features_.size())
                    m->features_.push_back(std::move(f));
                inputs.push_back(static_cast<int>(k));
            }
            m->inputs_.push_back(std::move(inputs));
        }
        m->parts_ = std::move(file.models);

        m->output_names_.push_back(m->name_);
        if (m->bootstrap_) {
            for (size_t i = 1; i < m->parts_.size(); i++)
                m->output_names_.push_back(m->parts_[i].name);
            for (const char *s : {"_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"})
                m->output_names_.push_back(m->name_ + s);
        }
        *out = std::move(m);
        return 0;
    } catch (const ModelError &e) {
        *msg = origin + ": " + e.what();
        return -EINVAL;
    } catch (const std::bad_alloc &) {
        *msg = origin + ": out of memory";
        return -ENOMEM;
    } catch (const std::exception &e) {
        *msg = origin + ": " + e.what();
        return -EINVAL;
    } catch (...) {
        *msg = origin + ": unexpected error";
        return -EINVAL;
    }
}

void Model::predict(const double *features, double *out) const
{
    const SvrModel &main = parts_[0];
    out[0] = main.score(main.raw(features, inputs_[0].data()));
    if (!bootstrap_)
        return;
    // libvmaf predict.c: each sub-model's score as written (its own
    // transform and clip), then the statistics of their raw scores.
    const unsigned n = static_cast<unsigned>(parts_.size() - 1);
    std::vector<double> raw(n);
    for (unsigned i = 0; i < n; i++) {
        raw[i] = parts_[i + 1].raw(features, inputs_[i + 1].data());
        out[1 + i] = parts_[i + 1].score(raw[i]);
    }
    const BootstrapStats s = bootstrap_stats(raw.data(), n, parts_[1]);
    out[n + 1] = s.bagging;
    out[n + 2] = s.stddev;
    out[n + 3] = s.ci_p95_lo;
    out[n + 4] = s.ci_p95_hi;
}

} // namespace vmafhip
