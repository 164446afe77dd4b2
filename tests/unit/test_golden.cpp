// Every fixture pair, every frame, every feature against libvmaf's goldens,
// through the public API. Built twice: for the CPU reference (suite unit)
// and, with TEST_BACKEND=VMAFHIP_BACKEND_HIP, for the GPU (suite gpu).
//
// Integer features (psnr, ADM) must be bit-identical to the golden doubles;
// float_ssim within 1e-6 (and the test reports how many were bit-exact).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tests/common/context.h"
#include "tests/common/float_family.h"
#include "tests/common/fixtures.h"
#include "tests/common/json.h"
#include "tests/common/score.h"
#include "vmafhip.h"

namespace {

using testfx::Fixture;
using testfx::Scored;
using testfx::score;

bool is_float_feature(const std::string &name)
{
    return name.rfind("float_ssim", 0) == 0;
}

bool same_double(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
}

// Max |ours - golden| per feature over all fixtures, printed at the end.
std::map<std::string, double> &max_diff()
{
    static std::map<std::string, double> m;
    return m;
}

void compare(const Fixture &f, const Scored &run, const std::string &golden_file, int *compared)
{
    const auto golden = testfx::golden_frames(golden_file);
    for (size_t k = 0; k < run.names.size(); k++) {
        const std::string &name = run.names[k];
        const auto it = golden.find(name);
        if (it == golden.end())
            continue;
        ASSERT_EQ(it->second.size(), run.frames.size()) << f.name << " " << name;
        for (size_t i = 0; i < run.frames.size(); i++) {
            const double ours = run.frames[i][k], theirs = it->second[i];
            double &md = max_diff()[name];
            md = std::max(md, std::fabs(ours - theirs));
            if (is_float_feature(name))
                EXPECT_NEAR(ours, theirs, 1e-6) << f.name << " frame " << i << " " << name;
            else
                EXPECT_TRUE(same_double(ours, theirs))
                    << f.name << " frame " << i << " " << name << ": ours "
                    << testing::PrintToString(ours) << " golden " << testing::PrintToString(theirs);
            ++*compared;
        }
    }
}

class Golden : public testing::TestWithParam<Fixture> {};

TEST_P(Golden, EveryFrameEveryFeature)
{
    const Fixture &f = GetParam();
    const Scored run = score(f, testfx::settings_for(f));
    ASSERT_FALSE(run.names.empty());
    int compared = 0;
    compare(f, run, f.golden, &compared);
    // Every feature we emit is in the golden (same names as libvmaf).
    const auto golden = testfx::golden_frames(f.golden);
    for (const auto &name : run.names)
        EXPECT_TRUE(golden.count(name)) << f.name << ": " << name << " not in the golden";
    EXPECT_EQ(compared, static_cast<int>(run.names.size()) * f.frames);
    // In libvmaf's log order.
    std::vector<std::string> order;
    const testjson::Value root = testjson::parse_file(testfx::path(f.golden));
    for (const auto &kv : root["frames"].arr.at(0)["metrics"].obj)
        if (std::find(run.names.begin(), run.names.end(), kv.first) != run.names.end())
            order.push_back(kv.first);
    EXPECT_EQ(run.names, order) << f.name;
}

TEST_P(Golden, PooledLikeLibvmaf)
{
    const Fixture &f = GetParam();
    const Scored run = score(f, testfx::settings_for(f));
    const testjson::Value root = testjson::parse_file(testfx::path(f.golden));
    const testjson::Value &pooled = root["pooled_metrics"];
    for (const auto &name : run.names) {
        const testjson::Value *g = pooled.get(name);
        ASSERT_TRUE(g) << name;
        const VmafHipPooled &p = run.pooled.at(name);
        const double tol = is_float_feature(name) ? 1e-6 : 0;
        EXPECT_NEAR(p.min, (*g)["min"].num, tol) << f.name << " " << name;
        EXPECT_NEAR(p.max, (*g)["max"].num, tol) << f.name << " " << name;
        if (tol == 0) {
            EXPECT_TRUE(same_double(p.mean, (*g)["mean"].num)) << f.name << " " << name;
            EXPECT_TRUE(same_double(p.harmonic_mean, (*g)["harmonic_mean"].num))
                << f.name << " " << name;
        } else {
            EXPECT_NEAR(p.mean, (*g)["mean"].num, tol) << f.name << " " << name;
            EXPECT_NEAR(p.harmonic_mean, (*g)["harmonic_mean"].num, tol) << f.name << " " << name;
        }
    }
}

TEST_P(Golden, DebugValues)
{
    const Fixture &f = GetParam();
    if (f.debug.empty())
        GTEST_SKIP() << "no plain-C debug golden here";
    // libvmaf: -n --feature adm=debug=true --feature vif=debug=true --feature motion=debug=true
    VmafHipSettings s = testfx::settings_for(f);
    s.features = "adm=debug=true|vif=debug=true|motion=debug=true";
    s.models = nullptr;
    const Scored run = score(f, s);
    int compared = 0;
    compare(f, run, f.debug, &compared);
    // adm 7 + 11 debug, vif 4 + 11 debug, motion sad, integer_motion, motion2, motion3
    EXPECT_EQ(compared, (18 + 15 + 4) * f.frames);
    EXPECT_EQ(compared, static_cast<int>(run.names.size()) * f.frames);
}

// Three models in one run: vmaf_4k, vmaf_neg and the NEG model's own
// extractors (egl 1) beside the default ones, in libvmaf's order.
TEST_P(Golden, SeveralModels)
{
    const Fixture &f = GetParam();
    if (f.models_golden.empty())
        GTEST_SKIP() << "libvmaf's CLI cannot run this pair";
    VmafHipSettings s = testfx::settings_for(f);
    s.features = "psnr|float_ssim";
    s.models = "version=vmaf_v0.6.1:name=vmaf|version=vmaf_4k_v0.6.1:name=vmaf_4k|"
               "version=vmaf_v0.6.1neg:name=vmaf_neg";
    const Scored run = score(f, s);
    int compared = 0;
    compare(f, run, f.models_golden, &compared);
    EXPECT_EQ(compared, 32 * f.frames);
    std::vector<std::string> order;
    const testjson::Value root = testjson::parse_file(testfx::path(f.models_golden));
    for (const auto &kv : root["frames"].arr.at(0)["metrics"].obj)
        order.push_back(kv.first);
    EXPECT_EQ(run.names, order);
}

TEST_P(Golden, BootstrapModel)
{
    const Fixture &f = GetParam();
    if (f.bootstrap_golden.empty())
        GTEST_SKIP() << "libvmaf's CLI cannot run this pair";
    VmafHipSettings s = testfx::settings_for(f);
    s.features = nullptr;
    s.models = "version=vmaf_b_v0.6.3:name=vmaf_b";
    const Scored run = score(f, s);
    int compared = 0;
    compare(f, run, f.bootstrap_golden, &compared);
    EXPECT_EQ(compared, 39 * f.frames); // 14 features, vmaf_b, 20 sub-models, 4 statistics
    EXPECT_EQ(compared, static_cast<int>(run.names.size()) * f.frames);
}

// Each VMAF v1.0.16 model alone, built in, as libvmaf ran it from its file:
// CAMBI, SpEED chroma, ADM and motion with the model's options, and the score
// (the chroma correction included: mono1's SpEED chroma values are all 0).
TEST_P(Golden, VmafV1Models)
{
    const Fixture &f = GetParam();
    if (f.v1_goldens.empty())
        GTEST_SKIP() << "no VMAF v1 golden for this pair";
    for (const auto &[model, golden] : f.v1_goldens) {
        SCOPED_TRACE(model);
        VmafHipSettings s = testfx::settings_for(f);
        s.features = nullptr;
        const std::string spec = "version=" + model;
        s.models = spec.c_str();
        const Scored run = score(f, s);
        int compared = 0;
        compare(f, run, golden, &compared);
        // cambi, speed_chroma u/v/uv, 7 adm, 3 motion, vmaf
        EXPECT_EQ(compared, 15 * f.frames);
        EXPECT_EQ(compared, static_cast<int>(run.names.size()) * f.frames);
    }
}

// libvmaf's four float models, built in, from the pictures of every pair
// with a .float golden: their float_adm, float_vif and float_motion inputs
// (those of vmaf_float_v0.6.1neg with its gain limits too) and their scores,
// bootstrap included, bit for bit.
TEST(GoldenModels, FloatModels)
{
    for (const Fixture &f : testfx::float_pairs()) {
        SCOPED_TRACE(f.name);
        VmafHipSettings s = testfx::settings(f.w, f.h, f.bpc, f.chroma, nullptr);
        s.models = "version=vmaf_float_v0.6.1:name=vmaf_float|"
                   "version=vmaf_float_v0.6.1neg:name=vmaf_float_neg|"
                   "version=vmaf_float_4k_v0.6.1:name=vmaf_float_4k|"
                   "version=vmaf_float_b_v0.6.3:name=vmaf_float_b";
        const Scored run = score(f, s);
        ASSERT_FALSE(run.names.empty());
        const int n = testfx::compare_golden_values(run, "golden/" + f.name + ".float.fullprec.json", "");
        EXPECT_EQ(n, static_cast<int>(run.names.size()) * f.frames);
    }
}

// vmaf_v0.6.1 beside two v1 models in one context: each model's outputs are
// its golden's, and the v1 models' common extractors (CAMBI, SpEED, ADM with
// the v1 options) run once.
TEST(GoldenModels, V061BesideV1)
{
    const Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38");
    VmafHipSettings s = testfx::settings_for(f);
    s.features = nullptr;
    s.models = "version=vmaf_v0.6.1|version=vmaf_v1.0.16_3d0h:name=vmaf_v1|"
               "version=vmaf_v1.0.16_hfr_3d0h:name=vmaf_hfr";
    const Scored run = score(f, s);
    ASSERT_FALSE(run.names.empty());
    // v0.6.1: adm 7, motion 3, vif 4, vmaf; 3d0h: cambi, speed 3, adm 7,
    // motion 3, its score; hfr_3d0h: its own motion 3 and score, the rest shared
    EXPECT_EQ(run.names.size(), 15u + 15u + 4u);
    int compared = 0;
    const struct {
        std::string golden, model_output, golden_output;
    } runs[] = {
        {f.golden, "vmaf", "vmaf"},
        {"golden/" + f.name + ".vmaf_v1.0.16_3d0h.fullprec.json", "vmaf_v1", "vmaf"},
        {"golden/" + f.name + ".vmaf_v1.0.16_hfr_3d0h.fullprec.json", "vmaf_hfr", "vmaf"},
    };
    std::vector<bool> seen(run.names.size());
    for (const auto &r : runs)
        for (const auto &[name, values] : testfx::golden_frames(r.golden)) {
            const std::string ours = name == r.golden_output ? r.model_output : name;
            const auto it = std::find(run.names.begin(), run.names.end(), ours);
            if (it == run.names.end())
                continue; // psnr, float_ssim of the v0.6.1 golden
            const size_t k = static_cast<size_t>(it - run.names.begin());
            seen[k] = true;
            for (size_t i = 0; i < run.frames.size(); i++, compared++)
                EXPECT_TRUE(same_double(run.frames[i][k], values[i]))
                    << ours << " frame " << i << ": " << run.frames[i][k] << " golden " << values[i];
        }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), false), 0);
    EXPECT_EQ(compared, 3 * 15 * 10); // every output of each golden but psnr and float_ssim
}

// n_subsample 3: frames 0, 3, 6, 9 scored and pooled, as libvmaf's
// --subsample 3 (motion reads every frame).
TEST(GoldenSubsample, EveryThirdFrame)
{
    const Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38");
    const std::string golden = "golden/extra/" + f.name + ".subsample3.fullprec.json";
    VmafHipSettings s = testfx::settings_for(f);
    s.features = "psnr|float_ssim";
    s.n_subsample = 3;
    const Scored run = score(f, s);
    ASSERT_EQ(run.frames.size(), 4u);
    int compared = 0;
    compare(f, run, golden, &compared);
    EXPECT_EQ(compared, 19 * 4);
    const testjson::Value root = testjson::parse_file(testfx::path(golden));
    for (const auto &name : run.names) {
        const testjson::Value &g = root["pooled_metrics"][name];
        const VmafHipPooled &p = run.pooled.at(name);
        const double got[] = {p.mean, p.harmonic_mean, p.min, p.max};
        const char *const stat[] = {"mean", "harmonic_mean", "min", "max"};
        for (int k = 0; k < 4; k++) {
            if (is_float_feature(name))
                EXPECT_NEAR(got[k], g[stat[k]].num, 1e-6) << name << " " << stat[k];
            else
                EXPECT_TRUE(same_double(got[k], g[stat[k]].num)) << name << " " << stat[k];
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, Golden, testing::ValuesIn(testfx::fixtures()),
                         [](const testing::TestParamInfo<testfx::Fixture> &i) { return testfx::test_name(i.param); });
// 1920x1080 at 10 bits and 3840x2160 at 8 bits, made at build time: CAMBI's
// high-resolution path (above 1080p) and the v1 models where they are meant
// to run.
INSTANTIATE_TEST_SUITE_P(Large, Golden, testing::ValuesIn(testfx::large_fixtures()),
                         [](const testing::TestParamInfo<testfx::Fixture> &i) { return testfx::test_name(i.param); });

// Reports the figures the quality bar asks for: max |ours - golden| per feature.
class MaxDiffReport : public testing::Environment {
public:
    void TearDown() override
    {
        for (const auto &kv : max_diff())
            std::printf("max |ours - golden| %-28s %.3g\n", kv.first.c_str(), kv.second);
    }
};

const auto *report = testing::AddGlobalTestEnvironment(new MaxDiffReport);

} // namespace
