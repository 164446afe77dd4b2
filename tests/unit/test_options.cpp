// The extractor table seen from outside: defaults, feature and model specs
// (libvmaf's CLI and FFmpeg filter spellings) and their errors, libvmaf's
// output-name suffixes, libvmaf's registration order and duplicate rule,
// and the help-text API.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <vector>

#include "core/specs.h"
#include "extractors/options.h"
#include "tests/common/context.h"
#include "tests/common/fixtures.h"
#include "vmafhip.h"

namespace {

using vmafhip::FeatureRequest;
using vmafhip::ModelSpec;

std::vector<FeatureRequest> features(const char *text, int want = 0, std::string *msg = nullptr)
{
    std::vector<FeatureRequest> out;
    std::string m;
    EXPECT_EQ(vmafhip::parse_features(text, &out, &m), want) << text << ": " << m;
    if (msg)
        *msg = m;
    return out;
}

std::string error_of(const char *text)
{
    std::string msg;
    features(text, -EINVAL, &msg);
    return msg;
}

double option(const FeatureRequest &r, const char *name)
{
    const vmafhip::OptionSpec *o = vmafhip::find_option(*r.info, name);
    EXPECT_TRUE(o) << name;
    return o ? r.options[static_cast<size_t>(o - r.info->options)] : 0;
}

TEST(Options, Defaults)
{
    VmafHipSettings s;
    vmafhip_default_settings(&s);
    EXPECT_EQ(s.struct_size, sizeof(VmafHipSettings));
    EXPECT_EQ(s.bitdepth, 8);
    EXPECT_EQ(s.features, nullptr);
    EXPECT_STREQ(s.models, "version=vmaf_v0.6.1"); // libvmaf's default model
    EXPECT_EQ(s.n_subsample, 1);
    const auto r = features("psnr|float_ssim|adm");
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(option(r[0], "enable_chroma"), 1);
    EXPECT_EQ(option(r[0], "min_sse"), 0);
    EXPECT_EQ(option(r[1], "scale"), 0);
    EXPECT_EQ(option(r[2], "adm_enhn_gain_limit"), 100);
    EXPECT_EQ(option(r[2], "adm_norm_view_dist"), 3);
    EXPECT_EQ(option(r[2], "adm_ref_display_height"), 1080);
    EXPECT_EQ(option(r[2], "adm_noise_weight"), 0.03125);
    EXPECT_EQ(option(r[2], "adm_dlm_weight"), 0.5);
}

TEST(Options, BothSpellingsAndAliases)
{
    // libvmaf's CLI spelling and FFmpeg's libvmaf filter spelling agree.
    const auto cli = features("adm=adm_enhn_gain_limit=1:nvd=5|psnr=enable_chroma=false");
    const auto ff = features("name=adm:egl=1:adm_norm_view_dist=5|name=psnr:enable_chroma=0");
    ASSERT_EQ(cli.size(), 2u);
    ASSERT_EQ(ff.size(), 2u);
    for (size_t i = 0; i < 2; i++) {
        EXPECT_EQ(cli[i].info, ff[i].info);
        EXPECT_EQ(cli[i].options, ff[i].options);
    }
    EXPECT_EQ(option(cli[0], "adm_enhn_gain_limit"), 1);
    EXPECT_EQ(option(cli[0], "adm_norm_view_dist"), 5);
    EXPECT_EQ(option(cli[1], "enable_chroma"), 0);
    EXPECT_STREQ(ff[0].info->name, "adm");
    // Empty entries are skipped, as FFmpeg's tokenizer skips them.
    EXPECT_EQ(features("|psnr||").size(), 1u);
    EXPECT_EQ(features("").size(), 0u);
    EXPECT_EQ(features(nullptr).size(), 0u);
}

TEST(Options, FeatureErrors)
{
    EXPECT_NE(error_of("no_such_feature").find("accepted features are psnr, float_ssim, adm"),
              std::string::npos);
    EXPECT_NE(error_of("adm=adm_gain=1").find("accepted options are debug, adm_enhn_gain_limit"),
              std::string::npos);
    EXPECT_NE(error_of("adm=debug").find("not of the form option=value"), std::string::npos);
    EXPECT_NE(error_of("name=adm:=1").find("not of the form option=value"), std::string::npos);
    EXPECT_NE(error_of("psnr=enable_mse=yes").find("true or false"), std::string::npos);
    for (const char *bad : {"adm=egl=abc", "adm=egl=1e999", "adm=egl=nan", "adm=rdh=1.5",
                            "psnr=enable_mse=2x"})
        features(bad, -EINVAL);
    std::string msg;
    features("adm=adm_enhn_gain_limit=0.5", -ERANGE, &msg);
    EXPECT_NE(msg.find("accepted values are 1 to 100"), std::string::npos) << msg;
    features("adm=adm_ref_display_height=99999999999", -ERANGE);
    features("float_ssim=scale=11", -ERANGE);
    features("psnr=enable_mse=2", -EINVAL);
}

TEST(Options, ModelSpecs)
{
    std::vector<ModelSpec> m;
    std::string msg;
    ASSERT_EQ(vmafhip::parse_models("version=vmaf_v0.6.1:name=vmaf|path=/x/m.json:disable_clip=true:"
                                    "enable_transform=1:adm.adm_enhn_gain_limit=1",
                                    &m, &msg),
              0)
        << msg;
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[0].version, "vmaf_v0.6.1");
    EXPECT_EQ(m[0].name, "vmaf");
    EXPECT_FALSE(m[0].disable_clip);
    EXPECT_EQ(m[1].path, "/x/m.json");
    EXPECT_TRUE(m[1].disable_clip);
    EXPECT_TRUE(m[1].enable_transform);
    ASSERT_EQ(m[1].overloads.size(), 1u);
    EXPECT_EQ(m[1].overloads[0].extractor, "adm");
    EXPECT_EQ(m[1].overloads[0].option, "adm_enhn_gain_limit");
    EXPECT_EQ(m[1].overloads[0].value, "1");
    const struct {
        const char *text, *says;
    } bad[] = {
        {"name=vmaf", "neither version="},
        {"version=vmaf_v0.6.1:colour=red", "unknown key 'colour'"},
        {"version=vmaf_v0.6.1:disable_clip=maybe", "accepted values are true and false"},
        {"version", "not of the form key=value"},
        {"version=vmaf_v0.6.1:.egl=1", "unknown key '.egl'"},
    };
    for (const auto &b : bad) {
        m.clear();
        EXPECT_EQ(vmafhip::parse_models(b.text, &m, &msg), -EINVAL) << b.text;
        EXPECT_NE(msg.find(b.says), std::string::npos) << msg;
    }
}

// libvmaf: non-default feature parameters, sorted by option name, as
// _<alias>_<value> (%g for doubles, %d for ints, bare alias for true).
TEST(Options, LibvmafNameSuffixes)
{
    const auto suffix = [](const char *spec) {
        const auto r = features(spec);
        return r.empty() ? std::string("?") : vmafhip::option_suffix(*r[0].info, r[0].options);
    };
    EXPECT_EQ(suffix("adm"), "");
    EXPECT_EQ(suffix("adm=egl=1"), "_egl_1");
    EXPECT_EQ(suffix("adm=egl=1:nvd=1.5:rdh=2160"), "_egl_1_nvd_1.5_rdh_2160");
    EXPECT_EQ(suffix("adm=rdh=2160:ssz=true:egl=1:nvd=1.5"), "_egl_1_nvd_1.5_rdh_2160_ssz");
    // Not feature parameters.
    EXPECT_EQ(suffix("adm=egl=1:debug=true:adm_skip_aim=true"), "_egl_1");
    EXPECT_EQ(suffix("psnr=enable_mse=true"), "");
}

TEST(Options, InfoCoversEveryOption)
{
    const int n = vmafhip_option_count();
    EXPECT_GE(n, 21);
    for (int i = 0; i < n; i++) {
        const char *feature, *name, *alias, *help, *def, *range;
        ASSERT_EQ(vmafhip_option_info(i, &feature, &name, &alias, &help, &def, &range), 0);
        // Every option can be set to its own default by name, and by alias.
        const std::string spec = std::string(feature) + "=" + name + "=" + def;
        EXPECT_EQ(features(spec.c_str()).size(), 1u) << spec;
        if (alias) {
            const std::string by_alias = std::string(feature) + "=" + alias + "=" + def;
            EXPECT_EQ(features(by_alias.c_str()).size(), 1u) << by_alias;
        }
        EXPECT_GT(std::string(help).size(), 5u);
        EXPECT_GT(std::string(range).size(), 3u);
    }
    EXPECT_EQ(vmafhip_option_info(n, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr), -EINVAL);
    EXPECT_EQ(vmafhip_option_info(-1, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr), -EINVAL);
    // Every extractor of the table is listed once, with a description.
    const int nf = vmafhip_feature_count();
    EXPECT_GE(nf, 3);
    std::vector<std::string> names;
    for (int i = 0; i < nf; i++) {
        const char *name, *help;
        ASSERT_EQ(vmafhip_feature_info(i, &name, &help), 0);
        EXPECT_EQ(std::count(names.begin(), names.end(), name), 0) << name;
        names.push_back(name);
        EXPECT_GT(std::string(help).size(), 10u);
    }
    EXPECT_EQ(vmafhip_feature_info(nf, nullptr, nullptr), -EINVAL);
}

// libvmaf registers an extractor once per set of output names: a second
// request with the same names is dropped (we say so when its other options
// differ); one that renames its outputs runs beside the first.
TEST(Options, DuplicateFeaturesRunOnce)
{
    testfx::LogLines log;
    VmafHipSettings s = testfx::settings(64, 64, 8, VMAFHIP_CHROMA_420,
                                         "adm|psnr|adm=debug=true|adm=egl=1|name=psnr");
    s.backend = VMAFHIP_BACKEND_CPU;
    s.log_callback = testfx::collect_log;
    s.log_cookie = &log;
    const testfx::Ctx c = testfx::open_ctx(s);
    ASSERT_TRUE(c);
    const char *const *names;
    const int n = vmafhip_feature_names(c.get(), &names);
    const std::vector<std::string> got(names, names + n);
    const std::vector<std::string> want = {
        "integer_adm2", "integer_aim", "integer_adm3", "integer_adm_scale0", "integer_adm_scale1",
        "integer_adm_scale2", "integer_adm_scale3", "psnr_y", "psnr_cb", "psnr_cr",
        "integer_adm2_egl_1", "integer_aim_egl_1", "integer_adm3_egl_1", "integer_adm_scale0_egl_1",
        "integer_adm_scale1_egl_1", "integer_adm_scale2_egl_1", "integer_adm_scale3_egl_1"};
    EXPECT_EQ(got, want);
    // Only the request with other options is reported.
    int warnings = 0;
    for (const auto &l : log.lines)
        if (l.find("already runs") != std::string::npos) {
            warnings++;
            EXPECT_NE(l.find("adm=debug=true"), std::string::npos) << l;
        }
    EXPECT_EQ(warnings, 1);
}

TEST(Options, NothingToCompute)
{
    VmafHipSettings s = testfx::settings(64, 64, 8, VMAFHIP_CHROMA_420, "");
    VmafHipContext *c = nullptr;
    EXPECT_EQ(vmafhip_open(&c, &s), -EINVAL);
    EXPECT_NE(std::string(vmafhip_last_error(nullptr)).find("nothing to compute"), std::string::npos);
}

} // namespace
