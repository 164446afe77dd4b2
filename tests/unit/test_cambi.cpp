// CAMBI tests (docs/cambi.md), CPU reference through the table entry
// (cambi_extractor.create, cpu() per frame, finish()) and the public API.
//
// Map:
//   CambiEntry.*    the table entry: options, aliases, suffixes, the GPU
//                   implementation's host side (GPU builds)
//   CambiGolden.*   the cambi column of the VMAF v1 goldens (the v1 models'
//                   options), and libvmaf goldens of eleven option sets at
//                   8 bits and three at 10 bits (full_ref included), bit for bit
//   CambiPooling.*  §9 by counting gives libvmaf's selection's value
//   CambiDepths.*   12- and 16-bit pictures equal the 10-bit picture they map to
//   CambiRefusals.* sizes, narrow frames, windows, options libvmaf has that
//                   vmafhip does not honour yet, bit depths
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/cambi/cambi.h"
#include "extractors/options.h"
#include "tests/common/bits.h"
#include "tests/common/cambi_cases.h"
#include "tests/common/context.h"
#include "tests/common/extractors.h"
#include "tests/common/fixtures.h"
#include "tests/common/score.h"
#include "vmafhip.h"

using namespace vmafhip;

namespace {

typedef testfx::OptionList Opts;

const Opts &V1 = testfx::cambi_v1_options();

std::unique_ptr<Extractor> make(const Geometry &g, const Opts &opts, int *ret, std::string *msg)
{
    return testfx::make_extractor(cambi_extractor, g, opts, ret, msg);
}

struct Outputs {
    std::vector<std::string> names;
    std::vector<std::vector<double>> frames;
};

/// One picture per frame: luma planes of ref and dis.
struct Luma {
    std::vector<uint8_t> bytes;
    int w, h, bps;
    PlaneView view() const
    {
        return PlaneView{bytes.data(), static_cast<ptrdiff_t>(w) * bps, w, h};
    }
};

Outputs run_frames(const Geometry &g, const std::vector<Luma> &ref, const std::vector<Luma> &dis,
                   const Opts &opts)
{
    int ret = 0;
    std::string msg;
    std::unique_ptr<Extractor> e = make(g, opts, &ret, &msg);
    Outputs r;
    EXPECT_TRUE(e) << ret << " " << msg;
    if (!e)
        return r;
    e->names(&r.names);
    ThreadPool pool(1);
    std::vector<uint8_t> acc(e->accum_bytes());
    for (size_t i = 0; i < dis.size(); i++) {
        FrameView f;
        f.ref[0] = ref[i].view();
        f.dis[0] = dis[i].view();
        f.index = static_cast<unsigned>(i);
        e->cpu(f, acc.data(), pool);
        std::vector<double> out(r.names.size());
        e->finish(static_cast<unsigned>(i), acc.data(), out.data());
        r.frames.push_back(out);
    }
    return r;
}

std::vector<Luma> luma_of(const std::string &file, const Geometry &g)
{
    const testfx::Clip clip(file, g.w, g.h, g.bpc, g.chroma);
    std::vector<Luma> out;
    const int bps = g.bpc > 8 ? 2 : 1;
    for (int i = 0; i < clip.frames(); i++) {
        const VmafHipPicture p = clip.picture(i);
        Luma l{{}, g.w, g.h, bps};
        for (int y = 0; y < g.h; y++) {
            const uint8_t *row = static_cast<const uint8_t *>(p.data[0]) + y * p.stride[0];
            l.bytes.insert(l.bytes.end(), row, row + g.w * bps);
        }
        out.push_back(std::move(l));
    }
    return out;
}

Outputs run_fixture(const testfx::Fixture &f, const Opts &opts)
{
    const Geometry g{f.w, f.h, f.bpc, f.chroma};
    return run_frames(g, luma_of(f.ref, g), luma_of(f.dis, g), opts);
}

/// Every cambi* value of the golden against r's output of that name, bit for
/// bit. @return the number of values compared.
int compare_golden(const Outputs &r, const std::string &golden)
{
    return testfx::compare_golden_values(r, golden, "cambi");
}

using testfx::cambi_golden;
using testfx::cambi_v1_golden;

// ---------------------------------------------------------------------------

TEST(CambiEntry, TableRow)
{
    const ExtractorInfo &e = cambi_extractor;
    EXPECT_STREQ(e.name, "cambi");
    EXPECT_EQ(find_extractor("cambi"), &e);
    EXPECT_EQ(find_provider("Cambi_feature_cambi_score"), &e);
    ASSERT_EQ(e.n_options, 16);
    const struct {
        const char *name, *alias;
        double def, min, max;
    } want[] = {{"cambi_max_val", "cmxv", 1000, 0, 1000},
                {"window_size", "ws", 65, 15, 127},
                {"topk", nullptr, 0.6, 0.0001, 1},
                {"cambi_topk", "ctpk", 0.6, 0.0001, 1},
                {"tvi_threshold", "tvit", 0.019, 0.0001, 1},
                {"cambi_vis_lum_threshold", "vlt", 0, 0, 300},
                {"max_log_contrast", "mlc", 2, 0, 5},
                {"cambi_high_res_speedup", "hrs", 0, 0, 2160}};
    for (const auto &w : want) {
        const OptionSpec *o = find_option(e, w.name);
        ASSERT_NE(o, nullptr) << w.name;
        EXPECT_EQ(o->alias ? std::string(o->alias) : "", w.alias ? std::string(w.alias) : "");
        EXPECT_EQ(o->def, w.def) << w.name;
        EXPECT_EQ(o->min, w.min) << w.name;
        EXPECT_EQ(o->max, w.max) << w.name;
        EXPECT_TRUE(o->in_name) << w.name;
    }
    EXPECT_FALSE(find_option(e, "full_ref")->in_name);
    for (const char *eotf : {"eotf", "cambi_eotf"}) {
        const OptionSpec *o = find_option(e, eotf);
        ASSERT_NE(o, nullptr) << eotf;
        EXPECT_EQ(o->type, OptionType::Enum);
        EXPECT_STREQ(o->choices[static_cast<int>(o->def)], "bt1886");
        EXPECT_STREQ(o->choices[1], "pq");
        EXPECT_EQ(o->choices[2], nullptr);
    }
    EXPECT_STREQ(find_option(e, "ceot")->name, "cambi_eotf");
}

TEST(CambiEntry, NamesAndSuffixes)
{
    const Geometry g{576, 324, 8, VMAFHIP_CHROMA_420};
    const struct {
        Opts opts;
        std::vector<std::string> names;
    } cases[] = {
        {{}, {"cambi"}},
        {V1, {"cambi_hrs_1080_cmxv_17_vlt_0.06"}},
        {{{"hrs", "1080"}, {"vlt", "0.06"}, {"cmxv", "17"}}, {"cambi_hrs_1080_cmxv_17_vlt_0.06"}},
        {{{"encw", "480"}, {"ench", "270"}}, {"cambi_ench_270_encw_480"}},
        {{{"ws", "127"}, {"topk", "0.1"}, {"mlc", "5"}}, {"cambi_mlc_5_topk_0.1_ws_127"}},
        {{{"ctpk", "0.3"}, {"full_ref", "true"}, {"srcw", "480"}, {"srch", "270"}},
         {"cambi_ctpk_0.3_srch_270_srcw_480", "cambi_source", "cambi_full_reference"}},
        // strings as given, ordered by option name; the default names nothing
        {{{"eotf", "pq"}, {"hrs", "1080"}}, {"cambi_hrs_1080_eotf_pq"}},
        {{{"ceot", "pq"}, {"vlt", "1.5"}}, {"cambi_ceot_pq_vlt_1.5"}},
        {{{"eotf", "bt1886"}, {"ceot", "pq"}}, {"cambi_ceot_pq"}},
    };
    for (const auto &c : cases) {
        int ret = 0;
        std::string msg;
        auto e = make(g, c.opts, &ret, &msg);
        ASSERT_TRUE(e) << msg;
        std::vector<std::string> names;
        e->names(&names);
        EXPECT_EQ(names, c.names);
        EXPECT_EQ(e->planes(), 1);
    }
}

TEST(CambiEntry, GpuHostSide)
{
    // Set in builds with a GPU platform only; its host side needs no device.
    const GpuImpl *gpu = cambi_extractor.gpu;
    if (!gpu)
        GTEST_SKIP() << "built without a GPU platform";
    int ret = 0;
    std::string msg;
    const auto e = make(Geometry{576, 324, 8, VMAFHIP_CHROMA_420},
                        {{"enc_width", "480"}, {"enc_height", "270"}, {"full_ref", "true"}}, &ret,
                        &msg);
    ASSERT_TRUE(e) << msg;
    // The constants are the CPU's reciprocal table, byte for byte, then the
    // resize index vectors of the distorted picture (480 + 270 entries; the
    // reference keeps its size and has none).
    const size_t ints = CAMBI_RECIPROCALS + 480 + 270;
    ASSERT_EQ(gpu->constants_bytes(*e), ints * sizeof(int32_t));
    std::vector<int32_t> host(ints);
    gpu->fill_constants(*e, host.data());
    EXPECT_EQ(std::memcmp(host.data(), cambi_reciprocals(), CAMBI_RECIPROCALS * sizeof(float)), 0);
    const CambiPass &p = static_cast<const Cambi &>(*e).dis_pass();
    EXPECT_TRUE(std::equal(p.sx.begin(), p.sx.end(), host.begin() + CAMBI_RECIPROCALS));
    EXPECT_TRUE(std::equal(p.sy.begin(), p.sy.end(), host.begin() + CAMBI_RECIPROCALS + 480));
    // Two 576x324 planes, the mask and the c-values at least.
    EXPECT_GE(gpu->workspace_bytes(*e), size_t(576) * 324 * (2 + 2 + 1 + 4));
    EXPECT_NE(gpu->enqueue, nullptr);
}

// ---------------------------------------------------------------------------

TEST(CambiGolden, V1ModelOptions)
{
    int compared = 0;
    for (const std::string &pair : testfx::cambi_v1_pairs()) {
        const Outputs r = run_fixture(testfx::fixture(pair), V1);
        const int n = compare_golden(r, cambi_v1_golden(pair));
        EXPECT_EQ(n, static_cast<int>(r.frames.size())) << pair;
        compared += n;
    }
    EXPECT_EQ(compared, 10 + 10 + 10 + 6);
}

// Eleven option sets at 8 bits and three at 10 bits (full_ref included).
TEST(CambiGolden, OptionSets)
{
    int compared = 0;
    for (const testfx::CambiOptionSets &c : testfx::cambi_option_sets()) {
        const testfx::Fixture &f = testfx::fixture(c.pair);
        for (const Opts &o : c.sets)
            compared += compare_golden(run_fixture(f, o), cambi_golden(c.pair));
    }
    // 10 frames x (11 sets + 2 full_ref outputs), 6 frames x (3 sets + 2)
    EXPECT_EQ(compared, 10 * (11 + 2) + 6 * (3 + 2));
}

// The PQ EOTF: four sets at 8 and at 10 bits, two at 1920x1080 10-bit.
TEST(CambiGolden, PqEotf)
{
    int compared = 0;
    for (const testfx::CambiOptionSets &c : testfx::cambi_pq_option_sets()) {
        const testfx::Fixture &f = testfx::fixture(c.pair);
        for (const Opts &o : c.sets)
            compared += compare_golden(run_fixture(f, o), testfx::cambi_pq_golden(c.pair));
    }
    // (4 sets + 2 full_ref outputs) x 10 and x 6 frames, 2 sets x 3 frames
    EXPECT_EQ(compared, 6 * 10 + 6 * 6 + 2 * 3);
}

/// The v1 models' CAMBI on pair through the API with each thread count and
/// queue depth, against the golden of pair's v1 run (golden_file).
void expect_v1_cambi(const std::string &pair, const std::string &golden_file,
                     std::initializer_list<int> thread_counts, int queue_depth)
{
    const testfx::Fixture &f = testfx::fixture(pair);
    const auto g = testfx::golden_frames(golden_file);
    const auto &want = g.at("cambi_hrs_1080_cmxv_17_vlt_0.06");
    for (int threads : thread_counts) {
        SCOPED_TRACE(threads);
        VmafHipSettings s = testfx::settings(
            f.w, f.h, f.bpc, f.chroma, "cambi=cambi_high_res_speedup=1080:vlt=0.06:cmxv=17");
        s.threads = threads;
        s.queue_depth = queue_depth;
        const testfx::Ctx ctx = testfx::open_ctx(s);
        ASSERT_TRUE(ctx);
        const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
        for (int i = 0; i < ref.frames(); i++) {
            const VmafHipPicture r = ref.picture(i), d = dis.picture(i);
            ASSERT_EQ(vmafhip_submit(ctx.get(), &d, &r), i);
        }
        ASSERT_EQ(vmafhip_flush(ctx.get()), 0);
        const char *const *names;
        ASSERT_EQ(vmafhip_feature_names(ctx.get(), &names), 1);
        EXPECT_STREQ(names[0], "cambi_hrs_1080_cmxv_17_vlt_0.06");
        for (int i = 0; i < ref.frames(); i++) {
            const double *v = nullptr;
            ASSERT_EQ(vmafhip_frame_scores(ctx.get(), static_cast<unsigned>(i), 1, &v), 0);
            EXPECT_EQ(testfx::bits(v[0]), testfx::bits(want[static_cast<size_t>(i)])) << i;
        }
    }
}

TEST(CambiGolden, ThroughTheApiAndThreads)
{
    const std::string pair = "natural1_576x324_yuv420p__ref_vs_x264crf38";
    expect_v1_cambi(pair, cambi_v1_golden(pair), {1, 3}, 0);
}

TEST(CambiGolden, BandsOfTheWindowCounts)
{
    // §8 runs in up to one band per thread of a frame's pool, each at least
    // four windows high: at 1920x1080 (window 65) up to 4 bands at scale 0
    // and 2 at scale 1. One frame in flight gives the pool every thread.
    const std::string pair = "synth1_1920x1080_yuv420p10le__ref_vs_dis";
    expect_v1_cambi(pair, "golden/" + pair + ".vmaf_v1.0.16_3d0h.fullprec.json", {1, 2, 3, 4, 7}, 1);
}

/// §9 by counting against libvmaf's selection and ordered sum: c-value-like
/// arrays (zeros and floats of at least 0.5 with bits down to 2^-22, many
/// ties, the k-th largest inside a run of equal values), every k from one
/// to all, sums below CAMBI_EXACT_UNITS: the same doubles.
TEST(CambiPooling, CountingGivesTheSelectionsValue)
{
    std::mt19937 rng(20261207);
    std::vector<uint32_t> bins;
    int compared = 0;
    for (const int n : {1, 2, 7, 1000, 65537}) {
        for (int round = 0; round < 4; round++) {
            std::vector<float> cv(static_cast<size_t>(n));
            for (float &c : cv) {
                const uint32_t r = rng();
                // a quarter zeros, a quarter from 8 repeated values, the rest spread
                c = r % 4 == 0   ? 0.0f
                    : r % 4 == 1 ? 0.5f + static_cast<float>(r % 8)
                                 : std::ldexp(static_cast<float>(r >> 8 & 0xfffff), -22) + 0.5f;
            }
            for (const int k : {1, 2, n / 3, n / 2, n - 1, n}) {
                if (k < 1 || k > n)
                    continue;
                const uint64_t units = cambi_top_k_units(cv.data(), n, k, bins);
                ASSERT_LT(units, CAMBI_EXACT_UNITS);
                std::vector<float> selected = cv;
                const double want = cambi_top_k_mean(selected.data(), n, k);
                EXPECT_EQ(testfx::bits(cambi_exact_mean(units, k)), testfx::bits(want))
                    << "n " << n << " k " << k << ": " << cambi_exact_mean(units, k) << " against "
                    << want;
                compared++;
            }
        }
    }
    EXPECT_GT(compared, 80);
}

// ---------------------------------------------------------------------------

/// The 10-bit luma of natural2 written at `bpc` bits so that §4.2 maps every
/// sample back to the 10-bit value: 12 bits 4v + 1, 16 bits 64v + 31.
std::vector<Luma> widened(const std::vector<Luma> &ten, int bpc)
{
    std::vector<Luma> out = ten;
    for (Luma &l : out)
        for (size_t q = 0; q < l.bytes.size(); q += 2) {
            uint16_t v;
            std::memcpy(&v, &l.bytes[q], 2);
            v = static_cast<uint16_t>(bpc == 12 ? 4 * v + 1 : 64 * v + 31);
            std::memcpy(&l.bytes[q], &v, 2);
        }
    return out;
}

TEST(CambiDepths, DeeperPicturesMapToTenBits)
{
    const testfx::Fixture &f = testfx::fixture("natural2_352x288_yuv420p10le__ref_vs_x265crf32");
    const Geometry g10{f.w, f.h, 10, f.chroma};
    const auto ref = luma_of(f.ref, g10), dis = luma_of(f.dis, g10);
    for (const Opts &o : {Opts{}, V1, Opts{{"full_ref", "true"}}}) {
        const Outputs want = run_frames(g10, ref, dis, o);
        for (int bpc : {12, 16}) {
            const Geometry g{f.w, f.h, bpc, f.chroma};
            const Outputs got = run_frames(g, widened(ref, bpc), widened(dis, bpc), o);
            ASSERT_EQ(got.frames.size(), want.frames.size());
            for (size_t i = 0; i < got.frames.size(); i++)
                for (size_t k = 0; k < got.names.size(); k++)
                    EXPECT_EQ(testfx::bits(got.frames[i][k]), testfx::bits(want.frames[i][k]))
                        << bpc << " bits, " << got.names[k] << " frame " << i;
        }
    }
}

// ---------------------------------------------------------------------------

void expect_refused(const Geometry &g, const Opts &opts, int want_ret,
                    const std::vector<std::string> &words)
{
    testfx::expect_refused(cambi_extractor, g, opts, want_ret, words);
}

bool accepted(const Geometry &g, const Opts &opts = {})
{
    return testfx::accepted(cambi_extractor, g, opts);
}

TEST(CambiRefusals, BothSidesBelow216)
{
    expect_refused({200, 200, 8, VMAFHIP_CHROMA_420}, {}, -ERANGE,
                   {"cambi", "200x200", "at least 216"});
    expect_refused({176, 144, 8, VMAFHIP_CHROMA_422}, {}, -ERANGE, {"176x144", "216"});
    EXPECT_TRUE(accepted({216, 200, 8, VMAFHIP_CHROMA_420}));
    EXPECT_TRUE(accepted({200, 216, 8, VMAFHIP_CHROMA_420}));
    // The encode size is what counts.
    expect_refused({576, 324, 8, VMAFHIP_CHROMA_420}, {{"encw", "200"}, {"ench", "200"}}, -ERANGE,
                   {"encode size 200x200"});
}

TEST(CambiRefusals, NarrowFrames)
{
    // 1080 high: window 13 (pad 6); scale 4 of an 80-wide frame is 5 wide.
    expect_refused({80, 1080, 8, VMAFHIP_CHROMA_420}, {}, -ERANGE,
                   {"80x1080", "too narrow", "coarsest scale, 5x68", "at least 81"});
    EXPECT_TRUE(accepted({81, 1080, 8, VMAFHIP_CHROMA_420}));
    expect_refused({1080, 80, 8, VMAFHIP_CHROMA_420}, {}, -ERANGE, {"1080x80", "too narrow"});
    EXPECT_TRUE(accepted({1080, 81, 8, VMAFHIP_CHROMA_420}));
}

TEST(CambiRefusals, WindowAboveTheTable)
{
    expect_refused({3840, 2160, 8, VMAFHIP_CHROMA_420}, {{"window_size", "66"}}, -ERANGE,
                   {"window of 67", "65", "cambi_high_res_speedup"});
    EXPECT_TRUE(accepted({3840, 2160, 8, VMAFHIP_CHROMA_420}));
    EXPECT_TRUE(accepted({3840, 2160, 8, VMAFHIP_CHROMA_420}, {{"ws", "127"}, {"hrs", "2160"}}));
}

TEST(CambiRefusals, Options)
{
    const Geometry g{576, 324, 8, VMAFHIP_CHROMA_420};
    expect_refused(g, {{"eotf", "hlg"}}, -EINVAL, {"eotf", "'hlg'", "bt1886 or pq"});
    expect_refused(g, {{"ceot", "PQ"}}, -EINVAL, {"cambi_eotf", "'PQ'", "bt1886 or pq"});
    expect_refused(g, {{"heatmaps_path", "/tmp"}}, -EINVAL, {"heatmaps_path", "not supported"});
    expect_refused(g, {{"encw", "100"}}, -ERANGE, {"enc_width", "180 to 7680"});
    expect_refused(g, {{"encbd", "4"}}, -ERANGE, {"enc_bitdepth", "6 to 16"});
    expect_refused(g, {{"srch", "100"}}, -ERANGE, {"src_height", "200 to 4320"});
    expect_refused(g, {{"mlc", "6"}}, -ERANGE, {"max_log_contrast"});
    expect_refused(g, {{"topk", "0"}}, -ERANGE, {"topk"});
    expect_refused(g, {{"full_ref", "true"}, {"srcw", "480"}, {"srch", "324"}, {"encw", "576"},
                       {"ench", "270"}}, -EINVAL, {"source size 480x324", "encode size 576x270"});
    // Through the API, the message reaches the caller.
    VmafHipSettings s = testfx::settings(576, 324, 8, VMAFHIP_CHROMA_420, "cambi=eotf=hlg");
    testfx::LogLines log;
    s.log_callback = testfx::collect_log;
    s.log_cookie = &log;
    VmafHipContext *c = nullptr;
    EXPECT_LT(vmafhip_open(&c, &s), 0);
    vmafhip_close(&c);
    EXPECT_NE(std::string(vmafhip_last_error(nullptr)).find("eotf"), std::string::npos);
}

TEST(CambiRefusals, BitDepths)
{
    for (int bpc : {8, 10, 12, 16})
        EXPECT_TRUE(accepted({576, 324, bpc, VMAFHIP_CHROMA_420})) << bpc;
    expect_refused({576, 324, 9, VMAFHIP_CHROMA_420}, {}, -ENOTSUP, {"8, 10, 12 and 16"});
    for (VmafHipChroma ch : {VMAFHIP_CHROMA_400, VMAFHIP_CHROMA_422, VMAFHIP_CHROMA_444})
        EXPECT_TRUE(accepted({576, 324, 8, ch}));
}

} // namespace
