// Reference pictures shared between the contexts of a process
// (VmafHipSettings.private_reference 0, the default): several contexts given
// the same reference memory kept, as FFmpeg's split filter hands one decoded
// frame to several scoring filters, score exactly as each context alone with
// a private copy of it; also when one buffer is rewritten every frame, when
// the contexts read it in different sizes or planes, when the first context
// closes mid-stream, and next to a context that copies at submit. On the GPU
// the process-wide count of device-to-device copies shows that sharing
// happened where it should and not where it must not. Built for the CPU
// (suite unit: the field is ignored there, the scores must still hold) and
// the GPU (suite gpu).
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/backend.h"
#include "tests/common/context.h"
#include "tests/common/fixtures.h"
#include "tests/common/semi_planar.h"
#include "vmafhip.h"

namespace {

using testfx::Ctx;
using testfx::open_ctx;

const char *const kModel = "version=vmaf_v0.6.1";
constexpr int kFrames = 8;

/// Reference pictures copied from another context's device copy so far
/// (none on the CPU, which has no device copies to share).
long shared_copies()
{
    return vmafhip::shared_reference_copies();
}

constexpr bool kGpu = TEST_BACKEND == VMAFHIP_BACKEND_HIP;

struct Format {
    const char *name;
    int w, h, bpc;
    VmafHipChroma chroma;
    VmafHipLayout layout;
};

/// A picture in memory of the test's own, its planes one after the other in
/// one block: a copy of it is a private copy (same bytes, other addresses).
struct Image {
    std::vector<uint8_t> bytes;
    std::vector<std::pair<size_t, ptrdiff_t>> planes; ///< offset, stride

    void add(const uint8_t *data, size_t size, ptrdiff_t stride)
    {
        planes.emplace_back(bytes.size(), stride);
        bytes.insert(bytes.end(), data, data + size);
    }

    VmafHipPicture pic() const
    {
        VmafHipPicture p{};
        for (size_t q = 0; q < planes.size(); q++) {
            p.data[q] = bytes.data() + planes[q].first;
            p.stride[q] = planes[q].second;
        }
        return p;
    }
};

uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/// Sample (x, y) of plane p of frame `frame`: waves and grain over the whole
/// range of the depth (clipped at 0 and the maximum), moving a column a
/// frame so that motion is not zero. Variant 0 is the reference; variant k
/// adds noise of its own, stronger with k, so that each context's scores
/// differ from the others'.
int sample(int p, int x, int y, int frame, int variant, int top)
{
    const int u = x + frame;
    const double wave = std::sin(0.06 * u + 0.9 * p) * std::cos(0.11 * y - 0.05 * u);
    const double grain = static_cast<double>(mix((uint64_t(u) << 40) ^ (uint64_t(y) << 20) ^ p) >> 11) /
                         9007199254740992.0;
    int v = static_cast<int>(std::lround((0.5 + 0.6 * wave + 0.03 * (grain - 0.5)) * top));
    if (variant) {
        const int a = std::max(1, top / 32) * variant;
        const uint64_t h = mix((uint64_t(frame * 16 + variant) << 48) ^ (uint64_t(y) << 24) ^ (uint64_t(x) << 2) ^ p);
        v += static_cast<int>(h % static_cast<uint64_t>(2 * a + 1)) - a;
    }
    return std::min(std::max(v, 0), top);
}

/// Frame `frame` of variant `variant` in planar form, rows padded by 3
/// samples (strides larger than a row).
Image planar(int w, int h, int bpc, VmafHipChroma chroma, int frame, int variant)
{
    const int bps = bpc > 8 ? 2 : 1, top = (1 << bpc) - 1;
    const int sx = chroma == VMAFHIP_CHROMA_420 || chroma == VMAFHIP_CHROMA_422;
    const int sy = chroma == VMAFHIP_CHROMA_420;
    Image out;
    for (int p = 0; p < (chroma == VMAFHIP_CHROMA_400 ? 1 : 3); p++) {
        const int pw = p ? (w + sx) >> sx : w, ph = p ? (h + sy) >> sy : h;
        const size_t stride = static_cast<size_t>(pw + 3) * bps;
        std::vector<uint8_t> plane(stride * ph, 0);
        for (int y = 0; y < ph; y++)
            for (int x = 0; x < pw; x++) {
                const int v = sample(p, x, y, frame, variant, top);
                const uint16_t s = static_cast<uint16_t>(v);
                if (bps == 1)
                    plane[y * stride + x] = static_cast<uint8_t>(s);
                else
                    std::memcpy(&plane[y * stride + 2 * x], &s, 2);
            }
        out.add(plane.data(), plane.size(), static_cast<ptrdiff_t>(stride));
    }
    return out;
}

/// Frame `frame` of variant `variant` in the format's layout (semi-planar
/// ones made from the planar frame as tests/common/semi_planar.h makes them,
/// noise in the low bits of p010 included).
Image picture(const Format &f, int frame, int variant)
{
    Image p = planar(f.w, f.h, f.bpc, f.chroma, frame, variant);
    if (f.layout == VMAFHIP_LAYOUT_PLANAR)
        return p;
    testfx::Fixture fx{};
    fx.w = f.w;
    fx.h = f.h;
    fx.bpc = f.bpc;
    fx.chroma = f.chroma;
    std::mt19937 rng(static_cast<uint32_t>(frame * 16 + variant));
    const testfx::SemiPlanar sp(p.pic(), fx, f.layout == VMAFHIP_LAYOUT_NV_MSB ? 16 - f.bpc : 0, 6, rng);
    Image out;
    out.add(sp.luma.data(), sp.luma.size(), sp.pic.stride[0]);
    out.add(sp.pairs.data(), sp.pairs.size(), sp.pic.stride[1]);
    return out;
}

std::vector<Image> stream(const Format &f, int variant)
{
    std::vector<Image> out;
    for (int i = 0; i < kFrames; i++)
        out.push_back(picture(f, i, variant));
    return out;
}

VmafHipSettings settings(const Format &f, const char *models, const char *features)
{
    VmafHipSettings s = testfx::settings(f.w, f.h, f.bpc, f.chroma, features);
    s.models = models;
    s.layout = f.layout;
    testfx::set_backend(&s, TEST_BACKEND);
    return s;
}

struct Scores {
    std::vector<std::string> names;
    std::vector<std::vector<double>> frames; ///< [frame][feature]
};

/// Flush, then every frame's values.
Scores flushed_scores(VmafHipContext *c)
{
    Scores out;
    EXPECT_EQ(vmafhip_flush(c), 0) << vmafhip_last_error(c);
    const char *const *names;
    const int n = vmafhip_feature_names(c, &names);
    out.names.assign(names, names + n);
    for (unsigned i = 0; i < vmafhip_frame_count(c); i++) {
        const double *v = nullptr;
        EXPECT_EQ(vmafhip_frame_scores(c, i, 1, &v), 0) << vmafhip_last_error(c);
        out.frames.emplace_back(v, v + (v ? n : 0));
    }
    return out;
}

/// Bit for bit (NaN included), each difference named.
void expect_same(const Scores &got, const Scores &want, const std::string &what)
{
    ASSERT_EQ(got.names, want.names) << what;
    ASSERT_EQ(got.frames.size(), want.frames.size()) << what;
    for (size_t i = 0; i < got.frames.size(); i++) {
        ASSERT_EQ(got.frames[i].size(), want.frames[i].size()) << what << ", frame " << i;
        for (size_t k = 0; k < got.frames[i].size(); k++)
            EXPECT_EQ(std::memcmp(&got.frames[i][k], &want.frames[i][k], sizeof(double)), 0)
                << what << ", frame " << i << ", " << got.names[k] << ": " << got.frames[i][k]
                << " against " << want.frames[i][k];
    }
}

/// One context of a run: its settings and its own distorted pictures.
struct Scorer {
    std::string what;
    VmafHipSettings s;
    std::vector<Image> dis;
};

/// The scorer's stream scored by a context alone: private_reference on,
/// each reference picture a private copy, copied at submit.
Scores alone(const Scorer &k, const std::vector<Image> &refs)
{
    VmafHipSettings s = k.s;
    s.private_reference = 1;
    const Ctx ctx = open_ctx(s);
    if (!ctx)
        return {};
    for (size_t i = 0; i < refs.size(); i++) {
        const Image own = refs[i];
        const VmafHipPicture d = k.dis[i].pic(), r = own.pic();
        EXPECT_EQ(vmafhip_submit(ctx.get(), &d, &r), static_cast<int>(i)) << vmafhip_last_error(ctx.get());
    }
    Scores out = flushed_scores(ctx.get());
    EXPECT_EQ(out.frames.size(), refs.size()) << k.what;
    return out;
}

/// Reference picture i submitted kept to each scorer's context in turn
/// (every other frame in the reverse order with `alternate`), every picture
/// valid and unchanged until the contexts are flushed; each context's scores
/// against its scoring alone. @return the device-to-device copies made.
long expect_shared_as_alone(const std::vector<Scorer> &scorers, const std::vector<Image> &refs,
                            bool alternate)
{
    std::vector<Scores> want;
    for (const Scorer &k : scorers)
        want.push_back(alone(k, refs));
    const long before = shared_copies();
    std::vector<Ctx> ctx;
    for (const Scorer &k : scorers) {
        ctx.push_back(open_ctx(k.s));
        if (!ctx.back())
            return 0;
    }
    const size_t n = scorers.size();
    for (size_t i = 0; i < refs.size(); i++)
        for (size_t j = 0; j < n; j++) {
            const size_t c = alternate && i % 2 ? n - 1 - j : j;
            const VmafHipPicture d = scorers[c].dis[i].pic(), r = refs[i].pic();
            EXPECT_EQ(vmafhip_submit_kept(ctx[c].get(), &d, &r), static_cast<int>(i))
                << scorers[c].what << ": " << vmafhip_last_error(ctx[c].get());
        }
    for (size_t c = 0; c < n; c++)
        expect_same(flushed_scores(ctx[c].get()), want[c], scorers[c].what);
    return shared_copies() - before;
}

/// n contexts of one format with the model and psnr (chroma read too), each
/// with distortions of its own.
std::vector<Scorer> same_settings(const Format &f, int n)
{
    std::vector<Scorer> out;
    for (int c = 0; c < n; c++)
        out.push_back({std::string(f.name) + ", context " + std::to_string(c), settings(f, kModel, "psnr"),
                       stream(f, c + 1)});
    return out;
}

const Format kYuv420p{"yuv420p", 67, 37, 8, VMAFHIP_CHROMA_420, VMAFHIP_LAYOUT_PLANAR};

TEST(SharedReference, ScoresEqualScoringAlone)
{
    const Format formats[] = {kYuv420p,
                              {"yuv420p10le", 67, 37, 10, VMAFHIP_CHROMA_420, VMAFHIP_LAYOUT_PLANAR},
                              {"nv12", 67, 37, 8, VMAFHIP_CHROMA_420, VMAFHIP_LAYOUT_NV},
                              {"p010", 67, 37, 10, VMAFHIP_CHROMA_420, VMAFHIP_LAYOUT_NV_MSB},
                              {"gray", 67, 37, 8, VMAFHIP_CHROMA_400, VMAFHIP_LAYOUT_PLANAR}};
    for (const Format &f : formats) {
        SCOPED_TRACE(f.name);
        const std::vector<Scorer> scorers = same_settings(f, 3);
        const std::vector<Image> refs = stream(f, 0);
        // Pictures that stand still would hide a wrong previous frame in
        // motion: the stream must move.
        const Scores a = alone(scorers[0], refs);
        size_t k = 0;
        while (k < a.names.size() && a.names[k] != "integer_motion2")
            k++;
        ASSERT_LT(k, a.names.size());
        ASSERT_GE(a.frames.size(), 2u);
        EXPECT_GT(a.frames[1][k], 0.0);
        const long copies = expect_shared_as_alone(scorers, refs, false);
        if (kGpu) // which context borrows is timing's; that some does is not
            EXPECT_GE(copies, 1);
    }
}

/// Wait until frame i's scores can be read, after which the context reads
/// its kept pictures no more; a minute without them fails the test.
bool wait_scores(VmafHipContext *c, unsigned i)
{
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    const double *v;
    int ret;
    while ((ret = vmafhip_frame_scores(c, i, 0, &v)) == -EAGAIN) {
        if (std::chrono::steady_clock::now() > end) {
            ADD_FAILURE() << "frame " << i << " not scored within a minute";
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    EXPECT_EQ(ret, 0) << vmafhip_last_error(c);
    return ret == 0;
}

// One reference buffer rewritten with each frame, once both contexts are done
// with the last: the same address holds another picture every frame, so a
// device copy found by its address alone would be a stale one. No model and
// no motion: their frames are complete only once the next frame is in, which
// the buffer cannot hold before its frame is complete.
TEST(SharedReference, OneBufferRewrittenEveryFrame)
{
    const Format &f = kYuv420p;
    std::vector<Scorer> scorers;
    for (int c = 0; c < 2; c++)
        scorers.push_back({"context " + std::to_string(c), settings(f, "", "psnr|vif|adm"), stream(f, c + 1)});
    const std::vector<Image> refs = stream(f, 0);
    std::vector<Scores> want;
    for (const Scorer &k : scorers)
        want.push_back(alone(k, refs));
    Image buffer = refs[0]; // outlives the contexts, which may read it until closed
    const Ctx ctx[2] = {open_ctx(scorers[0].s), open_ctx(scorers[1].s)};
    ASSERT_TRUE(ctx[0] && ctx[1]);
    for (int i = 0; i < kFrames; i++) {
        ASSERT_EQ(buffer.bytes.size(), refs[i].bytes.size());
        std::copy(refs[i].bytes.begin(), refs[i].bytes.end(), buffer.bytes.begin()); // in place
        const VmafHipPicture r = buffer.pic();
        for (int c = 0; c < 2; c++) {
            const VmafHipPicture d = scorers[c].dis[i].pic();
            ASSERT_EQ(vmafhip_submit_kept(ctx[c].get(), &d, &r), i) << vmafhip_last_error(ctx[c].get());
        }
        for (int c = 0; c < 2; c++)
            ASSERT_TRUE(wait_scores(ctx[c].get(), static_cast<unsigned>(i)));
    }
    for (int c = 0; c < 2; c++)
        expect_same(flushed_scores(ctx[c].get()), want[c], scorers[c].what);
}

TEST(SharedReference, PrivateReferenceCopiesNothing)
{
    std::vector<Scorer> scorers = same_settings(kYuv420p, 3);
    for (Scorer &k : scorers)
        k.s.private_reference = 1;
    EXPECT_EQ(expect_shared_as_alone(scorers, stream(kYuv420p, 0), false), 0);
}

// The same memory read as pictures of other sizes (same strides) or with
// other planes is not the same device picture: none is shared, whichever
// context comes first (the order flips every frame).
TEST(SharedReference, DifferentLayoutsDoNotShare)
{
    const Format &f = kYuv420p;
    const Format narrower{"65 columns", 65, f.h, f.bpc, f.chroma, f.layout};
    const Format shorter{"33 rows", f.w, 33, f.bpc, f.chroma, f.layout};
    const std::vector<Scorer> scorers = {
        {"full size", settings(f, kModel, "psnr"), stream(f, 1)},
        {narrower.name, settings(narrower, kModel, "psnr"), stream(narrower, 2)},
        {shorter.name, settings(shorter, kModel, "psnr"), stream(shorter, 3)},
        {"luma only", settings(f, kModel, nullptr), stream(f, 4)},
    };
    {
        const Ctx luma = open_ctx(scorers[3].s), all = open_ctx(scorers[0].s);
        ASSERT_TRUE(luma && all);
        ASSERT_EQ(vmafhip_planes_read(luma.get()), 1); // the metric planes differ
        ASSERT_EQ(vmafhip_planes_read(all.get()), 3);
    }
    EXPECT_EQ(expect_shared_as_alone(scorers, stream(f, 0), true), 0);
}

// The first context, the likely owner of the device copies, closes halfway
// (between its submit of a frame and the other's) without a flush, while
// the other may still be copying from it; the other scores on as alone. On
// the GPU the first half must have shared something, or the test would
// prove nothing.
TEST(SharedReference, OwnerClosedMidStream)
{
    const std::vector<Scorer> scorers = same_settings(kYuv420p, 2);
    const std::vector<Image> refs = stream(kYuv420p, 0);
    const Scores want = alone(scorers[1], refs);
    Ctx first = open_ctx(scorers[0].s);
    const Ctx second = open_ctx(scorers[1].s);
    ASSERT_TRUE(first && second);
    const long before = shared_copies();
    for (int i = 0; i < kFrames; i++) {
        const VmafHipPicture r = refs[i].pic();
        if (first) {
            const VmafHipPicture d = scorers[0].dis[i].pic();
            ASSERT_EQ(vmafhip_submit_kept(first.get(), &d, &r), i) << vmafhip_last_error(first.get());
        }
        if (i == kFrames / 2)
            first.reset(); // vmafhip_close
        const VmafHipPicture d = scorers[1].dis[i].pic();
        ASSERT_EQ(vmafhip_submit_kept(second.get(), &d, &r), i) << vmafhip_last_error(second.get());
    }
    expect_same(flushed_scores(second.get()), want, scorers[1].what);
    if (kGpu)
        EXPECT_GE(shared_copies() - before, 1);
}

// One context copies each reference picture at submit, the other keeps the
// same memory (which of the two comes first flips every frame). Only kept
// pictures are listed or looked up (a copied one may be overwritten once
// submit returns), so on the GPU nothing is shared.
TEST(SharedReference, KeptAndCopiedSubmitsMixed)
{
    const std::vector<Scorer> scorers = same_settings(kYuv420p, 2);
    const std::vector<Image> refs = stream(kYuv420p, 0);
    const Scores want[2] = {alone(scorers[0], refs), alone(scorers[1], refs)};
    const Ctx ctx[2] = {open_ctx(scorers[0].s), open_ctx(scorers[1].s)};
    ASSERT_TRUE(ctx[0] && ctx[1]);
    const long before = shared_copies();
    for (int i = 0; i < kFrames; i++)
        for (int j = 0; j < 2; j++) {
            const int c = i % 2 ? 1 - j : j; // context 0 copies, context 1 keeps
            const VmafHipPicture d = scorers[c].dis[i].pic(), r = refs[i].pic();
            ASSERT_EQ(c ? vmafhip_submit_kept(ctx[c].get(), &d, &r) : vmafhip_submit(ctx[c].get(), &d, &r), i)
                << vmafhip_last_error(ctx[c].get());
        }
    for (int c = 0; c < 2; c++)
        expect_same(flushed_scores(ctx[c].get()), want[c], c ? "kept" : "copied");
    EXPECT_EQ(shared_copies() - before, 0);
}

} // namespace
