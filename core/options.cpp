// The settings defaults and the help-text view of the extractor table and
// the built-in models, behind the public API.
#include "core/options.h"

#include <cerrno>
#include <string>
#include <vector>

#include "core/model/model.h"
#include "extractors/extractor.h"
#include "extractors/options.h"

using namespace vmafhip;

namespace {

/// Every option of the table, with its texts formatted once (the table is
/// immutable).
struct OptionRow {
    const ExtractorInfo *e;
    const OptionSpec *o;
    std::string def, range;
};

const std::vector<OptionRow> &option_rows()
{
    static const std::vector<OptionRow> rows = [] {
        std::vector<OptionRow> r;
        for (const ExtractorInfo *e : extractor_table())
            for (int i = 0; i < e->n_options; i++)
                r.push_back({e, &e->options[i], format_option(e->options[i], e->options[i].def),
                             option_range(e->options[i])});
        return r;
    }();
    return rows;
}

} // namespace

extern "C" void vmafhip_default_settings(VmafHipSettings *s)
{
    if (!s)
        return;
    std::memset(s, 0, sizeof(*s));
    s->struct_size = sizeof(*s);
    s->bitdepth = 8;
    s->chroma = VMAFHIP_CHROMA_420;
    s->models = "version=vmaf_v0.6.1"; // libvmaf's default model
    s->n_subsample = 1;
    s->backend = VMAFHIP_BACKEND_AUTO;
    s->log_level = VMAFHIP_LOG_INFO;
}

extern "C" int vmafhip_feature_count(void)
{
    return static_cast<int>(extractor_table().size());
}

extern "C" int vmafhip_feature_info(int index, const char **name, const char **help)
{
    if (index < 0 || index >= vmafhip_feature_count())
        return -EINVAL;
    const ExtractorInfo *e = extractor_table()[static_cast<size_t>(index)];
    if (name)
        *name = e->name;
    if (help)
        *help = e->help;
    return 0;
}

extern "C" int vmafhip_option_count(void)
{
    return static_cast<int>(option_rows().size());
}

extern "C" int vmafhip_option_info(int index, const char **feature, const char **name,
                                   const char **alias, const char **help,
                                   const char **default_value, const char **range)
{
    if (index < 0 || index >= vmafhip_option_count())
        return -EINVAL;
    const OptionRow &r = option_rows()[static_cast<size_t>(index)];
    if (feature)
        *feature = r.e->name;
    if (name)
        *name = r.o->name;
    if (alias)
        *alias = r.o->alias;
    if (help)
        *help = r.o->help;
    if (default_value)
        *default_value = r.def.c_str();
    if (range)
        *range = r.range.c_str();
    return 0;
}

extern "C" const char *vmafhip_builtin_model(int index)
{
    const auto &names = builtin_models();
    return index >= 0 && static_cast<size_t>(index) < names.size()
               ? names[static_cast<size_t>(index)].c_str()
               : nullptr;
}
