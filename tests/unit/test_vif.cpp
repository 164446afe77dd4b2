// integer VIF tests (docs/vif.md), CPU reference through the table entry
// (vif_extractor.create, cpu() per frame, finish()).
//
// Map:
//   VifLog2.*     the log2 table and L(x) (§5)
//   VifOps.*      taps, the repeated mirror against libvmaf's padding loop,
//                 shifts, the uncontracted residual, the per-pixel statistic
//   VifEntry.*    the table entry: options, features, limits, names, suffixes,
//                 and the GPU constants and workspace (GPU builds)
//   VifGolden.*   every fixture pair with VIF, and the small / 10-, 12-,
//                 16-bit VIF fixtures, against libvmaf goldens bit for bit
//                 (scores and every debug value)
//   VifOptions.*  egl = 1, vif_skip_scale0 and both, against goldens
//   VifSizes.*    8x8 accepted (= libvmaf), 7 refused with -ERANGE; depths
//   VifThreads.*  accumulators independent of the thread count (also at 1080p)
//   VifRows.*     the AVX2 row kernels equal the scalar ones (odd sizes, every
//                 depth, natural, noise and extreme content)
//
// Quick start for a new case: add the pair to VIF_FIXTURES below (luma-only
// files in tests/fixtures/vif made by make_vif_fixtures.py, and a debug golden
// from libvmaf, see MANIFEST.md "VIF fixtures"); VifGolden.SmallSizesAndBitDepths
// picks it up.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/options.h"
#include "extractors/vif/vif.h"
#include "extractors/vif/vif_cpu_rows.h"
#include "tests/common/extractors.h"
#include "tests/common/fixtures.h"

using namespace vmafhip;

namespace {

uint64_t bits(double v)
{
    uint64_t u;
    std::memcpy(&u, &v, sizeof(u));
    return u;
}

typedef std::vector<std::pair<std::string, std::string>> Opts;

/// An instance from default options plus `opts` (names or aliases), with
/// libvmaf's name suffix; nullptr with *ret and *msg when create() refuses.
std::unique_ptr<Extractor> make(const Geometry &g, const Opts &opts, int *ret, std::string *msg)
{
    ExtractorConfig c;
    c.g = g;
    c.options = default_options(vif_extractor);
    for (const auto &o : opts)
        EXPECT_EQ(set_option(vif_extractor, &c.options, o.first, o.second, msg), 0) << *msg;
    c.suffix = option_suffix(vif_extractor, c.options);
    return vif_extractor.create(c, ret, msg);
}

/// Outputs of a run: names() and one row of finish() values per frame.
struct Outputs {
    std::vector<std::string> names;
    std::vector<std::vector<double>> frames;

    double at(int frame, const std::string &name) const
    {
        for (size_t k = 0; k < names.size(); k++)
            if (names[k] == name)
                return frames.at(static_cast<size_t>(frame))[k];
        ADD_FAILURE() << "no output " << name;
        return std::nan("");
    }
};

FrameView luma_view(const VmafHipPicture &ref, const VmafHipPicture &dis, int w, int h)
{
    FrameView f;
    f.ref[0] = PlaneView{static_cast<const uint8_t *>(ref.data[0]), ref.stride[0], w, h};
    f.dis[0] = PlaneView{static_cast<const uint8_t *>(dis.data[0]), dis.stride[0], w, h};
    return f;
}

/// Outputs a clip pair (fixture files) through the table entry.
Outputs run_clip(const std::string &ref_file, const std::string &dis_file, const Geometry &g,
             VmafHipChroma file_chroma, const Opts &opts, int threads = 2)
{
    const testfx::Clip ref(ref_file, g.w, g.h, g.bpc, file_chroma);
    const testfx::Clip dis(dis_file, g.w, g.h, g.bpc, file_chroma);
    int ret = 0;
    std::string msg;
    std::unique_ptr<Extractor> e = make(g, opts, &ret, &msg);
    Outputs r;
    EXPECT_TRUE(e) << ret << " " << msg;
    if (!e)
        return r;
    e->names(&r.names);
    ThreadPool pool(threads);
    std::vector<uint8_t> acc(e->accum_bytes());
    for (int i = 0; i < ref.frames(); i++) {
        e->cpu(luma_view(ref.picture(i), dis.picture(i), g.w, g.h), acc.data(), pool);
        std::vector<double> out(r.names.size());
        e->finish(static_cast<unsigned>(i), acc.data(), out.data());
        r.frames.push_back(out);
    }
    return r;
}

Outputs run_fixture(const testfx::Fixture &f, const Opts &opts)
{
    return run_clip(f.ref, f.dis, Geometry{f.w, f.h, f.bpc, f.chroma}, f.chroma, opts);
}

/// Every output of r against the golden, bit for bit, and every integer_vif*
/// value of the golden present in r. @return the number of values compared.
int compare_golden(const Outputs &r, const std::string &golden)
{
    const auto g = testfx::golden_frames(golden);
    int compared = 0;
    for (const auto &kv : g) {
        if (kv.first.rfind("integer_vif", 0) != 0)
            continue;
        EXPECT_NE(std::find(r.names.begin(), r.names.end(), kv.first), r.names.end())
            << golden << ": we do not write " << kv.first;
    }
    for (size_t k = 0; k < r.names.size(); k++) {
        const auto it = g.find(r.names[k]);
        if (it == g.end()) {
            ADD_FAILURE() << golden << " has no " << r.names[k];
            continue;
        }
        EXPECT_EQ(it->second.size(), r.frames.size()) << golden << " " << r.names[k];
        for (size_t i = 0; i < it->second.size() && i < r.frames.size(); i++) {
            EXPECT_EQ(bits(r.frames[i][k]), bits(it->second[i]))
                << golden << " frame " << i << " " << r.names[k] << ": ours "
                << testing::PrintToString(r.frames[i][k]) << " golden "
                << testing::PrintToString(it->second[i]);
            compared++;
        }
    }
    return compared;
}

bool has_vif(const testfx::Fixture &f)
{
    return testfx::golden_frames(f.golden).count("integer_vif_scale0") != 0;
}

/// The debug golden of a fixture pair. natural3's is libvmaf's AVX-512 path,
/// which for VIF equals its plain C (checked in VifGolden.EveryFixtureBitExact).
std::string debug_golden(const testfx::Fixture &f)
{
    return f.debug.empty() ? "golden/" + f.name + ".debug.fullprec.json" : f.debug;
}

/// The luma-only VIF fixtures (tests/fixtures/vif/, MANIFEST.md "VIF fixtures").
struct VifFixture {
    std::string base, dis; ///< vif_<content>_<W>x<H>_<fmt>, distortion tag
    int w, h, bpc;

    std::string ref_file() const { return "vif/" + base + "_ref.yuv"; }
    std::string dis_file() const { return "vif/" + base + "_" + dis + ".yuv"; }
    std::string golden(const std::string &variant = "") const
    {
        return "vif/golden/" + base + "__ref_vs_" + dis + variant + ".debug.fullprec.json";
    }
};

const std::vector<VifFixture> VIF_FIXTURES = {
    {"vif_natural1_8x8_gray", "x264crf38", 8, 8, 8},
    {"vif_natural1_9x11_gray", "x264crf38", 9, 11, 8},
    {"vif_natural1_15x8_gray", "x264crf38", 15, 8, 8},
    {"vif_natural1_8x15_gray", "x264crf38", 8, 15, 8},
    {"vif_natural1_15x15_gray", "x264crf38", 15, 15, 8},
    {"vif_natural1_16x16_gray", "x264crf38", 16, 16, 8},
    {"vif_natural1_17x23_gray", "x264crf38", 17, 23, 8},
    {"vif_natural1_32x32_gray", "x264crf38", 32, 32, 8},
    {"vif_natural2_8x8_gray10le", "x265crf32", 8, 8, 10},
    {"vif_natural2_32x24_gray12le", "x265crf32", 32, 24, 12},
    {"vif_natural2_32x24_gray16le", "x265crf32", 32, 24, 16},
};

Outputs run_vif_fixture(const VifFixture &f, const Opts &opts, int threads = 2)
{
    return run_clip(f.ref_file(), f.dis_file(), Geometry{f.w, f.h, f.bpc, VMAFHIP_CHROMA_400},
                    VMAFHIP_CHROMA_400, opts, threads);
}

const testfx::Fixture &crf38_fixture()
{
    return testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38");
}

} // namespace

// ---------------------------------------------------------------------------

TEST(VifLog2, Checksums)
{
    const uint16_t *t = vif_log2_table();
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t[0], 30720);                      // T[32768] = 15 * 2048
    EXPECT_EQ(t[VIF_LOG2_ENTRIES - 1], 32768);   // T[65535] rounds to 16 * 2048
    uint64_t sum = vif_log2_entry(32767);        // libvmaf fills 32767 too
    for (int i = 0; i < VIF_LOG2_ENTRIES; i++) {
        ASSERT_EQ(t[i], vif_log2_entry(VIF_LOG2_FIRST + static_cast<uint32_t>(i))) << i;
        sum += t[i];
    }
    EXPECT_EQ(sum, 1044062817u);
    // float log2f, not double log2: the first of 38 entries where they differ.
    EXPECT_EQ(t[33108 - VIF_LOG2_FIRST], 30751);
    EXPECT_EQ(std::lround(std::log2(33108.0) * 2048), 30750);
    // Monotonic, one table for every caller.
    for (int i = 1; i < VIF_LOG2_ENTRIES; i++)
        ASSERT_LE(t[i - 1], t[i]) << i;
    EXPECT_EQ(vif_log2_table(), t);
}

TEST(VifLog2, TopSixteenBits)
{
    const uint16_t *t = vif_log2_table();
    EXPECT_EQ(vif_log2(t, 1u << 17), 17 * 2048);
    EXPECT_EQ(vif_log2(t, 1ull << 40), 40 * 2048);
    EXPECT_EQ(vif_log2(t, 131072 + 65536), t[49152 - VIF_LOG2_FIRST] + 2 * 2048);
    // The mantissa is truncated, not rounded.
    EXPECT_EQ(vif_log2(t, (65535ull << 10) | 1023), t[VIF_LOG2_ENTRIES - 1] + 10 * 2048);
    EXPECT_EQ(vif_log2(t, 0xFFFFFFFFull), t[VIF_LOG2_ENTRIES - 1] + 16 * 2048);
}

// ---------------------------------------------------------------------------

TEST(VifOps, Taps)
{
    for (int s = 0; s < VIF_SCALES; s++) {
        uint32_t sum = 0;
        for (int k = -vif_half(s); k <= vif_half(s); k++)
            sum += vif_tap(s, k < 0 ? -k : k);
        EXPECT_EQ(sum, 65536u) << s;
    }
    EXPECT_EQ(vif_half(0), 8);
    EXPECT_EQ(vif_half(3), 1);
    EXPECT_EQ(vif_tap(0, 8), 489u);
    EXPECT_EQ(vif_tap(1, 0), 14692u);
    EXPECT_EQ(vif_tap(2, 2), 3571u);
    EXPECT_EQ(vif_tap(3, 1), 10904u);
}

TEST(VifOps, MirrorIsLibvmafPadding)
{
    // libvmaf's pad_top_and_bottom / PADDING_SQ_DATA: for i = 1 .. r, copy
    // row i to -i, then row n-1-i to n-1+i. Simulated on indices, it must
    // give vif_mirror for every n >= 2 and every pad width libvmaf uses.
    for (int n = 2; n <= 40; n++)
        for (int r = 1; r <= 8; r++) {
            std::vector<int> buf(static_cast<size_t>(n + 2 * r), -1);
            auto at = [&](int i) -> int & { return buf[static_cast<size_t>(i + r)]; };
            for (int i = 0; i < n; i++)
                at(i) = i;
            for (int i = 1; i <= r; i++) {
                at(-i) = at(i);
                at(n - 1 + i) = at(n - 1 - i);
            }
            for (int i = -r; i < n + r; i++)
                ASSERT_EQ(vif_mirror(i, n), at(i)) << "n " << n << " r " << r << " i " << i;
        }
    // One reflection only would leave the range for 8 samples and 17 taps.
    EXPECT_EQ(vif_mirror(-8, 8), 6);
    EXPECT_EQ(vif_mirror(15, 8), 1);
    EXPECT_EQ(vif_mirror(-1, 10), 1);
    EXPECT_EQ(vif_mirror(10, 10), 8);
}

TEST(VifOps, Shifts)
{
    // Scale 0 normalises to 16 bits on the 8-bit x 256 scale.
    EXPECT_EQ(vif_vp_shift(0, 8), 8);
    EXPECT_EQ(vif_vq_shift(0, 8), 0);
    EXPECT_EQ(vif_round_add(0), 0u);
    EXPECT_EQ(vif_vp_shift(0, 10), 10);
    EXPECT_EQ(vif_vq_shift(0, 10), 4);
    EXPECT_EQ(vif_round_add(4), 8u);
    EXPECT_EQ(vif_vq_shift(0, 16), 16);
    for (int bpc : {8, 10, 12, 16})
        for (int s = 1; s < VIF_SCALES; s++) {
            EXPECT_EQ(vif_vp_shift(s, bpc), 16);
            EXPECT_EQ(vif_vq_shift(s, bpc), 16);
        }
    EXPECT_EQ(vif_down_shift(1, 8), 8);
    EXPECT_EQ(vif_down_shift(1, 12), 12);
    EXPECT_EQ(vif_down_shift(2, 12), 16);
    // A flat 8-bit picture of 200: the means come out as 200 * 256.
    const uint8_t flat[17] = {200, 200, 200, 200, 200, 200, 200, 200, 200,
                              200, 200, 200, 200, 200, 200, 200, 200};
    const VifVert v = vif_vertical<0>(flat, flat, 1, 8, 0);
    EXPECT_EQ(v.mu1, 200 * 256);
    EXPECT_EQ(v.xx, 65536u * 200 * 200);
    EXPECT_EQ(vif_lowpass<1>(flat, 1, 8), 200 * 256);
}

TEST(VifOps, ResidualIsNotFused)
{
    // g * s12 = 2^30 + 2 + 2^-30 exactly; rounded to double it is 2^30 + 2.
    // s2 - round(g * s12) = 1, while a fused multiply-add gives 1 - 2^-30,
    // which truncates to 0.
    const double g = 1.0 + std::ldexp(1.0, -30);
    const int32_t s12 = (1 << 30) + 1, s2 = (1 << 30) + 3;
    ASSERT_EQ(static_cast<int32_t>(std::fma(-g, static_cast<double>(s12), static_cast<double>(s2))), 0);
    EXPECT_EQ(vif_residual(s2, g, s12), 1);
    EXPECT_EQ(vif_trunc_i32(-3.7), -3);
    EXPECT_EQ(vif_trunc_i32(2147483647.9), 2147483647);
    EXPECT_EQ(vif_trunc_i32(-2147483648.9), INT32_MIN);
    EXPECT_EQ(vif_trunc_i32(1e10), INT32_MIN); // x86 cvttsd2si, not saturation
    EXPECT_EQ(vif_trunc_i32(std::nan("")), INT32_MIN);
}

TEST(VifOps, PixelStatistic)
{
    const uint16_t *t = vif_log2_table();
    const double egl = 100.0;
    // Low reference variance: the non-log terms.
    VifPartial a = {0, 0, 0, 0};
    vif_pixel(VifSums{0, 0, 1000, 700, 0}, egl, t, a);
    EXPECT_EQ(a.num_nonlog, 700);
    EXPECT_EQ(a.den_nonlog, 1);
    EXPECT_EQ(a.num_log, 0);
    EXPECT_EQ(a.den_log, 0);
    // s2 is clamped at 0 (the means make it negative here).
    a = VifPartial{0, 0, 0, 0};
    vif_pixel(VifSums{0, 65536u << 4, 10, 10, 0}, egl, t, a);
    EXPECT_EQ(a.num_nonlog, 0);
    // s1 = s2 = s12 = 200000: g just under 1, sv = 0, g^2 s1 truncates to 199999.
    a = VifPartial{0, 0, 0, 0};
    vif_pixel(VifSums{0, 0, 200000, 200000, 200000}, egl, t, a);
    EXPECT_EQ(a.den_log, vif_log2(t, 331072) - 17 * 2048);
    EXPECT_EQ(a.num_log, vif_log2(t, 131072 + 199999) - vif_log2(t, 131072));
    // Negative correlation: den only.
    a = VifPartial{0, 0, 0, 0};
    vif_pixel(VifSums{0, 0, 200000, 200000, static_cast<uint64_t>(static_cast<uint32_t>(-5))}, egl, t, a);
    EXPECT_EQ(a.num_log, 0);
    EXPECT_GT(a.den_log, 0);
    // The gain limit caps g: s12 = 2 s1 gives g = 2, limited to 1.
    VifPartial lim = {0, 0, 0, 0}, free_ = {0, 0, 0, 0};
    const VifSums gain{0, 0, 200000, 900000, 400000};
    vif_pixel(gain, 1.0, t, lim);
    vif_pixel(gain, egl, t, free_);
    EXPECT_LT(lim.num_log, free_.num_log);
    EXPECT_EQ(lim.den_log, free_.den_log);
}

// ---------------------------------------------------------------------------

TEST(VifEntry, TableRow)
{
    const ExtractorInfo &e = vif_extractor;
    EXPECT_STREQ(e.name, "vif");
    ASSERT_EQ(e.n_options, 3);
    EXPECT_STREQ(e.options[0].name, "debug");
    EXPECT_EQ(e.options[0].alias, nullptr);
    EXPECT_FALSE(e.options[0].in_name);
    EXPECT_STREQ(e.options[1].name, "vif_enhn_gain_limit");
    EXPECT_STREQ(e.options[1].alias, "egl");
    EXPECT_EQ(e.options[1].type, OptionType::Double);
    EXPECT_EQ(e.options[1].def, 100.0);
    EXPECT_EQ(e.options[1].min, 1.0);
    EXPECT_EQ(e.options[1].max, 100.0);
    EXPECT_TRUE(e.options[1].in_name);
    EXPECT_STREQ(e.options[2].name, "vif_skip_scale0");
    EXPECT_STREQ(e.options[2].alias, "ssclz");
    EXPECT_EQ(e.options[2].type, OptionType::Bool);
    EXPECT_TRUE(e.options[2].in_name);
    ASSERT_EQ(e.n_provides, 15);
    EXPECT_STREQ(e.provides[0].libvmaf_name, "VMAF_integer_feature_vif_scale0_score");
    EXPECT_STREQ(e.provides[0].output_name, "integer_vif_scale0");
    EXPECT_STREQ(e.provides[3].libvmaf_name, "VMAF_integer_feature_vif_scale3_score");
    EXPECT_STREQ(e.provides[3].output_name, "integer_vif_scale3");
    EXPECT_STREQ(e.provides[14].output_name, "integer_vif_den_scale3");
    EXPECT_EQ(e.min_w, 8);
    EXPECT_EQ(e.min_h, 8);
    EXPECT_EQ(e.bit_depths, bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16));
    EXPECT_EQ(e.max_lookahead, 0);
}

TEST(VifEntry, GpuHostSide)
{
    // Set in builds with a GPU platform only; its host side needs no device.
    const GpuImpl *gpu = vif_extractor.gpu;
    if (!gpu)
        GTEST_SKIP() << "built without a GPU platform";
    int ret = 0;
    std::string msg;
    const std::unique_ptr<Extractor> e = make(Geometry{97, 61, 8, VMAFHIP_CHROMA_420}, {}, &ret, &msg);
    // The constants are the CPU's log2 table, byte for byte.
    ASSERT_EQ(gpu->constants_bytes(*e), VIF_LOG2_ENTRIES * sizeof(uint16_t));
    std::vector<uint16_t> host(VIF_LOG2_ENTRIES);
    gpu->fill_constants(*e, host.data());
    EXPECT_EQ(std::memcmp(host.data(), vif_log2_table(), host.size() * sizeof(uint16_t)), 0);
    // The workspace holds the ref and dis pictures of scales 1-3.
    const size_t need = 2 * sizeof(uint16_t) * (48 * 30 + 24 * 15 + 12 * 7);
    EXPECT_GE(gpu->workspace_bytes(*e), need);
    EXPECT_LT(gpu->workspace_bytes(*e), need + 6 * 256);
    EXPECT_NE(gpu->enqueue, nullptr);
}

TEST(VifEntry, NamesAndSuffixes)
{
    const Geometry g{64, 48, 8, VMAFHIP_CHROMA_420};
    int ret = 0;
    std::string msg;
    std::vector<std::string> names;
    make(g, {}, &ret, &msg)->names(&names);
    EXPECT_EQ(names, (std::vector<std::string>{"integer_vif_scale0", "integer_vif_scale1",
                                               "integer_vif_scale2", "integer_vif_scale3"}));
    names.clear();
    std::unique_ptr<Extractor> d = make(g, {{"debug", "true"}, {"egl", "1"}}, &ret, &msg);
    d->names(&names);
    ASSERT_EQ(names.size(), 15u);
    EXPECT_EQ(names[0], "integer_vif_scale0_egl_1");
    EXPECT_EQ(names[4], "integer_vif_egl_1");
    EXPECT_EQ(names[5], "integer_vif_num_egl_1");
    EXPECT_EQ(names[6], "integer_vif_den_egl_1");
    EXPECT_EQ(names[7], "integer_vif_num_scale0_egl_1");
    EXPECT_EQ(names[8], "integer_vif_den_scale0_egl_1");
    EXPECT_EQ(names[14], "integer_vif_den_scale3_egl_1");
    EXPECT_EQ(d->accum_bytes(), sizeof(VifAccum));
    EXPECT_EQ(d->planes(), 1);
    EXPECT_EQ(d->lookahead(), 0);
    // debug is not part of the names; the gain limit and ssclz are.
    OptionValues v = default_options(vif_extractor);
    EXPECT_EQ(set_option(vif_extractor, &v, "debug", "true", &msg), 0);
    EXPECT_EQ(option_suffix(vif_extractor, v), "");
    EXPECT_EQ(set_option(vif_extractor, &v, "vif_skip_scale0", "true", &msg), 0);
    EXPECT_EQ(set_option(vif_extractor, &v, "vif_enhn_gain_limit", "1.5", &msg), 0);
    EXPECT_EQ(option_suffix(vif_extractor, v), "_egl_1.5_ssclz");
    EXPECT_EQ(set_option(vif_extractor, &v, "egl", "0.5", &msg), -ERANGE);
    EXPECT_EQ(set_option(vif_extractor, &v, "egl", "100.5", &msg), -ERANGE);
}

TEST(VifEntry, Params)
{
    int ret = 0;
    std::string msg;
    const std::unique_ptr<Extractor> e = make(Geometry{97, 61, 10, VMAFHIP_CHROMA_420}, {{"egl", "3"}}, &ret, &msg);
    const VifParams &p = static_cast<const Vif &>(*e).params();
    const int w[4] = {97, 48, 24, 12}, h[4] = {61, 30, 15, 7};
    for (int s = 0; s < VIF_SCALES; s++) {
        EXPECT_EQ(p.w[s], w[s]);
        EXPECT_EQ(p.h[s], h[s]);
    }
    EXPECT_EQ(p.bpc, 10);
    EXPECT_EQ(p.skip_scale0, 0);
    EXPECT_EQ(p.egl, 3.0);
}

// ---------------------------------------------------------------------------

TEST(VifGolden, EveryFixtureBitExact)
{
    int pairs = 0, values = 0, debug_values = 0;
    for (const auto &f : testfx::fixtures()) {
        if (!has_vif(f))
            continue;
        SCOPED_TRACE(f.name);
        const Outputs r = run_fixture(f, {});
        ASSERT_EQ(static_cast<int>(r.frames.size()), f.frames);
        const int n = compare_golden(r, f.golden);
        EXPECT_EQ(n, 4 * f.frames);
        values += n;
        const Outputs d = run_fixture(f, {{"debug", "true"}});
        const int nd = compare_golden(d, debug_golden(f));
        EXPECT_EQ(nd, 15 * f.frames);
        debug_values += nd;
        // The debug golden of natural3 is libvmaf's AVX-512 path: its VIF
        // scores are those of the plain-C reference golden.
        const auto plain = testfx::golden_frames(f.golden), dbg = testfx::golden_frames(debug_golden(f));
        for (int s = 0; s < VIF_SCALES; s++) {
            const std::string k = "integer_vif_scale" + std::to_string(s);
            EXPECT_EQ(plain.at(k), dbg.at(k)) << k;
        }
        pairs++;
    }
    EXPECT_EQ(pairs, 12);
    std::printf("[ vif golden ] %d pairs, %d values + %d debug values compared bit for bit\n", pairs,
                values, debug_values);
}

TEST(VifGolden, SmallSizesAndBitDepths)
{
    int values = 0;
    for (const auto &f : VIF_FIXTURES) {
        SCOPED_TRACE(f.base);
        const Outputs r = run_vif_fixture(f, {{"debug", "true"}});
        ASSERT_FALSE(r.frames.empty());
        values += compare_golden(r, f.golden());
        for (const auto &row : r.frames)
            for (double v : row)
                EXPECT_TRUE(std::isfinite(v));
    }
    EXPECT_EQ(values, 15 * (8 * 3 + 3 * 2));
    std::printf("[ vif golden ] %zu small / high-bit-depth pairs, %d values bit for bit\n",
                VIF_FIXTURES.size(), values);
}

TEST(VifGolden, IdenticalInputs)
{
    const auto &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_ref");
    const Outputs r = run_fixture(f, {{"debug", "true"}});
    for (int i = 0; i < f.frames; i++)
        for (int s = 0; s < VIF_SCALES; s++) {
            // sv is 0 everywhere: VIF is 1 up to the non-log pixels' s2 term.
            const double v = r.at(i, "integer_vif_scale" + std::to_string(s));
            EXPECT_LE(v, 1.0);
            EXPECT_GT(v, 0.9999);
        }
}

// ---------------------------------------------------------------------------

TEST(VifOptions, GainLimitOne)
{
    const auto &f = crf38_fixture();
    const Outputs r = run_fixture(f, {{"debug", "true"}, {"vif_enhn_gain_limit", "1.0"}});
    EXPECT_EQ(r.names[0], "integer_vif_scale0_egl_1");
    EXPECT_EQ(compare_golden(r, "vif/golden/" + f.name + ".vif_egl_1.debug.fullprec.json"), 15 * f.frames);
    // A limit lowers (never raises) the numerators; denominators are unchanged.
    const Outputs d = run_fixture(f, {{"debug", "true"}});
    for (int i = 0; i < f.frames; i++) {
        EXPECT_LE(r.at(i, "integer_vif_num_egl_1"), d.at(i, "integer_vif_num"));
        EXPECT_EQ(r.at(i, "integer_vif_den_egl_1"), d.at(i, "integer_vif_den"));
    }
}

TEST(VifOptions, SkipScale0)
{
    const auto &f = crf38_fixture();
    const Outputs r = run_fixture(f, {{"debug", "true"}, {"vif_skip_scale0", "true"}});
    EXPECT_EQ(r.names[0], "integer_vif_scale0_ssclz");
    EXPECT_EQ(compare_golden(r, "vif/golden/" + f.name + ".vif_ssclz.debug.fullprec.json"), 15 * f.frames);
    const Outputs d = run_fixture(f, {{"debug", "true"}});
    for (int i = 0; i < f.frames; i++) {
        EXPECT_EQ(r.at(i, "integer_vif_scale0_ssclz"), 0.0);
        EXPECT_EQ(r.at(i, "integer_vif_num_scale0_ssclz"), 0.0);
        EXPECT_EQ(r.at(i, "integer_vif_den_scale0_ssclz"), -1.0);
        // Scales 1-3 are still built from the full-resolution frame.
        for (int s = 1; s < VIF_SCALES; s++) {
            const std::string k = "integer_vif_scale" + std::to_string(s);
            EXPECT_EQ(bits(r.at(i, k + "_ssclz")), bits(d.at(i, k))) << k;
        }
        // The debug sums leave scale 0 out.
        EXPECT_EQ(r.at(i, "integer_vif_den_ssclz"), d.at(i, "integer_vif_den_scale1") +
                                                        d.at(i, "integer_vif_den_scale2") +
                                                        d.at(i, "integer_vif_den_scale3"));
    }
}

TEST(VifOptions, BothAt12Bits)
{
    const VifFixture &f = VIF_FIXTURES[9];
    ASSERT_EQ(f.bpc, 12);
    const Outputs r = run_vif_fixture(f, {{"debug", "true"}, {"egl", "1"}, {"ssclz", "true"}});
    EXPECT_EQ(r.names[0], "integer_vif_scale0_egl_1_ssclz");
    EXPECT_EQ(compare_golden(r, f.golden(".vif_egl_1_ssclz")), 15 * 2);
}

// ---------------------------------------------------------------------------

TEST(VifSizes, SmallestAcceptedIsLibvmafs)
{
    // 8x8: scale 3 is 1x1; libvmaf's padding then reads what the scale-2
    // pass left in its buffers (docs/vif.md §8), which we reproduce.
    const VifFixture &f = VIF_FIXTURES[0];
    ASSERT_EQ(f.w, 8);
    ASSERT_EQ(f.h, 8);
    const Outputs r = run_vif_fixture(f, {{"debug", "true"}});
    EXPECT_EQ(compare_golden(r, f.golden()), 15 * 3);
    EXPECT_EQ(bits(r.at(0, "integer_vif_scale3")), bits(0.7967313528060913));
}

TEST(VifSizes, SmallerIsRefused)
{
    const struct {
        int w, h;
    } bad[] = {{7, 8}, {8, 7}, {7, 7}, {1, 1}, {0, 0}, {4, 1080}, {1920, 7}};
    for (const auto &b : bad) {
        int ret = 0;
        std::string msg;
        EXPECT_EQ(make(Geometry{b.w, b.h, 8, VMAFHIP_CHROMA_420}, {}, &ret, &msg), nullptr);
        EXPECT_EQ(ret, -ERANGE);
        const std::string size = std::to_string(b.w) + "x" + std::to_string(b.h);
        EXPECT_NE(msg.find("vif"), std::string::npos) << msg;
        EXPECT_NE(msg.find(size), std::string::npos) << msg;
        EXPECT_NE(msg.find("at least 8"), std::string::npos) << msg;
        EXPECT_NE(msg.find("libvmaf"), std::string::npos) << msg; // says why
    }
    int ret = 0;
    std::string msg;
    EXPECT_NE(make(Geometry{8, 8, 8, VMAFHIP_CHROMA_420}, {}, &ret, &msg), nullptr);
    EXPECT_EQ(ret, 0);
}

TEST(VifSizes, BitDepthsAndRanges)
{
    for (int bpc : {8, 10, 12, 16}) {
        int ret = 0;
        std::string msg;
        EXPECT_NE(make(Geometry{16, 16, bpc, VMAFHIP_CHROMA_420}, {}, &ret, &msg), nullptr) << bpc;
    }
    for (int bpc : {0, 9, 14, 32}) {
        int ret = 0;
        std::string msg;
        EXPECT_EQ(make(Geometry{16, 16, bpc, VMAFHIP_CHROMA_420}, {}, &ret, &msg), nullptr) << bpc;
        EXPECT_EQ(ret, -ENOTSUP) << bpc;
        EXPECT_NE(msg.find("8, 10, 12 and 16"), std::string::npos) << msg;
    }
    // Raw option values bypass set_option's range check: create() checks too.
    ExtractorConfig c;
    c.g = Geometry{16, 16, 8, VMAFHIP_CHROMA_420};
    c.options = default_options(vif_extractor);
    c.options[1] = 0.5;
    int ret = 0;
    std::string msg;
    EXPECT_EQ(vif_extractor.create(c, &ret, &msg), nullptr);
    EXPECT_EQ(ret, -ERANGE);
    EXPECT_NE(msg.find("vif_enhn_gain_limit"), std::string::npos) << msg;
    c.options.pop_back();
    EXPECT_EQ(vif_extractor.create(c, &ret, &msg), nullptr);
    EXPECT_EQ(ret, -EINVAL);
}

// ---------------------------------------------------------------------------

TEST(VifThreads, AccumulatorsIndependentOfSplit)
{
    for (const char *name : {"natural1_576x324_yuv420p__ref_vs_x264crf38", "natural3_97x61_yuv420p__ref_vs_mjpegq24"}) {
        const auto &f = testfx::fixture(name);
        const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
        const Geometry g{f.w, f.h, f.bpc, f.chroma};
        int ret = 0;
        std::string msg;
        const std::unique_ptr<Extractor> e = make(g, {}, &ret, &msg);
        const FrameView fv = luma_view(ref.picture(1), dis.picture(1), f.w, f.h);
        VifAccum want;
        {
            ThreadPool one(1);
            e->cpu(fv, &want, one);
        }
        for (int threads : {2, 3, 7}) {
            ThreadPool pool(threads);
            VifAccum got;
            e->cpu(fv, &got, pool);
            EXPECT_EQ(std::memcmp(&got, &want, sizeof(got)), 0) << name << " " << threads << " threads";
        }
        // A fresh instance (fresh scratch) gives the same bytes too.
        const std::unique_ptr<Extractor> e2 = make(g, {}, &ret, &msg);
        ThreadPool pool(4);
        VifAccum fresh;
        e2->cpu(fv, &fresh, pool);
        EXPECT_EQ(std::memcmp(&fresh, &want, sizeof(fresh)), 0) << name;
    }
    // Whole runs of the smallest fixture, 1 vs 5 threads.
    EXPECT_EQ(run_vif_fixture(VIF_FIXTURES[0], {{"debug", "true"}}, 1).frames,
              run_vif_fixture(VIF_FIXTURES[0], {{"debug", "true"}}, 5).frames);
}

TEST(VifThreads, SameSums1080p)
{
    const int w = 1920, h = 1080;
    std::vector<uint8_t> ref(static_cast<size_t>(w) * h), dis(ref.size());
    uint32_t seed = 12345;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            seed = seed * 1664525u + 1013904223u;
            const int v = 128 + static_cast<int>(60 * std::sin(x * 0.05) * std::cos(y * 0.03)) +
                          static_cast<int>(seed >> 28) - 8;
            ref[static_cast<size_t>(y) * w + x] = static_cast<uint8_t>(v);
            dis[static_cast<size_t>(y) * w + x] = static_cast<uint8_t>(v + static_cast<int>((seed >> 20) & 7) - 3);
        }
    FrameView fv;
    fv.ref[0] = PlaneView{ref.data(), w, w, h};
    fv.dis[0] = PlaneView{dis.data(), w, w, h};
    int ret = 0;
    std::string msg;
    const std::unique_ptr<Extractor> e = make(Geometry{w, h, 8, VMAFHIP_CHROMA_400}, {}, &ret, &msg);
    VifAccum a2;
    testfx::same_sums_any_thread_count(*e, fv, &a2);
    double out[4];
    e->finish(0, &a2, out);
    for (double v : out) {
        EXPECT_GT(v, 0.1);
        EXPECT_LT(v, 1.0);
    }
}

// ---------------------------------------------------------------------------
// VifRows.*: the AVX2 row kernels (vif_cpu_avx2.cpp) against the scalar ones
// on the whole pipeline, at sizes and contents the goldens do not have.

namespace {

/// A picture of w x h samples of `bpc` bits (uint8 at 8 bits, else uint16).
struct TestPicture {
    int w, h, bpc;
    std::vector<uint16_t> v;

    TestPicture(int w_, int h_, int bpc_) : w(w_), h(h_), bpc(bpc_), v(static_cast<size_t>(w_) * h_) {}
    uint16_t &at(int x, int y) { return v[static_cast<size_t>(y) * w + x]; }
    uint16_t max() const { return static_cast<uint16_t>((1u << bpc) - 1); }

    /// The samples as the caller stores them.
    std::vector<uint8_t> bytes() const
    {
        if (bpc > 8) {
            std::vector<uint8_t> b(v.size() * 2);
            std::memcpy(b.data(), v.data(), b.size());
            return b;
        }
        return std::vector<uint8_t>(v.begin(), v.end());
    }
};

enum class Content { Natural, Noise, Extremes };

/// A reference and a distorted picture: natural-looking (smooth waves, some
/// texture, a flat quarter; distorted by blur and noise), full-range noise
/// (independent), or
/// the extremes (0 and the maximum in blocks and single samples, distorted
/// by flipping some of them).
std::pair<TestPicture, TestPicture> test_pair(int w, int h, int bpc, Content c, uint32_t seed)
{
    TestPicture ref(w, h, bpc), dis(w, h, bpc);
    std::mt19937 rng(seed);
    const int top = ref.max();
    auto clamp = [&](double v) { return static_cast<uint16_t>(std::min(std::max(std::lround(v), 0l), static_cast<long>(top))); };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            switch (c) {
            case Content::Natural: { // the left quarter flat (no variance: the non-log terms)
                const double v = 0.5 + 0.3 * std::sin(x * 0.21 + y * 0.05) * std::cos(y * 0.17) +
                                 0.1 * std::sin(x * 1.3) * std::sin(y * 0.9);
                ref.at(x, y) = 4 * x < w ? clamp(0.3 * top)
                                         : clamp(v * top + std::uniform_int_distribution<int>(-top / 40, top / 40)(rng));
                break;
            }
            case Content::Noise:
                ref.at(x, y) = static_cast<uint16_t>(std::uniform_int_distribution<int>(0, top)(rng));
                dis.at(x, y) = static_cast<uint16_t>(std::uniform_int_distribution<int>(0, top)(rng));
                break;
            case Content::Extremes:
                ref.at(x, y) = ((x / 3 + y / 2) % 3 == 0) != (rng() % 17 == 0) ? static_cast<uint16_t>(top) : 0;
                dis.at(x, y) = rng() % 5 == 0 ? static_cast<uint16_t>(top - ref.at(x, y)) : ref.at(x, y);
                break;
            }
        }
    if (c == Content::Natural)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                const int xl = std::max(x - 1, 0), xr = std::min(x + 1, w - 1);
                const double blur = (ref.at(xl, y) + 2.0 * ref.at(x, y) + ref.at(xr, y)) / 4;
                const int noise = 4 * x < w ? top / 200 : top / 25;
                dis.at(x, y) = clamp(blur + std::uniform_int_distribution<int>(-noise, noise)(rng));
            }
    return {ref, dis};
}

} // namespace

TEST(VifRows, Avx2MatchesScalar)
{
    if (!vif_cpu_has_avx2())
        GTEST_SKIP() << "no AVX2 here (CPU or build)";
    // Sizes around the vector widths (16 columns), the 64-column steps of
    // the horizontal stage and the filter widths, odd ones, and one-row /
    // one-column scale 3.
    const std::pair<int, int> sizes[] = {{8, 8},   {9, 11},   {15, 8},   {8, 15},  {16, 16},
                                         {17, 23}, {31, 33},  {33, 18},  {47, 29}, {64, 64},
                                         {65, 40}, {97, 61},  {130, 47}, {203, 35}, {36, 150}};
    ThreadPool pool(2);
    int cases = 0;
    VifAccum seen = {}; // that every sum is exercised
    for (int bpc : {8, 10, 12, 16})
        for (const auto &sz : sizes)
            for (Content c : {Content::Natural, Content::Noise, Content::Extremes}) {
                const auto pics = test_pair(sz.first, sz.second, bpc, c, static_cast<uint32_t>(cases));
                const std::vector<uint8_t> rb = pics.first.bytes(), db = pics.second.bytes();
                const ptrdiff_t stride = static_cast<ptrdiff_t>(sz.first) * (bpc > 8 ? 2 : 1);
                FrameView fv;
                fv.ref[0] = PlaneView{rb.data(), stride, sz.first, sz.second};
                fv.dis[0] = PlaneView{db.data(), stride, sz.first, sz.second};
                for (const Opts &opts : {Opts{}, Opts{{"egl", "1.5"}}}) {
                    int ret = 0;
                    std::string msg;
                    const std::unique_ptr<Extractor> e =
                        make(Geometry{sz.first, sz.second, bpc, VMAFHIP_CHROMA_400}, opts, &ret, &msg);
                    ASSERT_TRUE(e) << msg;
                    const Vif &v = static_cast<const Vif &>(*e);
                    VifAccum scalar, avx2;
                    vif_cpu_run(v, fv, vif_rows_scalar, pool, &scalar);
                    vif_cpu_run(v, fv, vif_rows_avx2, pool, &avx2);
                    for (int s = 0; s < VIF_SCALES; s++) {
                        SCOPED_TRACE(testing::Message() << sz.first << "x" << sz.second << " " << bpc << " bits, content "
                                                        << static_cast<int>(c) << ", scale " << s
                                                        << (opts.empty() ? "" : ", egl 1.5"));
                        EXPECT_EQ(avx2.num_log[s], scalar.num_log[s]);
                        EXPECT_EQ(avx2.den_log[s], scalar.den_log[s]);
                        EXPECT_EQ(avx2.num_nonlog[s], scalar.num_nonlog[s]);
                        EXPECT_EQ(avx2.den_nonlog[s], scalar.den_nonlog[s]);
                        seen.num_log[s] |= scalar.num_log[s];
                        seen.den_log[s] |= scalar.den_log[s];
                        seen.num_nonlog[s] |= scalar.num_nonlog[s];
                        seen.den_nonlog[s] |= scalar.den_nonlog[s];
                    }
                    cases++;
                }
            }
    for (int s = 0; s < VIF_SCALES; s++) {
        EXPECT_NE(seen.num_log[s], 0) << s;
        EXPECT_NE(seen.den_log[s], 0) << s;
        EXPECT_NE(seen.num_nonlog[s], 0) << s;
        EXPECT_NE(seen.den_nonlog[s], 0) << s;
    }
    std::printf("[ vif rows ] %d frames: AVX2 and scalar accumulators equal\n", cases);
}
