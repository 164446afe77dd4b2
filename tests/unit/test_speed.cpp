// SpEED tests (docs/speed.md): speed_chroma and speed_temporal through the
// table entries and the public API. Built for the CPU (suite unit) and the
// GPU (suite gpu, TEST_BACKEND): every golden is compared bit for bit on
// the backend under test.
//
// Map:
//   SpeedEntry.*    the table entry: options, aliases, suffixes, the
//                   accumulator block, the GPU host side
//   SpeedSolve.*    the driver of §5.5 to §5.7 run by threads as a GPU block
//                   runs it, against the CPU's serial run
//   SpeedGolden.*   the speed_chroma columns of the VMAF v1 goldens (the v1
//                   models' options), libvmaf goldens of eleven option sets
//                   at 8 bits, nine prescales with the four methods, three
//                   option sets at 10 bits and in 4:2:2 and 4:4:4, bit for
//                   bit, with 1 to 4 threads
//   SpeedTemporal.* speed_temporal: entry, libvmaf goldens at 8 and 10 bits
//                   with 1 and 4 threads, refusals
//   SpeedRefusals.* sizes libvmaf crashes on, 4:0:0, kernelscales, prescales
//                   near 1, unknown prescale methods, bit depths
#include <gtest/gtest.h>

#include <barrier>
#include <cerrno>
#include <cstring>
#include <memory>
#include <random>
#include <thread>
#include <string>
#include <utility>
#include <vector>

#include "extractors/options.h"
#include "extractors/speed/speed.h"
#include "kernels/speed/speed_solve.h"
#include "tests/common/bits.h"
#include "tests/common/context.h"
#include "tests/common/extractors.h"
#include "tests/common/fixtures.h"
#include "tests/common/score.h"
#include "vmafhip.h"

using namespace vmafhip;

namespace {

typedef testfx::OptionList Opts;

/// The v1 models' options (models/v1/*.json), as a --feature spec.
const char *const V1 =
    "speed_chroma=speed_max_val=45:speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode=5";
const char *const V1_SUFFIX = "_mxv_45_nnf_0.1_snn_0.19_wvm_5";

std::unique_ptr<Extractor> make(const Geometry &g, const Opts &opts, int *ret, std::string *msg)
{
    return testfx::make_extractor(speed_chroma_extractor, g, opts, ret, msg);
}

/// A natural1 pair of make_speed_fixtures.py: ref against x264crf38 in
/// another pixel format ("yuv420p10le", "yuv422p", "yuv444p").
testfx::Fixture natural1_as(const std::string &pix_fmt, int bpc, VmafHipChroma chroma, int frames)
{
    testfx::Fixture f;
    f.name = "natural1_576x324_" + pix_fmt + "__ref_vs_x264crf38";
    f.ref = "natural1_576x324_" + pix_fmt + "_ref.yuv";
    f.dis = "natural1_576x324_" + pix_fmt + "_x264crf38.yuv";
    f.w = 576, f.h = 324, f.bpc = bpc, f.chroma = chroma, f.frames = frames;
    return f;
}

/// Every speed* value of the golden against run's output of that name, bit
/// for bit. @return the number of values compared.
int compare_golden(const testfx::Scored &r, const std::string &golden)
{
    return testfx::compare_golden_values(r, golden, "speed");
}

testfx::Scored run(const testfx::Fixture &f, const std::string &features, int threads = 0)
{
    VmafHipSettings s = testfx::settings(f.w, f.h, f.bpc, f.chroma, features.c_str());
    s.threads = threads;
    return testfx::score(f, s);
}

/// compare_golden() of golden/<pair>.<kind>.fullprec.json against a run of
/// features on the fixture pair.
int compare_pair(const std::string &pair, const std::string &kind, const std::string &features,
                 int threads = 0)
{
    return compare_golden(run(testfx::fixture(pair), features, threads),
                          "golden/" + pair + "." + kind + ".fullprec.json");
}

// ---------------------------------------------------------------------------

TEST(SpeedEntry, TableRow)
{
    const ExtractorInfo &e = speed_chroma_extractor;
    EXPECT_STREQ(e.name, "speed_chroma");
    EXPECT_EQ(find_extractor("speed_chroma"), &e);
    for (const char *f : {"Speed_chroma_feature_speed_chroma_u_score",
                          "Speed_chroma_feature_speed_chroma_v_score",
                          "Speed_chroma_feature_speed_chroma_uv_score"})
        EXPECT_EQ(find_provider(f), &e) << f;
    ASSERT_EQ(e.n_options, 7);
    const struct {
        const char *name, *alias;
        double def, min, max;
    } want[] = {{"speed_kernelscale", "ks", 1, 0.1, 4},
                {"speed_prescale", "ps", 1, 0.1, 4},
                {"speed_sigma_nn", "snn", 0.29, 0.1, 2},
                {"speed_nn_floor", "nnf", 0, 0, 1},
                {"speed_max_val", "mxv", 1000, 0, 1000},
                {"speed_weight_var_mode", "wvm", 0, 0, 6}};
    for (const auto &w : want) {
        const OptionSpec *o = find_option(e, w.name);
        ASSERT_NE(o, nullptr) << w.name;
        EXPECT_STREQ(o->alias, w.alias);
        EXPECT_EQ(o->def, w.def) << w.name;
        EXPECT_EQ(o->min, w.min) << w.name;
        EXPECT_EQ(o->max, w.max) << w.name;
        EXPECT_TRUE(o->in_name) << w.name;
    }
    EXPECT_EQ(find_option(e, "speed_weight_var_mode")->type, OptionType::Int);
    const OptionSpec *m = find_option(e, "psm");
    ASSERT_NE(m, nullptr);
    EXPECT_STREQ(m->name, "speed_prescale_method");
    EXPECT_EQ(m->type, OptionType::Enum);
    EXPECT_TRUE(m->in_name);
    EXPECT_EQ(format_option(*m, m->def), "nearest");
    EXPECT_EQ(option_range(*m), "nearest, bilinear, bicubic or lanczos4");
}

TEST(SpeedEntry, NamesAndSuffixes)
{
    const Geometry g{576, 324, 8, VMAFHIP_CHROMA_420};
    const struct {
        Opts opts;
        std::string suffix;
    } cases[] = {
        {{}, ""},
        {{{"speed_max_val", "45"}, {"speed_nn_floor", "0.1"}, {"speed_sigma_nn", "0.19"},
          {"speed_weight_var_mode", "5"}},
         V1_SUFFIX},
        {{{"wvm", "5"}, {"snn", "0.19"}, {"nnf", "0.1"}, {"mxv", "45"}}, V1_SUFFIX},
        {{{"ks", "1.0"}}, ""}, // the default, as the 3d0h models give it
        {{{"ps", "2"}, {"mxv", "1"}, {"ks", "1.5"}}, "_ks_1.5_mxv_1_ps_2"},
        {{{"psm", "nearest"}}, ""},
        {{{"psm", "bilinear"}}, "_psm_bilinear"}, // renames though nothing is resampled
        {{{"speed_prescale_method", "lanczos4"}, {"ps", "0.6"}, {"wvm", "5"}},
         "_ps_0.6_psm_lanczos4_wvm_5"},
    };
    for (const auto &c : cases) {
        int ret = 0;
        std::string msg;
        auto e = make(g, c.opts, &ret, &msg);
        ASSERT_TRUE(e) << msg;
        std::vector<std::string> names;
        e->names(&names);
        EXPECT_EQ(names, (std::vector<std::string>{"speed_chroma_u" + c.suffix,
                                                   "speed_chroma_v" + c.suffix,
                                                   "speed_chroma_uv" + c.suffix}));
        EXPECT_EQ(e->planes(), 3);
        EXPECT_EQ(e->lookbehind(), 0);
    }
}

TEST(SpeedEntry, AccumulatorAndGpuHostSide)
{
    // 576x324 4:2:0 with bilinear 0.6: chroma 288x162 scaled to 173x97,
    // operating 10x6, truncated 10x5 (§3); taps 9 and 3 (§5.2).
    int ret = 0;
    std::string msg;
    const Opts opts = {{"ps", "0.6"}, {"psm", "bilinear"}};
    const auto e = make({576, 324, 8, VMAFHIP_CHROMA_420}, opts, &ret, &msg);
    ASSERT_TRUE(e) << msg;
    // Four sides (U, V; reference, distorted), each 25 eigenvalues, the
    // singular flag and the variances of the 2 blocks.
    EXPECT_EQ(e->accum_bytes(), 4 * (25 + 1 + 2) * sizeof(float));
    const GpuImpl *gpu = speed_chroma_extractor.gpu;
    if (!gpu)
        GTEST_SKIP() << "built without a GPU platform";
    // The constants: the taps, then the bilinear columns' and rows' sources
    // and weights, two per scaled sample.
    EXPECT_EQ(gpu->constants_bytes(*e), (9 + 3 + 2 * 2 * 173 + 2 * 2 * 97) * sizeof(float));
    std::vector<float> c(gpu->constants_bytes(*e) / sizeof(float));
    gpu->fill_constants(*e, c.data());
    const SpeedPlan &p = static_cast<const SpeedChroma &>(*e).plan();
    EXPECT_EQ(std::vector<float>(c.begin(), c.begin() + 9), p.taps_a);
    EXPECT_EQ(std::vector<float>(c.begin() + 9, c.begin() + 12), p.taps_l);
    // The workspace of each side: the decimated image (10x6 floats), E
    // (10x5), K (25x25), and Y, Y' and X (25x2 each).
    EXPECT_EQ(gpu->workspace_bytes(*e), 4 * (10 * 6 + 10 * 5 + 625 + 3 * 25 * 2) * sizeof(float));
    EXPECT_NE(gpu->enqueue, nullptr);
    EXPECT_NE(speed_temporal_extractor.gpu, nullptr);
}

// ---------------------------------------------------------------------------

/// speed_estimate()'s team as a GPU block behaves: `n` threads that each run
/// the whole driver, thread 0 the leader, each(n, f) strided over them, a
/// barrier for sync(). A missing barrier or an entry that reads another
/// entry of the same step shows up as different bytes.
struct ThreadTeam {
    int tid, n;
    std::barrier<> *bar;
    bool leader() const { return tid == 0; }
    void sync() const { bar->arrive_and_wait(); }
    template <typename F> void each(int count, F f) const
    {
        for (int i = tid; i < count; i += n)
            f(i);
    }
};

/// The side's block (SpeedSideHead, then nb variances) of E (tw x th) by a
/// team of `threads` threads, 0 for the serial team of the CPU code.
std::vector<float> estimate_side(const std::vector<float> &e, int tw, int th, int threads)
{
    const int nbh = tw / 5, nb = nbh * (th / 5), subw = tw - 4, subh = th - 4;
    float mean[SPEED_NE], k[SPEED_NE * SPEED_NE];
    for (int q = 0; q < SPEED_NE; q++)
        mean[q] = speed_mean(e.data(), tw, q, subw, subh);
    for (int a = 0; a < SPEED_NE; a++)
        for (int b = 0; b <= a; b++)
            k[a * SPEED_NE + b] = k[b * SPEED_NE + a] =
                speed_covariance(e.data(), tw, a, b, mean[a], mean[b], subw, subh);
    const size_t n = static_cast<size_t>(SPEED_NE) * nb;
    std::vector<float> y(n), qy(n), x(n), out(sizeof(SpeedSideHead) / sizeof(float) + nb);
    auto scratch = std::make_unique<SpeedSolveScratch>();
    auto *head = reinterpret_cast<SpeedSideHead *>(out.data());
    float *var = out.data() + sizeof(SpeedSideHead) / sizeof(float);
    if (threads == 0) {
        speed_estimate(SpeedSerialTeam{}, *scratch, k, e.data(), tw, nbh, nb, y.data(), qy.data(),
                       x.data(), head, var);
        return out;
    }
    std::barrier<> bar(threads);
    std::vector<std::thread> team;
    for (int t = 0; t < threads; t++)
        team.emplace_back([&, t] {
            speed_estimate(ThreadTeam{t, threads, &bar}, *scratch, k, e.data(), tw, nbh, nb,
                           y.data(), qy.data(), x.data(), head, var);
        });
    for (std::thread &t : team)
        t.join();
    return out;
}

TEST(SpeedSolve, BlockOfThreadsGivesTheSerialBytes)
{
    // Random band-pass images (a regular K), and images whose rows repeat
    // (K singular: the eigenvalue test, or the back substitution, says so).
    std::mt19937 rng(7);
    std::normal_distribution<float> noise(0.0f, 3.0f);
    const struct {
        int tw, th;
        bool repeat_rows;
    } cases[] = {{30, 15, false}, {60, 30, false}, {10, 10, false}, {35, 20, true}, {20, 10, false}};
    for (const auto &c : cases) {
        std::vector<float> e(static_cast<size_t>(c.tw) * c.th);
        for (int i = 0; i < c.th; i++)
            for (int j = 0; j < c.tw; j++)
                e[static_cast<size_t>(i) * c.tw + j] =
                    c.repeat_rows && i > 0 ? e[j] : noise(rng);
        const std::vector<float> want = estimate_side(e, c.tw, c.th, 0);
        const bool singular = reinterpret_cast<const SpeedSideHead *>(want.data())->singular != 0;
        EXPECT_EQ(singular, c.repeat_rows) << c.tw << "x" << c.th;
        for (int threads : {1, 3, 7, 32})
            for (int rep = 0; rep < 3; rep++)
                EXPECT_EQ(std::memcmp(estimate_side(e, c.tw, c.th, threads).data(), want.data(),
                                      want.size() * sizeof(float)),
                          0)
                    << c.tw << "x" << c.th << ", " << threads << " threads";
    }
}

// ---------------------------------------------------------------------------

TEST(SpeedGolden, V1ModelOptions)
{
    int compared = 0;
    for (const char *pair : {"natural1_576x324_yuv420p__ref_vs_mpeg2q28",
                             "natural1_576x324_yuv420p__ref_vs_x264crf38",
                             "natural1_576x324_yuv420p__ref_vs_ref",
                             "natural2_352x288_yuv420p10le__ref_vs_x265crf32"})
        compared += compare_pair(pair, "vmaf_v1.0.16_3d0h", V1);
    EXPECT_EQ(compared, 3 * (10 + 10 + 10 + 6));
}

TEST(SpeedGolden, OptionSets8Bit)
{
    const std::string features =
        "speed_chroma|speed_chroma=wvm=1|speed_chroma=wvm=2|speed_chroma=wvm=3|"
        "speed_chroma=wvm=4|speed_chroma=wvm=6|"
        "speed_chroma=speed_kernelscale=1.5:speed_sigma_nn=0.5:speed_nn_floor=0.3|"
        "speed_chroma=speed_kernelscale=0.5|speed_chroma=speed_kernelscale=2|"
        "speed_chroma=speed_prescale=2|speed_chroma=speed_prescale=1.5:speed_max_val=1";
    EXPECT_EQ(compare_pair("natural1_576x324_yuv420p__ref_vs_mpeg2q28", "speed", features),
              10 * 3 * 11);
}

TEST(SpeedGolden, PrescaleMethods)
{
    const std::string v1 = "speed_max_val=45:speed_nn_floor=0.1:speed_sigma_nn=0.19:"
                           "speed_weight_var_mode=5";
    const std::string features =
        "speed_chroma=psm=bilinear|speed_chroma=ps=2:psm=bilinear|"
        "speed_chroma=ps=0.99:psm=bilinear:" + v1 + "|speed_chroma=ps=0.6:psm=bilinear:" + v1 +
        "|speed_chroma=ps=2:psm=bicubic|speed_chroma=ps=0.99:psm=bicubic|"
        "speed_chroma=ps=1.5:psm=lanczos4|speed_chroma=ps=0.99:psm=lanczos4|speed_chroma=ps=0.99";
    EXPECT_EQ(compare_pair("natural1_576x324_yuv420p__ref_vs_x264crf38", "speed_prescale",
                           features),
              10 * 3 * 9);
}

TEST(SpeedGolden, OptionSets10Bit)
{
    const testfx::Fixture f = natural1_as("yuv420p10le", 10, VMAFHIP_CHROMA_420, 3);
    const std::string features = std::string("speed_chroma|") + V1 +
                                 "|speed_chroma=speed_prescale=2:speed_weight_var_mode=3";
    const int n = compare_golden(run(f, features), "golden/" + f.name + ".speed.fullprec.json");
    EXPECT_EQ(n, 3 * 3 * 3);
}

TEST(SpeedGolden, ChromaFormats)
{
    // The 5d0h models' options (bilinear 0.6) score non-zero on 576x324
    // chroma planes.
    const std::string features = std::string("speed_chroma|") + V1 + "|" + V1 +
                                 ":speed_prescale=0.6:speed_prescale_method=bilinear";
    for (const auto &[fmt, chroma] : {std::pair{"yuv422p", VMAFHIP_CHROMA_422},
                                      std::pair{"yuv444p", VMAFHIP_CHROMA_444}}) {
        const testfx::Fixture f = natural1_as(fmt, 8, chroma, 2);
        const int n = compare_golden(run(f, features), "golden/" + f.name + ".speed.fullprec.json");
        EXPECT_EQ(n, 2 * 3 * 3) << fmt;
    }
}

TEST(SpeedGolden, ThreadCountIndependent)
{
    for (int threads : {1, 2, 4})
        EXPECT_EQ(compare_pair("natural1_576x324_yuv420p__ref_vs_x264crf38", "vmaf_v1.0.16_3d0h",
                               V1, threads),
                  30)
            << threads << " threads";
}

TEST(SpeedTemporal, TableRowAndNames)
{
    const ExtractorInfo &e = speed_temporal_extractor;
    EXPECT_EQ(find_extractor("speed_temporal"), &e);
    EXPECT_EQ(find_provider("Speed_temporal_feature_speed_temporal_score"), &e);
    ASSERT_EQ(e.n_options, 7);
    EXPECT_EQ(find_option(e, "speed_weight_var_mode"), nullptr); // always mode 0 (§8)
    const OptionSpec *urd = find_option(e, "urd");
    ASSERT_NE(urd, nullptr);
    EXPECT_STREQ(urd->name, "speed_use_ref_diff");
    EXPECT_EQ(urd->type, OptionType::Bool);
    const struct {
        Opts opts;
        std::string name;
    } cases[] = {{{}, "speed_temporal"},
                 {{{"urd", "true"}}, "speed_temporal_urd"},
                 {{{"speed_max_val", "1"}}, "speed_temporal_mxv_1"},
                 {{{"ps", "0.5"}, {"psm", "bilinear"}}, "speed_temporal_ps_0.5_psm_bilinear"}};
    for (const auto &c : cases) {
        int ret = 0;
        std::string msg;
        auto x = testfx::make_extractor(e, {576, 324, 8, VMAFHIP_CHROMA_420}, c.opts, &ret, &msg);
        ASSERT_TRUE(x) << msg;
        std::vector<std::string> names;
        x->names(&names);
        EXPECT_EQ(names, std::vector<std::string>{c.name});
        EXPECT_EQ(x->planes(), 1);
        EXPECT_EQ(x->lookbehind(), 1);
        EXPECT_TRUE(x->every_frame());
    }
}

TEST(SpeedTemporal, Golden8BitAndThreads)
{
    // speed_max_val renames but does not clip (§8); frame 0 is 0.
    const std::string features =
        "speed_temporal|speed_temporal=urd=true|speed_temporal=speed_max_val=1|"
        "speed_temporal=ks=0.5:snn=0.5:nnf=0.3|speed_temporal=ps=0.5:psm=bilinear|"
        "speed_temporal=ps=0.8:psm=lanczos4";
    for (int threads : {1, 4})
        EXPECT_EQ(compare_pair("natural1_576x324_yuv420p__ref_vs_mpeg2q28", "speed_temporal",
                               features, threads),
                  10 * 6)
            << threads << " threads";
}

TEST(SpeedTemporal, Golden10Bit)
{
    const testfx::Fixture f = natural1_as("yuv420p10le", 10, VMAFHIP_CHROMA_420, 3);
    const int n = compare_golden(run(f, "speed_temporal|speed_temporal=urd=true"),
                                 "golden/" + f.name + ".speed_temporal.fullprec.json");
    EXPECT_EQ(n, 3 * 2);
}

TEST(SpeedTemporal, Refusals)
{
    const ExtractorInfo &e = speed_temporal_extractor;
    EXPECT_TRUE(testfx::accepted(e, {80, 80, 8, VMAFHIP_CHROMA_400}));
    testfx::expect_refused(e, {79, 80, 8, VMAFHIP_CHROMA_420}, {}, -ERANGE,
                           {"speed_temporal", "luma plane", "80 wide and 80 high"});
    testfx::expect_refused(e, {576, 324, 8, VMAFHIP_CHROMA_420}, {{"ps", "1.5"}}, -EINVAL,
                           {"speed_prescale", "above 1", "0.1 to 1"});
    testfx::expect_refused(e, {576, 324, 8, VMAFHIP_CHROMA_420}, {{"ks", "0.7"}}, -EINVAL,
                           {"speed_kernelscale", "not valid"});
    EXPECT_TRUE(testfx::accepted(e, {576, 324, 8, VMAFHIP_CHROMA_420}, {{"ps", "1.0005"}}));
}

// ---------------------------------------------------------------------------

void expect_refused(const Geometry &g, const Opts &opts, int want_ret,
                    const std::vector<std::string> &words)
{
    testfx::expect_refused(speed_chroma_extractor, g, opts, want_ret, words);
}

bool accepted(const Geometry &g, const Opts &opts = {})
{
    return testfx::accepted(speed_chroma_extractor, g, opts);
}

TEST(SpeedRefusals, ScaledPlaneBelow80)
{
    // §4.1: libvmaf crashes when a scaled chroma side is below 80.
    const auto g = [](int w, int h, VmafHipChroma c) { return Geometry{w, h, 8, c}; };
    EXPECT_TRUE(accepted(g(160, 160, VMAFHIP_CHROMA_420)));
    expect_refused(g(158, 160, VMAFHIP_CHROMA_420), {}, -ERANGE,
                   {"158x160", "too small", "smallest accepted frame is 160 wide and 160 high"});
    expect_refused(g(160, 158, VMAFHIP_CHROMA_420), {}, -ERANGE, {"160x158"});
    EXPECT_TRUE(accepted(g(160, 80, VMAFHIP_CHROMA_422)));
    expect_refused(g(160, 79, VMAFHIP_CHROMA_422), {}, -ERANGE, {"160 wide and 80 high"});
    EXPECT_TRUE(accepted(g(80, 80, VMAFHIP_CHROMA_444)));
    expect_refused(g(79, 80, VMAFHIP_CHROMA_444), {}, -ERANGE, {"80 wide and 80 high"});
    // Prescales: 0.5 needs 159 samples (159 * 0.5 + 0.5 = 80), 0.6 needs 133.
    EXPECT_TRUE(accepted(g(318, 318, VMAFHIP_CHROMA_420), {{"ps", "0.5"}}));
    expect_refused(g(316, 318, VMAFHIP_CHROMA_420), {{"ps", "0.5"}}, -ERANGE,
                   {"speed_prescale 0.5", "318 wide and 318 high"});
    EXPECT_TRUE(accepted(g(266, 266, VMAFHIP_CHROMA_420), {{"ps", "0.6"}}));
    expect_refused(g(264, 266, VMAFHIP_CHROMA_420), {{"ps", "0.6"}}, -ERANGE,
                   {"266 wide and 266 high"});
    expect_refused(g(352, 288, VMAFHIP_CHROMA_420), {{"ps", "0.5"}}, -ERANGE, {"88x72"});
}

TEST(SpeedRefusals, NoChroma)
{
    expect_refused({576, 324, 8, VMAFHIP_CHROMA_400}, {}, -EINVAL, {"4:0:0", "4:2:0"});
}

TEST(SpeedRefusals, Kernelscale)
{
    const Geometry g{576, 324, 8, VMAFHIP_CHROMA_420};
    expect_refused(g, {{"ks", "0.7"}}, -EINVAL, {"speed_kernelscale", "0.7", "not valid", "1.5"});
    for (const char *ks : {"0.5", "1.0005", "2.4", "3.7113", "0.74074", "4"})
        EXPECT_EQ(accepted(g, {{"ks", ks}}), std::string(ks) != "4") << ks;
    // Out of libvmaf's range: the option parser refuses it.
    int ret = 0;
    std::string msg;
    EXPECT_EQ(make(g, {{"ks", "5"}}, &ret, &msg), nullptr);
    EXPECT_EQ(ret, -ERANGE) << msg;
}

TEST(SpeedRefusals, PrescaleNearOneThatChangesTheSize)
{
    // §13 item 1: 1.0009 resamples nothing but gives 960 -> 961.
    const Geometry g{1920, 1080, 8, VMAFHIP_CHROMA_420};
    expect_refused(g, {{"ps", "1.0009"}}, -EINVAL, {"speed_prescale", "960x540", "961x540"});
    EXPECT_TRUE(accepted({576, 324, 8, VMAFHIP_CHROMA_420}, {{"ps", "1.0005"}})); // 288x162 kept
}

TEST(SpeedRefusals, PrescaleMethod)
{
    // §1.3: libvmaf crashes on an unknown method; vmafhip says which it takes.
    OptionValues v = default_options(speed_chroma_extractor);
    for (const char *name : {"speed_prescale_method", "psm"}) {
        std::string msg;
        EXPECT_EQ(set_option(speed_chroma_extractor, &v, name, "foo", &msg), -EINVAL);
        EXPECT_NE(msg.find("nearest, bilinear, bicubic or lanczos4"), std::string::npos) << msg;
        EXPECT_EQ(set_option(speed_chroma_extractor, &v, name, "1", &msg), -EINVAL) << msg;
    }
    EXPECT_EQ(v, default_options(speed_chroma_extractor));
}

TEST(SpeedRefusals, BitDepths)
{
    for (int bpc : {8, 10, 12, 16})
        EXPECT_TRUE(accepted({576, 324, bpc, VMAFHIP_CHROMA_420})) << bpc;
    expect_refused({576, 324, 9, VMAFHIP_CHROMA_420}, {}, -ENOTSUP, {"bit depth 9", "8, 10"});
}

} // namespace
