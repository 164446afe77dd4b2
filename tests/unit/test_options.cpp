// The option table: defaults, string parsing and its errors, libvmaf-style
// feature specs, and libvmaf's feature-name suffixes.
#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "core/options.h"
#include "tests/common/context.h"
#include "vmafhip.h"

namespace {


class Options : public testing::Test {
protected:
    void SetUp() override
    {
        vmafhip_default_settings(&s);
        s.log_callback = testfx::collect_log;
        s.log_cookie = &log;
    }
    std::string last() const { return log.last(); }
    VmafHipSettings s;
    testfx::LogLines log;
};

TEST_F(Options, LibvmafDefaults)
{
    EXPECT_EQ(s.struct_size, sizeof(VmafHipSettings));
    EXPECT_EQ(s.features, static_cast<unsigned>(VMAFHIP_FEATURE_ALL));
    EXPECT_EQ(s.bitdepth, 8);
    EXPECT_EQ(s.psnr.enable_chroma, 1);
    EXPECT_EQ(s.psnr.enable_mse, 0);
    EXPECT_EQ(s.psnr.min_sse, 0.0);
    EXPECT_EQ(s.ssim.scale, 0);
    EXPECT_EQ(s.adm.enhn_gain_limit, 100.0);
    EXPECT_EQ(s.adm.norm_view_dist, 3.0);
    EXPECT_EQ(s.adm.ref_display_height, 1080);
    EXPECT_EQ(s.adm.noise_weight, 0.03125);
    EXPECT_EQ(s.adm.dlm_weight, 0.5);
    EXPECT_EQ(s.adm.csf_mode, 0);
}

TEST_F(Options, SetByNameAndAlias)
{
    EXPECT_EQ(vmafhip_settings_set(&s, "adm", "adm_enhn_gain_limit", "1"), 0);
    EXPECT_EQ(s.adm.enhn_gain_limit, 1.0);
    EXPECT_EQ(vmafhip_settings_set(&s, "adm", "nvd", "5"), 0);
    EXPECT_EQ(s.adm.norm_view_dist, 5.0);
    EXPECT_EQ(vmafhip_settings_set(&s, "psnr", "enable_chroma", "false"), 0);
    EXPECT_EQ(s.psnr.enable_chroma, 0);
    EXPECT_EQ(vmafhip_settings_set(&s, "float_ssim", "scale", "4"), 0);
    EXPECT_EQ(s.ssim.scale, 4);
}

TEST_F(Options, Errors)
{
    EXPECT_EQ(vmafhip_settings_set(&s, "vif", "x", "1"), -EINVAL);
    EXPECT_NE(last().find("accepted features are psnr, float_ssim, adm"), std::string::npos) << last();
    EXPECT_EQ(vmafhip_settings_set(&s, "adm", "adm_gain", "1"), -EINVAL);
    EXPECT_NE(last().find("accepted options are debug, adm_enhn_gain_limit"), std::string::npos) << last();
    EXPECT_EQ(vmafhip_settings_set(&s, "adm", "adm_enhn_gain_limit", "0.5"), -ERANGE);
    EXPECT_NE(last().find("accepted values are 1 to 100"), std::string::npos) << last();
    EXPECT_EQ(vmafhip_settings_set(&s, "adm", "adm_enhn_gain_limit", "abc"), -EINVAL);
    EXPECT_EQ(vmafhip_settings_set(&s, "adm", "adm_enhn_gain_limit", "1e999"), -EINVAL);
    EXPECT_EQ(vmafhip_settings_set(&s, "adm", "adm_enhn_gain_limit", "nan"), -EINVAL);
    EXPECT_EQ(vmafhip_settings_set(&s, "adm", "adm_ref_display_height", "1.5"), -EINVAL);
    EXPECT_EQ(vmafhip_settings_set(&s, "adm", "adm_ref_display_height", "99999999999"), -ERANGE);
    EXPECT_EQ(vmafhip_settings_set(&s, "psnr", "enable_mse", "yes"), -EINVAL);
    EXPECT_NE(last().find("true or false"), std::string::npos) << last();
    EXPECT_EQ(vmafhip_settings_set(&s, "float_ssim", "scale", "11"), -ERANGE);
    EXPECT_EQ(vmafhip_settings_set(nullptr, "psnr", "enable_mse", "1"), -EINVAL);
    // Failed calls change nothing.
    EXPECT_EQ(s.adm.enhn_gain_limit, 100.0);
    EXPECT_EQ(s.ssim.scale, 0);
}

TEST_F(Options, FeatureSpecs)
{
    s.features = 0;
    EXPECT_EQ(vmafhip_settings_use_feature(&s, "psnr"), 0);
    EXPECT_EQ(s.features, static_cast<unsigned>(VMAFHIP_FEATURE_PSNR));
    EXPECT_EQ(vmafhip_settings_use_feature(&s, "adm=adm_enhn_gain_limit=1:debug=true"), 0);
    EXPECT_EQ(s.features, static_cast<unsigned>(VMAFHIP_FEATURE_PSNR | VMAFHIP_FEATURE_ADM));
    EXPECT_EQ(s.adm.enhn_gain_limit, 1.0);
    EXPECT_EQ(s.adm.debug, 1);
    EXPECT_EQ(vmafhip_settings_use_feature(&s, "motion"), -EINVAL);
    EXPECT_EQ(vmafhip_settings_use_feature(&s, "adm=debug"), -EINVAL);
    EXPECT_NE(last().find("not of the form option=value"), std::string::npos) << last();
    EXPECT_EQ(vmafhip_settings_use_feature(&s, "psnr=enable_mse=2"), -EINVAL);
}

TEST_F(Options, RangeCheckAtOpen)
{
    std::string msg;
    EXPECT_EQ(vmafhip::check_options(s, &msg), 0);
    s.adm.noise_weight = -1;
    EXPECT_EQ(vmafhip::check_options(s, &msg), -ERANGE);
    EXPECT_NE(msg.find("adm option adm_noise_weight is -1"), std::string::npos) << msg;
    // Options of disabled features are not checked.
    s.features = VMAFHIP_FEATURE_PSNR;
    EXPECT_EQ(vmafhip::check_options(s, &msg), 0);
}

// libvmaf: non-default feature parameters, sorted by option name, as
// _<alias>_<value> (%g for doubles, %d for ints, bare alias for true).
TEST_F(Options, LibvmafNameSuffixes)
{
    EXPECT_EQ(vmafhip::feature_name_suffix(s, "adm"), "");
    s.adm.enhn_gain_limit = 1;
    EXPECT_EQ(vmafhip::feature_name_suffix(s, "adm"), "_egl_1");
    s.adm.norm_view_dist = 1.5;
    s.adm.ref_display_height = 2160;
    EXPECT_EQ(vmafhip::feature_name_suffix(s, "adm"), "_egl_1_nvd_1.5_rdh_2160");
    s.adm.skip_scale0 = 1;
    EXPECT_EQ(vmafhip::feature_name_suffix(s, "adm"), "_egl_1_nvd_1.5_rdh_2160_ssz");
    s.adm.debug = 1; // not a feature parameter
    s.adm.skip_aim = 1;
    EXPECT_EQ(vmafhip::feature_name_suffix(s, "adm"), "_egl_1_nvd_1.5_rdh_2160_ssz");
    EXPECT_EQ(vmafhip::feature_name_suffix(s, "psnr"), "");
}

TEST_F(Options, InfoCoversEveryOption)
{
    const int n = vmafhip_option_count();
    EXPECT_EQ(n, 21);
    for (int i = 0; i < n; i++) {
        const char *feature, *name, *help, *def, *range;
        ASSERT_EQ(vmafhip_option_info(i, &feature, &name, &help, &def, &range), 0);
        // Every option can be set to its own default by name.
        VmafHipSettings t;
        vmafhip_default_settings(&t);
        EXPECT_EQ(vmafhip_settings_set(&t, feature, name, def), 0) << feature << " " << name;
        EXPECT_GT(std::string(help).size(), 5u);
    }
    EXPECT_EQ(vmafhip_option_info(n, nullptr, nullptr, nullptr, nullptr, nullptr), -EINVAL);
    EXPECT_EQ(vmafhip_option_info(-1, nullptr, nullptr, nullptr, nullptr, nullptr), -EINVAL);
}

} // namespace
