// integer motion tests (docs/motion.md), CPU reference through the table entry.
//
// Map:
//   MotionOps.*        mirror, floor shifts, the sign asymmetry, and the CPU
//                      reference against a plain transcription of §2 on
//                      random and extreme pictures (every bit depth)
//   MotionEntry.*      the table entry: options, provided features, sizes,
//                      look-behind and look-ahead per option, output names
//   MotionGolden.*     every shipped fixture pair against its libvmaf golden,
//                      and every option, bit depth, minimum size and short
//                      stream against the motion goldens, bit for bit, with
//                      finish_late() at the end and as early as allowed
//   MotionLate.*       look-ahead honoured, bounded memory, stale GPU sums
//   MotionReject.*     sizes, bit depths and option values refused
//   MotionThreads.*    the same SAD with 1 and several threads
//
// Quick start for a new case: add a run line to
// tests/fixtures/make_motion_goldens.sh, run it with libvmaf's binary
// (VMAF=.../vmaf_fullprec), and add the clip, variant and options to
// kVariants below.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/motion/motion.h"
#include "extractors/options.h"
#include "tests/common/bits.h"
#include "tests/common/fixtures.h"
#include "tests/common/json.h"

using namespace vmafhip;
using testfx::bits;

namespace {

/// Options from libvmaf's "name=value:name=value" text ("" for the defaults).
OptionValues parse_options(const std::string &text)
{
    OptionValues v = default_options(motion_extractor);
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find(':', pos);
        if (end == std::string::npos)
            end = text.size();
        const std::string kv = text.substr(pos, end - pos);
        const size_t eq = kv.find('=');
        std::string msg;
        EXPECT_EQ(set_option(motion_extractor, &v, kv.substr(0, eq), kv.substr(eq + 1), &msg), 0)
            << msg;
        pos = end + 1;
    }
    return v;
}

std::unique_ptr<Extractor> create(const Geometry &g, const OptionValues &v, int *ret,
                                  std::string *msg)
{
    ExtractorConfig c;
    c.g = g;
    c.options = v;
    c.suffix = option_suffix(motion_extractor, v);
    return motion_extractor.create(c, ret, msg);
}

/// A sequence of luma pictures (one plane per frame).
struct Luma {
    int w = 0, h = 0, bpc = 8;
    std::vector<PlaneView> pics;
};

Luma luma_of(const testfx::Clip &clip, int w, int h, int bpc)
{
    Luma l;
    l.w = w;
    l.h = h;
    l.bpc = bpc;
    for (int i = 0; i < clip.frames(); i++) {
        const VmafHipPicture p = clip.picture(i);
        l.pics.push_back(PlaneView{static_cast<const uint8_t *>(p.data[0]), p.stride[0], w, h});
    }
    return l;
}

enum class Late {
    AtEnd, ///< finish_late() for every frame once the length is known
    Early, ///< finish_late(i) as soon as frames up to i + lookahead() are finished
};

/// Outputs of one run: names() then late_names(), one row per frame.
struct MotionRun {
    int ret = 0;
    std::string msg;
    std::vector<std::string> names;
    std::vector<std::vector<double>> rows;
    std::vector<uint64_t> sad;  ///< the accumulators
    size_t max_held = 0;        ///< Motion::scores_held() after each call
};

struct RunArgs {
    Late late = Late::AtEnd;
    int threads = 2;
    int frames = -1;            ///< all when < 0
    bool stale = false;         ///< garbage accumulators before the first score (as on the GPU)
    VmafHipChroma chroma = VMAFHIP_CHROMA_420;
};

/// Drive the CPU reference as the interface describes: cpu() and finish()
/// per frame in order with prev_ref set, finish_late() per RunArgs::late.
MotionRun run_motion(const Luma &in, const OptionValues &opts, const RunArgs &a = RunArgs())
{
    MotionRun r;
    const Geometry g{in.w, in.h, in.bpc, a.chroma};
    std::unique_ptr<Extractor> e = create(g, opts, &r.ret, &r.msg);
    if (!e)
        return r;
    const Motion *m = dynamic_cast<const Motion *>(e.get());
    EXPECT_NE(m, nullptr);
    e->names(&r.names);
    const size_t early = r.names.size();
    e->late_names(&r.names);
    const int n = a.frames < 0 ? static_cast<int>(in.pics.size()) : a.frames;
    ThreadPool pool(a.threads);
    std::vector<uint8_t> acc(e->accum_bytes());
    r.rows.assign(static_cast<size_t>(n), std::vector<double>(r.names.size(), std::nan("")));
    unsigned next = 0;
    auto held = [&] {
        if (m && m->scores_held() > r.max_held)
            r.max_held = m->scores_held();
    };
    for (int i = 0; i < n; i++) {
        FrameView f;
        f.ref[0] = f.dis[0] = in.pics[static_cast<size_t>(i)];
        f.index = static_cast<unsigned>(i);
        for (int k = 0; k < e->lookbehind(); k++)
            if (i - 1 - k >= 0)
                f.prev_ref[k] = in.pics[static_cast<size_t>(i - 1 - k)];
        std::memset(acc.data(), 0xA5, acc.size()); // cpu() must write every byte
        e->cpu(f, acc.data(), pool);
        MotionAccum ma;
        std::memcpy(&ma, acc.data(), sizeof ma);
        r.sad.push_back(ma.sad);
        if (a.stale && m && static_cast<unsigned>(i) < m->min_index()) {
            ma.sad = 0x0123456789ABCDEFull; // a GPU sum against a stale previous picture
            std::memcpy(acc.data(), &ma, sizeof ma);
        }
        e->finish(static_cast<unsigned>(i), acc.data(), r.rows[static_cast<size_t>(i)].data());
        held();
        if (a.late == Late::Early) {
            while (next + static_cast<unsigned>(e->lookahead()) <= static_cast<unsigned>(i)) {
                e->finish_late(next, 0, &r.rows[next][early]);
                next++;
                held();
            }
        }
    }
    for (; next < static_cast<unsigned>(n); next++) {
        e->finish_late(next, static_cast<unsigned>(n), &r.rows[next][early]);
        held();
    }
    return r;
}

bool has_file(const std::string &file) { return std::ifstream(testfx::path(file)).good(); }

/// Compare every value of r with the golden, bit for bit; every motion
/// feature of the golden must be one of r's names.
/// @return the number of values compared.
int compare_golden(const MotionRun &r, const std::string &golden, const std::string &what)
{
    const auto g = testfx::golden_frames(golden);
    int compared = 0;
    for (const auto &kv : g) {
        if (kv.first.find("motion") == std::string::npos)
            continue;
        EXPECT_NE(std::find(r.names.begin(), r.names.end(), kv.first), r.names.end())
            << what << ": the golden has " << kv.first << ", we do not write it";
    }
    for (size_t k = 0; k < r.names.size(); k++) {
        const auto it = g.find(r.names[k]);
        if (it == g.end()) {
            ADD_FAILURE() << what << ": the golden has no " << r.names[k];
            continue;
        }
        EXPECT_EQ(it->second.size(), r.rows.size()) << what << " " << r.names[k];
        for (size_t i = 0; i < it->second.size() && i < r.rows.size(); i++) {
            EXPECT_EQ(bits(r.rows[i][k]), bits(it->second[i]))
                << what << " frame " << i << " " << r.names[k] << ": ours "
                << testing::PrintToString(r.rows[i][k]) << " golden "
                << testing::PrintToString(it->second[i]);
            compared++;
        }
    }
    return compared;
}

/// §2 transcribed as plainly as possible, independent of motion_ops.h.
uint64_t naive_sad(const std::vector<int> &prev, const std::vector<int> &cur, int w, int h, int bpc)
{
    const int64_t f[5] = {3571, 16004, 26386, 16004, 3571};
    auto m = [](int i, int n) { return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i; };
    uint64_t sad = 0;
    std::vector<int64_t> yv(static_cast<size_t>(w));
    for (int i = 0; i < h; i++) {
        for (int j = 0; j < w; j++) {
            int64_t s = 0;
            for (int k = 0; k < 5; k++) {
                const size_t o = static_cast<size_t>(m(i - 2 + k, h)) * w + j;
                s += f[k] * (prev[o] - cur[o]);
            }
            yv[static_cast<size_t>(j)] = static_cast<int64_t>(std::floor(
                (static_cast<double>(s) + std::ldexp(1.0, bpc - 1)) / std::ldexp(1.0, bpc)));
        }
        for (int j = 0; j < w; j++) {
            int64_t s = 0;
            for (int k = 0; k < 5; k++)
                s += f[k] * yv[static_cast<size_t>(m(j - 2 + k, w))];
            const int64_t z =
                static_cast<int64_t>(std::floor((static_cast<double>(s) + 32768.0) / 65536.0));
            sad += static_cast<uint64_t>(z < 0 ? -z : z);
        }
    }
    return sad;
}

/// Two pictures of w x h samples at bpc bits, stored as uint8 or uint16.
struct PicPair {
    int w, h, bpc;
    std::vector<int> prev, cur;
    std::vector<uint8_t> prev_bytes, cur_bytes;

    PlaneView view(const std::vector<uint8_t> &b) const
    {
        const int bps = bpc > 8 ? 2 : 1;
        return PlaneView{b.data(), static_cast<ptrdiff_t>(w) * bps, w, h};
    }
};

PicPair make_pair(int w, int h, int bpc, std::mt19937 &rng, int mode)
{
    PicPair p{w, h, bpc, {}, {}, {}, {}};
    const int max = (1 << bpc) - 1;
    std::uniform_int_distribution<int> any(0, max);
    const size_t n = static_cast<size_t>(w) * h;
    for (size_t i = 0; i < n; i++) {
        int a, b;
        if (mode == 0) { // random
            a = any(rng);
            b = any(rng);
        } else if (mode == 1) { // extremes: the largest differences of either sign
            a = ((i / 3) % 2) ? max : 0;
            b = max - a;
        } else { // small differences around mid-grey: the floor shifts decide
            a = max / 2 + static_cast<int>(rng() % 3) - 1;
            b = max / 2 + static_cast<int>(rng() % 3) - 1;
        }
        p.prev.push_back(a);
        p.cur.push_back(b);
    }
    auto store = [&](const std::vector<int> &v, std::vector<uint8_t> *out) {
        for (int s : v) {
            if (bpc > 8) {
                const uint16_t u = static_cast<uint16_t>(s);
                out->push_back(static_cast<uint8_t>(u & 0xff));
                out->push_back(static_cast<uint8_t>(u >> 8));
            } else {
                out->push_back(static_cast<uint8_t>(s));
            }
        }
    };
    store(p.prev, &p.prev_bytes);
    store(p.cur, &p.cur_bytes);
    return p;
}

/// The SAD the CPU reference gives for the pair (prev, cur) as frames 0, 1.
uint64_t cpu_sad(const PicPair &p, int threads)
{
    Luma l;
    l.w = p.w;
    l.h = p.h;
    l.bpc = p.bpc;
    l.pics = {p.view(p.prev_bytes), p.view(p.cur_bytes)};
    RunArgs a;
    a.threads = threads;
    const MotionRun r = run_motion(l, default_options(motion_extractor), a);
    EXPECT_EQ(r.ret, 0) << r.msg;
    return r.sad.size() == 2 ? r.sad[1] : ~0ull;
}

// ---------------------------------------------------------------------------
// The motion goldens (tests/fixtures/make_motion_goldens.sh).

struct Variant {
    const char *clip;    ///< clip base name, without _ref.yuv
    int w, h, bpc;
    VmafHipChroma chroma;
    const char *variant; ///< golden/<clip>__ref_vs_ref.<variant>.fullprec.json
    const char *options; ///< as given to libvmaf
    int frames;          ///< --frame_cnt, or -1
};

void PrintTo(const Variant &v, std::ostream *os) { *os << v.clip << "." << v.variant; }

constexpr VmafHipChroma C420 = VMAFHIP_CHROMA_420;
constexpr VmafHipChroma C444 = VMAFHIP_CHROMA_444;
const char *const K8 = "motion_24x16_yuv420p";

const Variant kVariants[] = {
    {K8, 24, 16, 8, C420, "debug", "debug=true", -1},
    {K8, 24, 16, 8, C420, "force_0", "debug=true:motion_force_zero=true", -1},
    {K8, 24, 16, 8, C420, "mbf_0.5_mbo_9.2",
     "debug=true:motion_blend_factor=0.5:motion_blend_offset=9.2", -1},
    {K8, 24, 16, 8, C420, "mbf_0.25", "debug=true:motion_blend_factor=0.25", -1},
    {K8, 24, 16, 8, C420, "mfw_2.5", "debug=true:motion_fps_weight=2.5", -1},
    {K8, 24, 16, 8, C420, "mmxv_9.2", "debug=true:motion_max_val=9.2", -1},
    {K8, 24, 16, 8, C420, "mffw", "debug=true:motion_five_frame_window=true", -1},
    {K8, 24, 16, 8, C420, "mma", "debug=true:motion_moving_average=true", -1},
    {K8, 24, 16, 8, C420, "mixed",
     "debug=true:motion_five_frame_window=true:motion_moving_average=true:"
     "motion_blend_factor=0.3:motion_blend_offset=9.5:motion_fps_weight=0.9:motion_max_val=11.5",
     -1},
    {K8, 24, 16, 8, C420, "n1", "debug=true", 1},
    {K8, 24, 16, 8, C420, "n2", "debug=true", 2},
    {K8, 24, 16, 8, C420, "n3", "debug=true", 3},
    {K8, 24, 16, 8, C420, "mffw.n1", "debug=true:motion_five_frame_window=true", 1},
    {K8, 24, 16, 8, C420, "mffw.n2", "debug=true:motion_five_frame_window=true", 2},
    {K8, 24, 16, 8, C420, "mffw.n3", "debug=true:motion_five_frame_window=true", 3},
    {K8, 24, 16, 8, C420, "mffw_mma.n3",
     "debug=true:motion_five_frame_window=true:motion_moving_average=true", 3},
    {"motion_24x16_yuv420p10le", 24, 16, 10, C420, "debug", "debug=true", -1},
    {"motion_24x16_yuv420p12le", 24, 16, 12, C420, "debug", "debug=true", -1},
    {"motion_24x16_yuv420p16le", 24, 16, 16, C420, "debug", "debug=true", -1},
    {"motion_24x16_yuv420p16le", 24, 16, 16, C420, "mffw",
     "debug=true:motion_five_frame_window=true", -1},
    {"motion_3x3_yuv444p", 3, 3, 8, C444, "debug", "debug=true", -1},
    {"motion_3x9_yuv444p", 3, 9, 8, C444, "debug", "debug=true", -1},
    {"motion_9x3_yuv444p", 9, 3, 8, C444, "debug", "debug=true", -1},
};

std::string golden_of(const Variant &v)
{
    return std::string("golden/") + v.clip + "__ref_vs_ref." + v.variant + ".fullprec.json";
}

class MotionVariant : public testing::TestWithParam<Variant> {};

} // namespace

// ---------------------------------------------------------------------------

TEST(MotionOps, Mirror)
{
    // Reflect-101: the edge sample is not repeated on either side.
    EXPECT_EQ(motion_mirror(-1, 10), 1);
    EXPECT_EQ(motion_mirror(-2, 10), 2);
    EXPECT_EQ(motion_mirror(10, 10), 8);
    EXPECT_EQ(motion_mirror(11, 10), 7);
    EXPECT_EQ(motion_mirror(4, 10), 4);
    // At the minimum size every tap stays inside.
    for (int p = -2; p <= 4; p++) {
        EXPECT_GE(motion_mirror(p, 3), 0) << p;
        EXPECT_LT(motion_mirror(p, 3), 3) << p;
    }
}

TEST(MotionOps, FloorShifts)
{
    EXPECT_EQ(MOTION_F0 * 2 + MOTION_F1 * 2 + MOTION_F2, 65536);
    // Vertical: (Σ + 2^(bpc-1)) >> bpc floors, so a symmetric sum is not symmetric after it.
    EXPECT_EQ(motion_vert(0, 0, 0, 0, 0, 8), 0);
    EXPECT_EQ(motion_vert(1, 1, 1, 1, 1, 8), 256);
    EXPECT_EQ(motion_vert(-1, -1, -1, -1, -1, 8), -256);
    EXPECT_EQ(motion_vert(0, 0, 0, 0, 1, 8), (3571 + 128) >> 8);   // 14
    EXPECT_EQ(motion_vert(0, 0, 0, 0, -1, 8), (-3571 + 128) >> 8); // -14: floor(-13.45)
    EXPECT_EQ(motion_vert(1, 0, 0, 0, 0, 10), (3571 + 512) >> 10); // 3
    EXPECT_EQ(motion_vert(-1, 0, 0, 0, 0, 10), -3);                // floor(-2.99)
    EXPECT_EQ(motion_vert(65535, 65535, 65535, 65535, 65535, 16), 65535);
    EXPECT_EQ(motion_vert(-65535, -65535, -65535, -65535, -65535, 16), -65535);
    // Horizontal: (Σ + 2^15) >> 16, then the magnitude.
    EXPECT_EQ(motion_hori_abs(0, 0, 0, 0, 0), 0u);
    EXPECT_EQ(motion_hori_abs(1, 1, 1, 1, 1), 1u);
    EXPECT_EQ(motion_hori_abs(-1, -1, -1, -1, -1), 1u);
    EXPECT_EQ(motion_hori_abs(0, 0, 1, 0, 0), 0u);  // floor(0.40 + 0.5) = 0
    EXPECT_EQ(motion_hori_abs(0, 0, -1, 0, 0), 0u); // floor(-0.40 + 0.5) = 0
    EXPECT_EQ(motion_hori_abs(0, 0, 2, 0, 0), 1u);  // floor(0.81 + 0.5) = 1
    EXPECT_EQ(motion_hori_abs(0, 0, -2, 0, 0), 1u); // floor(-0.81 + 0.5) = -1
    EXPECT_EQ(motion_hori_abs(65535, 65535, 65535, 65535, 65535), 65535u);
}

TEST(MotionOps, SignOrderMatters)
{
    // §2.3: the floor shifts make SAD(prev, cur) differ from SAD(cur, prev).
    std::mt19937 rng(7);
    int differ = 0;
    for (int t = 0; t < 20; t++) {
        PicPair p = make_pair(16, 12, 8, rng, 2);
        PicPair q = p;
        std::swap(q.prev, q.cur);
        std::swap(q.prev_bytes, q.cur_bytes);
        const uint64_t a = cpu_sad(p, 1), b = cpu_sad(q, 1);
        EXPECT_EQ(a, naive_sad(p.prev, p.cur, p.w, p.h, p.bpc));
        EXPECT_EQ(b, naive_sad(q.prev, q.cur, q.w, q.h, q.bpc));
        differ += a != b;
    }
    EXPECT_GT(differ, 0);
}

TEST(MotionOps, CpuMatchesPlainFormula)
{
    std::mt19937 rng(2026);
    const int sizes[][2] = {{3, 3}, {3, 7}, {7, 3}, {4, 4}, {5, 5}, {17, 9}, {64, 33}, {97, 61}};
    for (int bpc : {8, 10, 12, 16})
        for (const auto &s : sizes)
            for (int mode = 0; mode < 3; mode++) {
                const PicPair p = make_pair(s[0], s[1], bpc, rng, mode);
                EXPECT_EQ(cpu_sad(p, 3), naive_sad(p.prev, p.cur, p.w, p.h, bpc))
                    << s[0] << "x" << s[1] << " " << bpc << " bits, mode " << mode;
            }
}

TEST(MotionOps, PreviousPictureAboveBitDepth)
{
    // At 10 and 12 bits a picture the core refused (a sample above the bit
    // depth) is still the previous picture of the next frame. Its
    // differences need 17 bits; the SAD stays the exact integer of §2. Rows
    // with such samples (every fourth) among rows without.
    std::mt19937 rng(11);
    for (int bpc : {10, 12}) {
        PicPair p = make_pair(67, 23, 16, rng, 0);
        p.bpc = bpc;
        for (size_t o = 0; o < p.prev.size(); o++)
            if (o / static_cast<size_t>(p.w) % 4 != 1) {
                p.prev[o] &= (1 << bpc) - 1;
                p.cur[o] &= (1 << bpc) - 1;
                for (std::vector<uint8_t> *b : {&p.prev_bytes, &p.cur_bytes}) {
                    const int v = b == &p.prev_bytes ? p.prev[o] : p.cur[o];
                    (*b)[2 * o] = static_cast<uint8_t>(v & 0xff);
                    (*b)[2 * o + 1] = static_cast<uint8_t>(v >> 8);
                }
            }
        EXPECT_EQ(cpu_sad(p, 2), naive_sad(p.prev, p.cur, p.w, p.h, bpc)) << bpc << " bits";
    }
}

// ---------------------------------------------------------------------------

TEST(MotionEntry, TableEntry)
{
    const ExtractorInfo &e = motion_extractor;
    EXPECT_STREQ(e.name, "motion");
    EXPECT_EQ(e.min_w, 3);
    EXPECT_EQ(e.min_h, 3);
    EXPECT_EQ(e.bit_depths, bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16));
    EXPECT_EQ(e.max_lookahead, 2);
    if (e.gpu) { // GPU builds: no constants, no workspace (one launch on the planes)
        int ret = 0;
        std::string msg;
        const auto m = create(Geometry{64, 48, 10, VMAFHIP_CHROMA_420}, default_options(e), &ret,
                              &msg);
        ASSERT_TRUE(m) << msg;
        EXPECT_EQ(e.gpu->constants_bytes(*m), 0u);
        EXPECT_EQ(e.gpu->workspace_bytes(*m), 0u);
        EXPECT_NE(e.gpu->enqueue, nullptr);
    }

    // libvmaf's options (integer_motion.c): name, alias, type, default, range, renames.
    struct Want {
        const char *name, *alias;
        OptionType type;
        double def, min, max;
        bool in_name;
    };
    const Want want[] = {
        {"motion_force_zero", "force_0", OptionType::Bool, 0, 0, 1, true},
        {"motion_blend_factor", "mbf", OptionType::Double, 1.0, 0.0, 1.0, true},
        {"motion_blend_offset", "mbo", OptionType::Double, 40.0, 0.0, 1000.0, true},
        {"motion_fps_weight", "mfw", OptionType::Double, 1.0, 0.0, 5.0, true},
        {"motion_max_val", "mmxv", OptionType::Double, 10000.0, 0.0, 10000.0, true},
        {"motion_five_frame_window", "mffw", OptionType::Bool, 0, 0, 1, true},
        {"motion_moving_average", "mma", OptionType::Bool, 0, 0, 1, true},
        {"debug", nullptr, OptionType::Bool, 0, 0, 1, false},
    };
    ASSERT_EQ(e.n_options, static_cast<int>(sizeof want / sizeof want[0]));
    for (int i = 0; i < e.n_options; i++) {
        const OptionSpec &o = e.options[i];
        EXPECT_STREQ(o.name, want[i].name);
        if (want[i].alias)
            EXPECT_STREQ(o.alias, want[i].alias);
        else
            EXPECT_EQ(o.alias, nullptr);
        EXPECT_EQ(o.type, want[i].type) << o.name;
        EXPECT_EQ(o.def, want[i].def) << o.name;
        EXPECT_EQ(o.min, want[i].min) << o.name;
        EXPECT_EQ(o.max, want[i].max) << o.name;
        EXPECT_EQ(o.in_name, want[i].in_name) << o.name;
        EXPECT_NE(o.help, nullptr);
    }

    ASSERT_EQ(e.n_provides, 4);
    EXPECT_STREQ(e.provides[0].libvmaf_name, "VMAF_integer_feature_motion_sad_score");
    EXPECT_STREQ(e.provides[0].output_name, "VMAF_integer_feature_motion_sad_score");
    EXPECT_STREQ(e.provides[1].libvmaf_name, "VMAF_integer_feature_motion_score");
    EXPECT_STREQ(e.provides[1].output_name, "integer_motion");
    EXPECT_STREQ(e.provides[2].libvmaf_name, "VMAF_integer_feature_motion2_score");
    EXPECT_STREQ(e.provides[2].output_name, "integer_motion2");
    EXPECT_STREQ(e.provides[3].libvmaf_name, "VMAF_integer_feature_motion3_score");
    EXPECT_STREQ(e.provides[3].output_name, "integer_motion3");
}

TEST(MotionEntry, OptionsStructAndAliases)
{
    OptionValues v = default_options(motion_extractor);
    std::string msg;
    ASSERT_EQ(set_option(motion_extractor, &v, "mfw", "2.5", &msg), 0) << msg;
    ASSERT_EQ(set_option(motion_extractor, &v, "mffw", "true", &msg), 0) << msg;
    ASSERT_EQ(set_option(motion_extractor, &v, "motion_max_val", "12", &msg), 0) << msg;
    const MotionOptions o = options_struct<MotionOptions>(motion_extractor, v);
    EXPECT_EQ(o.force_zero, 0);
    EXPECT_EQ(o.blend_factor, 1.0);
    EXPECT_EQ(o.blend_offset, 40.0);
    EXPECT_EQ(o.fps_weight, 2.5);
    EXPECT_EQ(o.max_val, 12.0);
    EXPECT_EQ(o.five_frame_window, 1);
    EXPECT_EQ(o.moving_average, 0);
    EXPECT_EQ(o.debug, 0);
    // libvmaf orders suffixes by option name: mffw (five...) before mfw (fps...) before mmxv.
    EXPECT_EQ(option_suffix(motion_extractor, v), "_mffw_mfw_2.5_mmxv_12");
    EXPECT_EQ(set_option(motion_extractor, &v, "motion_fps_weight", "5.5", &msg), -ERANGE);
    EXPECT_EQ(set_option(motion_extractor, &v, "motion_blend_factor", "-0.1", &msg), -ERANGE);
    EXPECT_EQ(set_option(motion_extractor, &v, "motion_window", "1", &msg), -EINVAL);
}

TEST(MotionEntry, LookbehindLookaheadPerOption)
{
    const Geometry g{24, 16, 8, VMAFHIP_CHROMA_420};
    struct Case {
        const char *opts;
        int behind, ahead;
        unsigned min_index;
    };
    const Case cases[] = {
        {"", 1, 1, 1},
        {"debug=true", 1, 1, 1},
        {"motion_moving_average=true:motion_blend_factor=0.5", 1, 1, 1},
        {"motion_five_frame_window=true", 2, 2, 2},
        {"motion_five_frame_window=true:motion_moving_average=true", 2, 2, 2},
        {"motion_force_zero=true", 0, 0, 1},
        {"motion_force_zero=true:motion_five_frame_window=true", 0, 0, 2},
    };
    for (const Case &c : cases) {
        int ret = 0;
        std::string msg;
        const auto e = create(g, parse_options(c.opts), &ret, &msg);
        ASSERT_TRUE(e) << msg;
        EXPECT_EQ(e->lookbehind(), c.behind) << c.opts;
        EXPECT_EQ(e->lookahead(), c.ahead) << c.opts;
        EXPECT_LE(e->lookahead(), motion_extractor.max_lookahead);
        EXPECT_TRUE(e->every_frame());
        EXPECT_EQ(e->planes(), 1);
        EXPECT_EQ(e->accum_bytes(), sizeof(MotionAccum));
        EXPECT_EQ(dynamic_cast<const Motion &>(*e).min_index(), c.min_index) << c.opts;
    }
}

TEST_P(MotionVariant, NamesAreLibvmafs)
{
    // The golden's feature names, in libvmaf's order: names() then late_names().
    const Variant &v = GetParam();
    const testjson::Value root = testjson::parse_file(testfx::path(golden_of(v)));
    std::vector<std::string> golden;
    for (const auto &kv : root["frames"].arr.at(0)["metrics"].obj)
        golden.push_back(kv.first);
    int ret = 0;
    std::string msg;
    const Geometry g{v.w, v.h, v.bpc, v.chroma};
    const auto e = create(g, parse_options(v.options), &ret, &msg);
    ASSERT_TRUE(e) << msg;
    std::vector<std::string> ours;
    e->names(&ours);
    e->late_names(&ours);
    EXPECT_EQ(ours, golden);
}

// ---------------------------------------------------------------------------

TEST_P(MotionVariant, GoldenBitExact)
{
    const Variant &v = GetParam();
    const testfx::Clip clip(std::string(v.clip) + "_ref.yuv", v.w, v.h, v.bpc, v.chroma);
    const Luma in = luma_of(clip, v.w, v.h, v.bpc);
    const OptionValues opts = parse_options(v.options);
    for (Late late : {Late::AtEnd, Late::Early}) {
        RunArgs a;
        a.late = late;
        a.frames = v.frames;
        a.chroma = v.chroma;
        const MotionRun r = run_motion(in, opts, a);
        ASSERT_EQ(r.ret, 0) << r.msg;
        const int n = compare_golden(r, golden_of(v), golden_of(v) +
                                                          (late == Late::Early ? " (early)" : ""));
        EXPECT_EQ(n, 4 * static_cast<int>(r.rows.size()));
    }
}

INSTANTIATE_TEST_SUITE_P(Goldens, MotionVariant, testing::ValuesIn(kVariants),
                         [](const testing::TestParamInfo<Variant> &i) {
                             std::string s = std::string(i.param.clip) + "_" + i.param.variant;
                             for (char &c : s)
                                 if (!std::isalnum(static_cast<unsigned char>(c)))
                                     c = '_';
                             return s;
                         });

TEST(MotionGolden, EveryFixtureBitExact)
{
    // Every shipped pair: the reference golden (plain-C path), the debug
    // golden (integer_motion) and, for the minimum-size pairs, the motion
    // golden made from their luma (make_motion_goldens.sh).
    int pairs = 0;
    for (const testfx::Fixture &f : testfx::fixtures()) {
        const Geometry g{f.w, f.h, f.bpc, f.chroma};
        if (f.w < 3 || f.h < 3) {
            int ret = 0;
            std::string msg;
            EXPECT_FALSE(create(g, default_options(motion_extractor), &ret, &msg)) << f.name;
            EXPECT_EQ(ret, -ERANGE) << f.name;
            continue;
        }
        std::vector<std::string> goldens;
        for (const std::string &file : {f.golden, f.debug,
                                        "golden/" + f.name + ".motion.fullprec.json"}) {
            if (file.empty() || !has_file(file))
                continue;
            const auto gf = testfx::golden_frames(file);
            if (gf.count("VMAF_integer_feature_motion_sad_score"))
                goldens.push_back(file);
        }
        ASSERT_FALSE(goldens.empty()) << f.name << ": no golden with motion";
        const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma);
        const Luma in = luma_of(ref, f.w, f.h, f.bpc);
        for (const std::string &file : goldens) {
            const bool debug = testfx::golden_frames(file).count("integer_motion") > 0;
            RunArgs a;
            a.chroma = f.chroma;
            const MotionRun r = run_motion(in, parse_options(debug ? "debug=true" : ""), a);
            ASSERT_EQ(r.ret, 0) << r.msg;
            EXPECT_EQ(compare_golden(r, file, file),
                      static_cast<int>((debug ? 4 : 3) * r.rows.size()));
        }
        pairs++;
    }
    EXPECT_EQ(pairs, 15); // all but the 1x1 and 2x2 pairs
}

// ---------------------------------------------------------------------------

TEST(MotionLate, EarlyEqualsAtEndAndMemoryIsBounded)
{
    // A long stream of a small moving texture: finish_late() as early as the
    // look-ahead allows gives the values of the end-of-stream pass, and the
    // instance keeps only lookahead() + 2 scores.
    const int w = 5, h = 4, n = 3000;
    std::vector<std::vector<uint8_t>> pics(n, std::vector<uint8_t>(static_cast<size_t>(w) * h));
    std::mt19937 rng(99);
    for (int i = 0; i < n; i++)
        for (auto &s : pics[static_cast<size_t>(i)])
            s = static_cast<uint8_t>(rng() % (1 + (i % 7) * 40));
    Luma in;
    in.w = w;
    in.h = h;
    for (const auto &p : pics)
        in.pics.push_back(PlaneView{p.data(), w, w, h});
    for (const char *opts :
         {"", "motion_five_frame_window=true",
          "motion_five_frame_window=true:motion_moving_average=true:motion_blend_factor=0.5:"
          "motion_blend_offset=20",
          "motion_moving_average=true:motion_max_val=30", "motion_force_zero=true"}) {
        RunArgs a;
        const MotionRun end = run_motion(in, parse_options(opts), a);
        a.late = Late::Early;
        const MotionRun early = run_motion(in, parse_options(opts), a);
        ASSERT_EQ(end.ret, 0);
        ASSERT_EQ(early.names, end.names);
        for (size_t i = 0; i < end.rows.size(); i++)
            for (size_t k = 0; k < end.names.size(); k++)
                ASSERT_EQ(bits(early.rows[i][k]), bits(end.rows[i][k]))
                    << opts << " frame " << i << " " << end.names[k];
        int ret = 0;
        std::string msg;
        const int ahead = create(Geometry{w, h, 8, VMAFHIP_CHROMA_420}, parse_options(opts), &ret,
                                 &msg)->lookahead();
        EXPECT_LE(early.max_held, static_cast<size_t>(ahead + 2)) << opts;
        // At the end every frame is finished before the first late call.
        EXPECT_EQ(end.max_held, static_cast<size_t>(n)) << opts;
    }
}

TEST(MotionLate, LastFramesWhenTheLengthIsKnown)
{
    // When the stream ends, finish_late() gets the length and the last frame
    // takes its own score as motion2 (§4.1), in Early and AtEnd order alike:
    // covered bit-exactly by the n1..n3 goldens; here on the long clip too.
    const Variant &v = kVariants[0];
    const testfx::Clip clip(std::string(v.clip) + "_ref.yuv", v.w, v.h, v.bpc, v.chroma);
    const Luma in = luma_of(clip, v.w, v.h, v.bpc);
    for (int frames = 1; frames <= 10; frames++) {
        RunArgs a;
        a.frames = frames;
        a.late = Late::Early;
        const MotionRun r = run_motion(in, parse_options("motion_five_frame_window=true"), a);
        ASSERT_EQ(r.ret, 0);
        const auto last = r.rows.back();
        if (frames > 2)
            EXPECT_EQ(bits(last[1]), bits(last[0])) << frames; // motion2 = s
        else
            EXPECT_EQ(last[1], 0.0) << frames;
        // §4.2: motion3 of frames 0 and 1 is blend(s[2]) when frame 2 exists, else 0.
        EXPECT_EQ(bits(r.rows[0][2]), bits(frames > 2 ? r.rows[2][0] : 0.0)) << frames;
    }
}

TEST(MotionLate, StaleAccumulatorsBeforeTheFirstScoreAreIgnored)
{
    // On the GPU the first frames are compared with stale samples; finish()
    // must not use those sums.
    for (const char *variant : {"debug", "mffw"}) {
        const Variant *v = nullptr;
        for (const Variant &c : kVariants)
            if (std::string(c.clip) == K8 && c.variant == std::string(variant))
                v = &c;
        ASSERT_NE(v, nullptr);
        const testfx::Clip clip(std::string(v->clip) + "_ref.yuv", v->w, v->h, v->bpc, v->chroma);
        RunArgs a;
        a.stale = true;
        a.late = Late::Early;
        const Luma in = luma_of(clip, v->w, v->h, v->bpc);
        const MotionRun r = run_motion(in, parse_options(v->options), a);
        ASSERT_EQ(r.ret, 0);
        EXPECT_EQ(compare_golden(r, golden_of(*v), golden_of(*v)), 40);
    }
}

// ---------------------------------------------------------------------------

TEST(MotionReject, SizesBelowTheMirror)
{
    // §6: below 3 samples libvmaf reads outside the picture (rows) or its
    // row buffer (columns); we refuse with a message naming the minimum.
    const int sizes[][2] = {{1, 1}, {2, 2}, {2, 9}, {9, 2}, {1, 9}, {9, 1}, {2, 3}, {3, 2}};
    for (const auto &s : sizes) {
        int ret = 0;
        std::string msg;
        EXPECT_FALSE(create(Geometry{s[0], s[1], 8, VMAFHIP_CHROMA_420},
                            default_options(motion_extractor), &ret, &msg));
        EXPECT_EQ(ret, -ERANGE);
        const std::string size = std::to_string(s[0]) + "x" + std::to_string(s[1]);
        EXPECT_NE(msg.find(size), std::string::npos) << msg;
        EXPECT_NE(msg.find("at least 3"), std::string::npos) << msg;
    }
    int ret = 0;
    std::string msg;
    EXPECT_TRUE(create(Geometry{3, 3, 8, VMAFHIP_CHROMA_420}, default_options(motion_extractor),
                       &ret, &msg));
    EXPECT_EQ(ret, 0);
}

TEST(MotionReject, BitDepthsAndOptionValues)
{
    int ret = 0;
    std::string msg;
    for (int bpc : {8, 10, 12, 16})
        EXPECT_TRUE(create(Geometry{8, 8, bpc, VMAFHIP_CHROMA_420},
                           default_options(motion_extractor), &ret, &msg))
            << bpc;
    EXPECT_FALSE(create(Geometry{8, 8, 9, VMAFHIP_CHROMA_420}, default_options(motion_extractor),
                        &ret, &msg));
    EXPECT_EQ(ret, -ENOTSUP);
    EXPECT_NE(msg.find("bit depth 9"), std::string::npos) << msg;

    OptionValues v = default_options(motion_extractor);
    v[1] = 1.5; // motion_blend_factor
    EXPECT_FALSE(create(Geometry{8, 8, 8, VMAFHIP_CHROMA_420}, v, &ret, &msg));
    EXPECT_EQ(ret, -ERANGE);
    EXPECT_NE(msg.find("motion_blend_factor"), std::string::npos) << msg;
    v.pop_back();
    EXPECT_FALSE(create(Geometry{8, 8, 8, VMAFHIP_CHROMA_420}, v, &ret, &msg));
    EXPECT_EQ(ret, -EINVAL);
}

// ---------------------------------------------------------------------------

TEST(MotionThreads, SameSadWithAnyThreadCount)
{
    // Fixture frames and a large random 16-bit pair: the SAD is the same
    // with 1, 3 and 8 threads (and equals §2 written plainly).
    const testfx::Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38");
    const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma);
    const Luma in = luma_of(ref, f.w, f.h, f.bpc);
    const OptionValues mffw = parse_options("motion_five_frame_window=true");
    RunArgs a;
    a.threads = 1;
    const MotionRun one = run_motion(in, mffw, a);
    for (int t : {3, 8}) {
        a.threads = t;
        const MotionRun many = run_motion(in, mffw, a);
        EXPECT_EQ(many.sad, one.sad) << t << " threads";
    }

    std::mt19937 rng(5);
    const PicPair p = make_pair(1283, 723, 16, rng, 0);
    const uint64_t want = naive_sad(p.prev, p.cur, p.w, p.h, p.bpc);
    for (int t : {1, 3, 8})
        EXPECT_EQ(cpu_sad(p, t), want) << t << " threads";
}
