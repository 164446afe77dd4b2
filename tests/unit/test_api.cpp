// The public API's contract: argument validation (each bad input has its own
// error code and message, never a crash), picture handling (strides, bottom-up
// planes, reuse of the caller's memory after submit) and the sample range
// rule. Built for the CPU (suite unit) and the GPU (suite gpu, TEST_BACKEND).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "extractors/extractor.h"
#include "tests/common/context.h"
#include "tests/common/fixtures.h"
#include "vmafhip.h"

namespace {

using testfx::Ctx;
using testfx::open_ctx;

using testfx::collect_log;
using Messages = testfx::LogLines;

VmafHipSettings base(int w, int h, const char *features = "psnr")
{
    VmafHipSettings s = testfx::settings(w, h, 8, VMAFHIP_CHROMA_420, features);
    testfx::set_backend(&s, TEST_BACKEND);
    return s;
}

/// Settings of a fixture with every feature its golden holds, no model.
VmafHipSettings all_settings(const testfx::Fixture &f)
{
    VmafHipSettings s = testfx::settings_for(f);
    s.models = nullptr;
    return s;
}

// What a C caller can do: any int in an enum field.
template <typename E> void store_raw(E *field, int value)
{
    static_assert(sizeof(E) == sizeof(int), "enum fields are int-sized");
    std::memcpy(field, &value, sizeof value);
}

// Open must fail with `err` and a message containing `text`.
void expect_open_error(const VmafHipSettings &s, int err, const char *text)
{
    VmafHipContext *c = reinterpret_cast<VmafHipContext *>(1);
    EXPECT_EQ(vmafhip_open(&c, &s), err) << vmafhip_last_error(nullptr);
    EXPECT_EQ(c, nullptr);
    EXPECT_NE(std::string(vmafhip_last_error(nullptr)).find(text), std::string::npos)
        << "message: " << vmafhip_last_error(nullptr);
}

// An 8- or 16-bit 4:2:0 frame with its own buffers.
struct Frame {
    int w, h, bps;
    std::vector<uint8_t> y, u, v;
    Frame(int w_, int h_, int bpc, uint32_t seed) : w(w_), h(h_), bps(bpc > 8 ? 2 : 1)
    {
        std::mt19937 rng(seed);
        const int cw = (w + 1) / 2, ch = (h + 1) / 2;
        y.resize(static_cast<size_t>(w) * h * bps);
        u.resize(static_cast<size_t>(cw) * ch * bps);
        v.resize(u.size());
        const unsigned max = (1u << bpc) - 1;
        for (auto *p : {&y, &u, &v})
            for (size_t i = 0; i < p->size() / bps; i++) {
                const unsigned val = rng() % (max + 1);
                if (bps == 2)
                    reinterpret_cast<uint16_t *>(p->data())[i] = static_cast<uint16_t>(val);
                else
                    (*p)[i] = static_cast<uint8_t>(val);
            }
    }
    VmafHipPicture pic() const
    {
        VmafHipPicture p = {{y.data(), u.data(), v.data()},
                            {w * bps, (w + 1) / 2 * bps, (w + 1) / 2 * bps}};
        return p;
    }
};

TEST(Api, VersionAndStrerror)
{
    EXPECT_STREQ(vmafhip_version(), "2.6.0");
    EXPECT_STREQ(vmafhip_strerror(-EINVAL), "invalid argument");
    EXPECT_STREQ(vmafhip_strerror(-ENODEV), "no usable GPU");
    EXPECT_STREQ(vmafhip_strerror(-12345), "unknown error");
    // Errors of a log file, which the filter prints after its message.
    EXPECT_STREQ(vmafhip_strerror(-ENAMETOOLONG), "file name too long");
    EXPECT_STREQ(vmafhip_strerror(-EISDIR), "is a directory");
    EXPECT_STREQ(vmafhip_strerror(-EFBIG), "file too large");
    EXPECT_STREQ(vmafhip_strerror(-ETXTBSY), "Text file busy");
    EXPECT_STREQ(vmafhip_strerror(5), "not an error code");
}

TEST(Api, NullArguments)
{
    EXPECT_EQ(vmafhip_open(nullptr, nullptr), -EINVAL);
    VmafHipContext *c = nullptr;
    EXPECT_EQ(vmafhip_open(&c, nullptr), -EINVAL);
    vmafhip_close(nullptr);
    vmafhip_close(&c);
    EXPECT_EQ(vmafhip_submit(nullptr, nullptr, nullptr), -EINVAL);
    EXPECT_EQ(vmafhip_flush(nullptr), -EINVAL);
    EXPECT_EQ(vmafhip_frame_count(nullptr), 0u);
    EXPECT_EQ(vmafhip_planes_read(nullptr), -EINVAL);
    Ctx ctx = open_ctx(base(8, 8));
    EXPECT_EQ(vmafhip_submit(ctx.get(), nullptr, nullptr), -EINVAL);
    EXPECT_NE(std::string(vmafhip_last_error(ctx.get())).find("NULL"), std::string::npos);
}

TEST(Api, FrameSizes)
{
    for (int w : {0, -1, 32769, INT_MAX, INT_MIN})
        expect_open_error(base(w, 16), -EINVAL, "1 to 32768");
    for (int h : {0, -5, 40000})
        expect_open_error(base(16, h), -EINVAL, "1 to 32768");
    open_ctx(base(1, 1));
    open_ctx(base(2, 2));
}

TEST(Api, MetricMinimumSizes)
{
    expect_open_error(base(10, 64, "float_ssim"), -ERANGE, "11");
    expect_open_error(base(64, 10, "float_ssim"), -ERANGE, "11");
    open_ctx(base(11, 11, "float_ssim"));
    expect_open_error(base(32, 64, "adm"), -ERANGE, "33");
    expect_open_error(base(64, 17, "adm"), -ERANGE, "33");
    open_ctx(base(33, 33, "adm"));
}

TEST(Api, FormatsAndSettings)
{
    VmafHipSettings s = base(64, 64);
    for (int bpc : {0, 7, 9, 11, 14, 32}) {
        s.bitdepth = bpc;
        expect_open_error(s, -EINVAL, "8, 10, 12 and 16");
    }
    s = base(64, 64);
    store_raw(&s.chroma, 7);
    expect_open_error(s, -EINVAL, "420, 422, 444 and 400");
    s = base(64, 64, "");
    s.models = nullptr;
    expect_open_error(s, -EINVAL, "nothing to compute");
    s = base(64, 64, "psnr|no_such_feature");
    expect_open_error(s, -EINVAL, "unknown feature 'no_such_feature'");
    s = base(64, 64);
    s.n_subsample = 0;
    expect_open_error(s, -EINVAL, "n_subsample");
    s = base(64, 64);
    s.struct_size = 8;
    expect_open_error(s, -EINVAL, "vmafhip_default_settings");
    s = base(64, 64);
    s.queue_depth = 17;
    expect_open_error(s, -EINVAL, "queue_depth");
    s = base(64, 64);
    s.threads = -1;
    expect_open_error(s, -EINVAL, "threads");
    s = base(64, 64);
    s.gpu_wait = 2;
    expect_open_error(s, -EINVAL, "gpu_wait 2 is not valid: accepted are 0");
    s = base(64, 64);
    s.private_reference = -1;
    expect_open_error(s, -EINVAL, "private_reference -1 is not valid: accepted are 0");
    s = base(64, 64);
    store_raw(&s.layout, 3);
    expect_open_error(s, -EINVAL, "plane layout 3 is not valid");
    s = base(64, 64);
    s.layout = VMAFHIP_LAYOUT_NV;
    s.chroma = VMAFHIP_CHROMA_400;
    expect_open_error(s, -EINVAL, "4:0:0 (gray) has luma only");
    s = base(64, 64);
    s.layout = VMAFHIP_LAYOUT_NV_MSB;
    expect_open_error(s, -EINVAL, "are 10, 12 or 16 bits, not 8");
    s = base(64, 64);
    s.device = -1;
    expect_open_error(s, -EINVAL, "device");
    s = base(64, 64);
    store_raw(&s.backend, 9);
    expect_open_error(s, -EINVAL, "auto, cpu and hip");
    s = base(64, 64);
    store_raw(&s.log_level, -1);
    expect_open_error(s, -EINVAL, "log_level");
    s = base(64, 64, "adm");
    s.bitdepth = 16;
    expect_open_error(s, -ENOTSUP, "16");
    s = base(64, 64, "psnr=min_sse=-1");
    expect_open_error(s, -ERANGE, "min_sse");
}

TEST(Api, GpuBackendWithoutGpu)
{
    if (vmafhip_device_count() > 0)
        GTEST_SKIP() << "a GPU is present";
    VmafHipSettings s = base(64, 64);
    testfx::set_backend(&s, VMAFHIP_BACKEND_HIP);
    expect_open_error(s, -ENODEV, "GPU");
    // auto falls back to the CPU with one warning.
    Messages m;
    testfx::set_backend(&s, VMAFHIP_BACKEND_AUTO);
    s.log_callback = collect_log;
    s.log_cookie = &m;
    Ctx c = open_ctx(s);
    EXPECT_STREQ(vmafhip_backend_name(c.get()), "cpu");
    ASSERT_EQ(m.lines.size(), 1u);
    EXPECT_NE(m.lines[0].find("scoring on the CPU"), std::string::npos);
}

TEST(Api, BadDeviceIndex)
{
    const int n = vmafhip_device_count();
    if (n == 0)
        GTEST_SKIP() << "no GPU";
    VmafHipSettings s = base(64, 64);
    testfx::set_backend(&s, VMAFHIP_BACKEND_HIP);
    s.device = n;
    expect_open_error(s, -ENODEV, "valid device indices are 0 to");
}

// What the GPU backend's debug log says while s opens (and closes) on hip.
Messages gpu_debug_log(VmafHipSettings s)
{
    testfx::set_backend(&s, VMAFHIP_BACKEND_HIP);
    s.gpu_wait = 1;
    s.log_level = VMAFHIP_LOG_DEBUG;
    Messages m;
    s.log_callback = collect_log;
    s.log_cookie = &m;
    EXPECT_TRUE(open_ctx(s)); // closed here, before m is returned
    return m;
}

bool said(const Messages &m, const char *what)
{
    return std::any_of(m.lines.begin(), m.lines.end(),
                       [what](const std::string &l) { return l.find(what) != std::string::npos; });
}

// A frame's extractors read the same planes and write apart, so the GPU
// backend captures them as parallel branches of each slot's graph (one
// chain only where the runtime cannot capture branches, which would show
// here as plain "graphs").
TEST(Api, GpuGraphsOfParallelBranches)
{
    if (vmafhip_device_count() == 0)
        GTEST_SKIP() << "no GPU";
    const Messages m = gpu_debug_log(base(576, 324, "psnr|float_ssim|adm"));
    EXPECT_TRUE(said(m, "frames in flight"));
    EXPECT_TRUE(said(m, ", graphs of parallel branches")) << "the extractors were captured as one chain";
}

// 10-bit planar pictures from ordinary memory are staged packed
// (kernels/packed10.h); 8 and 12 bits are not. The scores of packed frames
// are those of gpu_golden and checkgpu, whose 10-bit pairs take this path.
TEST(Api, GpuStagesTenBitPicturesPacked)
{
    if (vmafhip_device_count() == 0)
        GTEST_SKIP() << "no GPU";
    for (const int bpc : {8, 10, 12}) {
        VmafHipSettings s = base(576, 324, "psnr|adm");
        s.bitdepth = bpc;
        const Messages m = gpu_debug_log(s);
        EXPECT_TRUE(said(m, "frames in flight")) << bpc << "-bit";
        EXPECT_EQ(said(m, "packed ten-bit pinned staging"), bpc == 10) << bpc << "-bit";
    }
}

// An extractor without GPU code (a metric whose GPU code is still to come)
// keeps the context on the CPU under auto, with gpu_wait too, and is refused
// under hip. The first extractor of the table without GPU code in this build,
// or nullptr.
const char *extractor_without_gpu_code()
{
    for (const vmafhip::ExtractorInfo *e : vmafhip::extractor_table())
        if (!e->gpu)
            return e->name;
    return nullptr;
}

TEST(Api, ExtractorWithoutGpuCode)
{
    if (vmafhip_device_count() == 0)
        GTEST_SKIP() << "no GPU";
    const char *name = extractor_without_gpu_code();
    if (!name)
        GTEST_SKIP() << "every extractor has GPU code in this build";
    const std::string features = std::string("psnr|") + name;
    const std::string why = std::string(name) + " has no GPU implementation in this build";
    VmafHipSettings s = testfx::settings(576, 324, 8, VMAFHIP_CHROMA_420, features.c_str());
    s.backend = VMAFHIP_BACKEND_AUTO;
    s.gpu_wait = 1;
    testfx::LogLines log;
    s.log_callback = testfx::collect_log;
    s.log_cookie = &log;
    {
        Ctx ctx = open_ctx(s);
        ASSERT_TRUE(ctx);
        EXPECT_STREQ(vmafhip_backend_name(ctx.get()), "cpu");
        EXPECT_NE(log.last().find(why), std::string::npos) << log.last();
    }
    s.gpu_wait = 0;
    {
        Ctx ctx = open_ctx(s);
        ASSERT_TRUE(ctx);
        EXPECT_STREQ(vmafhip_backend_name(ctx.get()), "cpu");
    }
    s.backend = VMAFHIP_BACKEND_HIP;
    s.log_callback = nullptr;
    expect_open_error(s, -ENOTSUP, (why + " (backend cpu runs it)").c_str());
}

// What the backends say of an instance they cannot run on the GPU
// (gpu_unavailable(): no GPU code in this build, or its GpuImpl's refusal):
// table rows of their own, so that it is checked in every build, also where
// every extractor has GPU code and no processor is refused.
class Idle final : public vmafhip::Extractor {
public:
    explicit Idle(const vmafhip::ExtractorInfo &info) : Extractor(info) {}
    void names(std::vector<std::string> *) const override {}
    size_t accum_bytes() const override { return 0; }
    void cpu(const vmafhip::FrameView &, void *, vmafhip::ThreadPool &) const override {}
    void finish(unsigned, const void *, double *) override {}
};

TEST(Api, WhyAnExtractorCannotRunOnTheGpu)
{
    using namespace vmafhip;
    static const GpuImpl runs = {gpu_no_bytes, gpu_no_constants, gpu_no_bytes,
                                 [](const Extractor &, GpuStream, const GpuFrame &, const void *,
                                    void *, void *) {}};
    static const GpuImpl refuses = {runs.constants_bytes, runs.fill_constants,
                                    runs.workspace_bytes, runs.enqueue,
                                    [](const Extractor &) -> std::string { return "no table"; }};
    ExtractorInfo info{};
    info.name = "idle";
    EXPECT_EQ(gpu_unavailable(Idle(info)), "idle has no GPU implementation in this build");
    info.gpu = &refuses;
    EXPECT_EQ(gpu_unavailable(Idle(info)), "idle cannot run on the GPU here: no table");
    info.gpu = &runs;
    EXPECT_EQ(gpu_unavailable(Idle(info)), "");
}

TEST(Api, PlaneValidation)
{
    Ctx ctx = open_ctx(base(64, 48));
    const Frame a(64, 48, 8, 1), b(64, 48, 8, 2);
    VmafHipPicture d = a.pic(), r = b.pic();
    VmafHipPicture bad = d;
    bad.data[0] = nullptr;
    EXPECT_EQ(vmafhip_submit(ctx.get(), &bad, &r), -EINVAL);
    EXPECT_NE(std::string(vmafhip_last_error(ctx.get())).find("luma (Y) plane pointer is NULL"),
              std::string::npos);
    bad = d;
    bad.data[2] = nullptr;
    EXPECT_EQ(vmafhip_submit(ctx.get(), &r, &bad), -EINVAL);
    EXPECT_NE(std::string(vmafhip_last_error(ctx.get())).find("reference picture: Cr"),
              std::string::npos);
    bad = d;
    bad.stride[0] = 63;
    EXPECT_EQ(vmafhip_submit(ctx.get(), &bad, &r), -EINVAL);
    EXPECT_NE(std::string(vmafhip_last_error(ctx.get())).find("smaller than a row of 64 bytes"),
              std::string::npos);
    bad = d;
    bad.stride[1] = 31;
    EXPECT_EQ(vmafhip_submit(ctx.get(), &bad, &r), -EINVAL);
    // Nothing was submitted by the failures; a good pair still works.
    EXPECT_EQ(vmafhip_frame_count(ctx.get()), 0u);
    EXPECT_EQ(vmafhip_submit(ctx.get(), &d, &r), 0);
    EXPECT_EQ(vmafhip_flush(ctx.get()), 0);
}

TEST(Api, ChromaNotNeededWithoutPsnrChroma)
{
    Ctx ctx = open_ctx(base(64, 48, "psnr=enable_chroma=false"));
    const Frame a(64, 48, 8, 1), b(64, 48, 8, 2);
    VmafHipPicture d = a.pic(), r = b.pic();
    d.data[1] = d.data[2] = r.data[1] = r.data[2] = nullptr;
    EXPECT_EQ(vmafhip_submit(ctx.get(), &d, &r), 0) << vmafhip_last_error(ctx.get());
    const char *const *names;
    ASSERT_EQ(vmafhip_feature_names(ctx.get(), &names), 1);
    EXPECT_STREQ(names[0], "psnr_y");
}

// What a reader may skip: chroma, unless a feature reads it.
TEST(Api, PlanesRead)
{
    const struct {
        const char *features, *models;
        VmafHipChroma chroma;
        int planes;
    } cases[] = {
        {nullptr, "version=vmaf_v0.6.1", VMAFHIP_CHROMA_420, 1},
        {"vif|adm|motion|float_ssim", nullptr, VMAFHIP_CHROMA_444, 1},
        {"psnr=enable_chroma=false", nullptr, VMAFHIP_CHROMA_420, 1},
        {"psnr", nullptr, VMAFHIP_CHROMA_420, 3},
        {"psnr", "version=vmaf_v0.6.1", VMAFHIP_CHROMA_422, 3},
        {"psnr", nullptr, VMAFHIP_CHROMA_400, 1},
    };
    for (const auto &c : cases) {
        VmafHipSettings s = base(64, 48, c.features);
        s.models = c.models;
        s.chroma = c.chroma;
        Ctx ctx = open_ctx(s);
        ASSERT_TRUE(ctx) << vmafhip_last_error(nullptr);
        EXPECT_EQ(vmafhip_planes_read(ctx.get()), c.planes)
            << (c.features ? c.features : "") << " " << (c.models ? c.models : "") << " chroma "
            << c.chroma;
    }
}

TEST(Api, SixteenBitNeedsAlignment)
{
    VmafHipSettings s = base(64, 48);
    s.bitdepth = 10;
    Ctx ctx = open_ctx(s);
    const Frame a(64, 48, 10, 1), b(64, 48, 10, 2);
    VmafHipPicture d = a.pic(), r = b.pic();
    VmafHipPicture odd = d;
    odd.stride[0] = 129;
    EXPECT_EQ(vmafhip_submit(ctx.get(), &odd, &r), -EINVAL);
    EXPECT_NE(std::string(vmafhip_last_error(ctx.get())).find("2-byte aligned"), std::string::npos);
}

// Bottom-up planes (negative strides, as FFmpeg's vflip gives) score the same
// as the same picture stored top-down.
TEST(Api, NegativeStrides)
{
    const testfx::Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38");
    const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
    Ctx top = open_ctx(all_settings(f));
    VmafHipSettings s = all_settings(f);
    testfx::set_backend(&s, TEST_BACKEND);
    Ctx bottom = open_ctx(s);
    for (int i = 0; i < 2; i++) {
        const VmafHipPicture r = ref.picture(i), d = dis.picture(i);
        ASSERT_EQ(vmafhip_submit(top.get(), &d, &r), i);
        // The same pictures stored bottom-up: memory row H-1-y holds row y,
        // data points at row 0 (the last row in memory), strides negative.
        const int hs[3] = {f.h, (f.h + 1) / 2, (f.h + 1) / 2};
        std::vector<std::vector<uint8_t>> copies;
        VmafHipPicture rf = r, df = d;
        for (VmafHipPicture *pic : {&rf, &df})
            for (int p = 0; p < 3; p++) {
                const ptrdiff_t row = pic->stride[p];
                std::vector<uint8_t> flipped(static_cast<size_t>(row) * hs[p]);
                for (int y = 0; y < hs[p]; y++)
                    std::memcpy(&flipped[static_cast<size_t>(hs[p] - 1 - y) * row],
                                static_cast<const uint8_t *>(pic->data[p]) + y * row, row);
                copies.push_back(std::move(flipped));
                pic->data[p] = copies.back().data() + (hs[p] - 1) * row;
                pic->stride[p] = -row;
            }
        ASSERT_EQ(vmafhip_submit(bottom.get(), &df, &rf), i) << vmafhip_last_error(bottom.get());
    }
    // The last frame's motion needs the end of the stream.
    ASSERT_EQ(vmafhip_flush(top.get()), 0);
    ASSERT_EQ(vmafhip_flush(bottom.get()), 0);
    const char *const *names;
    const int n = vmafhip_feature_names(top.get(), &names);
    for (unsigned i = 0; i < 2; i++) {
        const double *a, *b;
        ASSERT_EQ(vmafhip_frame_scores(top.get(), i, 1, &a), 0);
        ASSERT_EQ(vmafhip_frame_scores(bottom.get(), i, 1, &b), 0);
        for (int k = 0; k < n; k++)
            EXPECT_EQ(a[k], b[k]) << names[k];
    }
}

// The caller may overwrite its planes as soon as submit returns.
TEST(Api, CallerMemoryReusableAfterSubmit)
{
    const testfx::Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38");
    const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
    VmafHipSettings s = all_settings(f);
    testfx::set_backend(&s, TEST_BACKEND);
    Ctx clean = open_ctx(s), dirty = open_ctx(s);
    std::vector<uint8_t> rbuf(ref.frame_bytes()), dbuf(dis.frame_bytes());
    for (int i = 0; i < f.frames; i++) {
        VmafHipPicture r = ref.picture(i), d = dis.picture(i);
        ASSERT_EQ(vmafhip_submit(clean.get(), &d, &r), i);
        std::memcpy(rbuf.data(), ref.frame_data(i), rbuf.size());
        std::memcpy(dbuf.data(), dis.frame_data(i), dbuf.size());
        VmafHipPicture r2 = r, d2 = d;
        for (int p = 0; p < 3; p++) {
            r2.data[p] = rbuf.data() + (static_cast<const uint8_t *>(r.data[p]) - ref.frame_data(i));
            d2.data[p] = dbuf.data() + (static_cast<const uint8_t *>(d.data[p]) - dis.frame_data(i));
        }
        ASSERT_EQ(vmafhip_submit(dirty.get(), &d2, &r2), i);
        std::memset(rbuf.data(), 0xA5, rbuf.size()); // garbage right after submit
        std::memset(dbuf.data(), 0x3C, dbuf.size());
    }
    ASSERT_EQ(vmafhip_flush(clean.get()), 0);
    ASSERT_EQ(vmafhip_flush(dirty.get()), 0);
    const char *const *names;
    const int n = vmafhip_feature_names(clean.get(), &names);
    for (unsigned i = 0; i < static_cast<unsigned>(f.frames); i++) {
        const double *a, *b;
        ASSERT_EQ(vmafhip_frame_scores(clean.get(), i, 1, &a), 0);
        ASSERT_EQ(vmafhip_frame_scores(dirty.get(), i, 1, &b), 0);
        for (int k = 0; k < n; k++)
            EXPECT_EQ(a[k], b[k]) << "frame " << i << " " << names[k];
    }
}

// Samples above 2^bpc - 1 make that frame fail with -ERANGE; the others are
// scored, and pooling skips the failed one. At 1080p the GPU stages frames
// on several threads (and 10-bit ones packed, which cannot hold 1024).
void expect_samples_above_bit_depth(int w, int h)
{
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    VmafHipSettings s = base(w, h, "psnr|float_ssim|adm");
    s.bitdepth = 10;
    Messages m;
    s.log_callback = collect_log;
    s.log_cookie = &m;
    Ctx ctx = open_ctx(s);
    const Frame a(w, h, 10, 1), b(w, h, 10, 2);
    Frame c = a;
    reinterpret_cast<uint16_t *>(c.v.data())[7] = 1024; // Cr of the distorted picture
    VmafHipPicture d = a.pic(), r = b.pic(), bad = c.pic();
    ASSERT_EQ(vmafhip_submit(ctx.get(), &d, &r), 0);
    ASSERT_EQ(vmafhip_submit(ctx.get(), &bad, &r), 1);
    ASSERT_EQ(vmafhip_submit(ctx.get(), &d, &r), 2);
    const double *v;
    EXPECT_EQ(vmafhip_frame_scores(ctx.get(), 0, 1, &v), 0);
    const double *frame0 = v;
    EXPECT_EQ(vmafhip_frame_scores(ctx.get(), 1, 1, &v), -ERANGE);
    EXPECT_NE(std::string(vmafhip_last_error(ctx.get())).find("1024 is above the 10-bit maximum 1023"),
              std::string::npos)
        << vmafhip_last_error(ctx.get());
    EXPECT_EQ(vmafhip_frame_scores(ctx.get(), 2, 1, &v), 0);
    EXPECT_EQ(vmafhip_flush(ctx.get()), -ERANGE);
    VmafHipPooled p;
    const char *const *names;
    const int n = vmafhip_feature_names(ctx.get(), &names);
    int psnr_y = -1;
    for (int k = 0; k < n; k++)
        if (!std::strcmp(names[k], "psnr_y"))
            psnr_y = k;
    ASSERT_GE(psnr_y, 0);
    ASSERT_EQ(vmafhip_pooled(ctx.get(), psnr_y, &p), 0);
    // Frames 0 and 2 are the same pair: pooling saw exactly those two.
    EXPECT_EQ(p.min, frame0[psnr_y]);
    EXPECT_EQ(p.max, frame0[psnr_y]);
    EXPECT_EQ(p.mean, frame0[psnr_y]);
}

TEST(Api, SamplesAboveBitDepth)
{
    expect_samples_above_bit_depth(64, 48);
    expect_samples_above_bit_depth(1920, 1080);
}

// Frames in flight never change a score: every depth gives the depth-1 values,
// also when results are polled without waiting.
TEST(Api, SameScoresAtEveryQueueDepth)
{
    const testfx::Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38");
    const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
    std::vector<std::vector<double>> expected;
    for (int depth : {1, 2, 3, 4, 7, 16}) {
        VmafHipSettings s = all_settings(f);
        testfx::set_backend(&s, TEST_BACKEND);
        s.queue_depth = depth;
        Ctx ctx = open_ctx(s);
        const char *const *names;
        const int n = vmafhip_feature_names(ctx.get(), &names);
        std::vector<std::vector<double>> got;
        unsigned next = 0;
        for (int i = 0; i < f.frames; i++) {
            const VmafHipPicture r = ref.picture(i), d = dis.picture(i);
            ASSERT_EQ(vmafhip_submit(ctx.get(), &d, &r), i);
            const double *v;
            int ret;
            while (next <= static_cast<unsigned>(i) &&
                   (ret = vmafhip_frame_scores(ctx.get(), next, 0, &v)) != -EAGAIN) {
                ASSERT_EQ(ret, 0);
                got.emplace_back(v, v + n);
                next++;
            }
        }
        ASSERT_EQ(vmafhip_flush(ctx.get()), 0);
        for (; next < static_cast<unsigned>(f.frames); next++) {
            const double *v;
            ASSERT_EQ(vmafhip_frame_scores(ctx.get(), next, 0, &v), 0); // flushed: no wait
            got.emplace_back(v, v + n);
        }
        if (expected.empty())
            expected = got;
        for (size_t i = 0; i < got.size(); i++)
            for (int k = 0; k < n; k++)
                EXPECT_EQ(got[i][k], expected[i][k]) << "depth " << depth << " frame " << i << " "
                                                     << names[k];
    }
}

// Pictures the caller keeps (vmafhip_submit_kept) score as copied ones, also
// mixed with copied ones and with the model's motion reading earlier frames;
// the caller overwrites and frees each frame's pictures as soon as its scores
// are read, as the contract allows.
TEST(Api, KeptPicturesScoreAsCopiedOnes)
{
    const testfx::Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38");
    const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
    VmafHipSettings s = all_settings(f);
    testfx::set_backend(&s, TEST_BACKEND);
    s.models = "version=vmaf_v0.6.1";
    std::vector<std::vector<double>> want;
    for (const char *mode : {"copied", "kept", "mixed"}) { // mixed: frames 0, 3, 6, ... copied
        Ctx ctx = open_ctx(s);
        const char *const *names;
        const int n = vmafhip_feature_names(ctx.get(), &names);
        std::vector<std::vector<double>> got;
        // A picture of frame i in memory of the test's own, for as long as the
        // library may read it.
        std::map<int, std::array<std::vector<uint8_t>, 2>> kept;
        auto own = [&](const testfx::Clip &c, int i, std::vector<uint8_t> *buf) {
            VmafHipPicture p = c.picture(i);
            buf->assign(c.frame_data(i), c.frame_data(i) + c.frame_bytes());
            for (int q = 0; q < 3; q++)
                p.data[q] = buf->data() + (static_cast<const uint8_t *>(p.data[q]) - c.frame_data(i));
            return p;
        };
        auto read_scores = [&](int i, int wait) {
            const double *v;
            const int ret = vmafhip_frame_scores(ctx.get(), static_cast<unsigned>(i), wait, &v);
            if (ret == -EAGAIN)
                return false;
            EXPECT_EQ(ret, 0);
            got.emplace_back(v, v + n);
            for (auto &b : kept[i]) // the library reads them no more
                std::fill(b.begin(), b.end(), 0xee);
            kept.erase(i);
            return true;
        };
        int next = 0;
        for (int i = 0; i < f.frames; i++) {
            const VmafHipPicture d = own(dis, i, &kept[i][0]), r = own(ref, i, &kept[i][1]);
            const bool keep = mode[0] == 'k' || (mode[0] == 'm' && i % 3 != 0);
            ASSERT_EQ(keep ? vmafhip_submit_kept(ctx.get(), &d, &r) : vmafhip_submit(ctx.get(), &d, &r), i);
            if (!keep) { // copied before submit returned
                std::fill(kept[i][0].begin(), kept[i][0].end(), 0xee);
                std::fill(kept[i][1].begin(), kept[i][1].end(), 0xee);
            }
            while (next <= i && read_scores(next, 0))
                next++;
        }
        ASSERT_EQ(vmafhip_flush(ctx.get()), 0);
        for (; next < f.frames; next++)
            ASSERT_TRUE(read_scores(next, 0)); // flushed: no wait
        if (want.empty())
            want = got;
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < got.size(); i++)
            for (int k = 0; k < n; k++)
                EXPECT_EQ(got[i][k], want[i][k]) << mode << ", frame " << i << " "
                                                 << names[k];
    }
}

TEST(Api, FrameIndexChecks)
{
    Ctx ctx = open_ctx(base(16, 16));
    const double *v;
    EXPECT_EQ(vmafhip_frame_scores(ctx.get(), 0, 1, &v), -EINVAL);
    VmafHipPooled p;
    EXPECT_EQ(vmafhip_pooled(ctx.get(), 0, &p), -EAGAIN);
    EXPECT_EQ(vmafhip_pooled(ctx.get(), 3, &p), -EINVAL);
    EXPECT_EQ(vmafhip_pooled(ctx.get(), -1, &p), -EINVAL);
    const char *const *names;
    const double *values;
    EXPECT_EQ(vmafhip_aggregate_scores(ctx.get(), &names, &values), -EAGAIN);
    EXPECT_EQ(vmafhip_flush(ctx.get()), 0);
    EXPECT_EQ(vmafhip_aggregate_scores(ctx.get(), &names, &values), 0);
}

// Motion completes a frame's scores from the next frame: a frame is not
// complete until then, or until the stream ends; after the end no frame can
// be added.
TEST(Api, LookaheadAndTheEndOfTheStream)
{
    const testfx::Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38");
    const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
    VmafHipSettings s = testfx::settings(f.w, f.h, f.bpc, f.chroma, "motion");
    testfx::set_backend(&s, TEST_BACKEND);
    Messages log;
    s.log_callback = collect_log;
    s.log_cookie = &log;
    Ctx ctx = open_ctx(s);
    for (int i = 0; i < 3; i++) {
        const VmafHipPicture r = ref.picture(i), d = dis.picture(i);
        ASSERT_EQ(vmafhip_submit(ctx.get(), &d, &r), i);
    }
    const double *v = reinterpret_cast<const double *>(1);
    EXPECT_EQ(vmafhip_frame_scores(ctx.get(), 1, 1, &v), 0); // frame 2 was submitted
    EXPECT_EQ(vmafhip_frame_scores(ctx.get(), 2, 1, &v), -EAGAIN); // needs frame 3
    EXPECT_EQ(v, nullptr);
    VmafHipPooled p;
    ASSERT_EQ(vmafhip_pooled(ctx.get(), 2, &p), 0); // integer_motion2 of the complete frames
    EXPECT_EQ(vmafhip_flush(ctx.get()), 0);
    ASSERT_EQ(vmafhip_frame_scores(ctx.get(), 2, 0, &v), 0);
    // The last frame's motion2 is its own SAD score (libvmaf at flush).
    EXPECT_EQ(v[1], v[0]);
    EXPECT_EQ(vmafhip_flush(ctx.get()), 0); // again: nothing more
    const VmafHipPicture r = ref.picture(3), d = dis.picture(3);
    EXPECT_EQ(vmafhip_submit(ctx.get(), &d, &r), -EINVAL);
    EXPECT_NE(log.last().find("submit after flush"), std::string::npos) << log.last();
    EXPECT_EQ(vmafhip_frame_count(ctx.get()), 3u);
}

// n_subsample: only frames 0, n, 2n, ... have scores and are pooled; motion
// still reads every frame (libvmaf's TEMPORAL extractors).
TEST(Api, SubsampledFrames)
{
    const testfx::Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38");
    const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
    VmafHipSettings s = testfx::settings(f.w, f.h, f.bpc, f.chroma, "psnr|motion");
    testfx::set_backend(&s, TEST_BACKEND);
    Ctx every = open_ctx(s);
    s.n_subsample = 3;
    Ctx third = open_ctx(s);
    for (int i = 0; i < f.frames; i++) {
        const VmafHipPicture r = ref.picture(i), d = dis.picture(i);
        ASSERT_EQ(vmafhip_submit(every.get(), &d, &r), i);
        ASSERT_EQ(vmafhip_submit(third.get(), &d, &r), i);
    }
    ASSERT_EQ(vmafhip_flush(every.get()), 0);
    ASSERT_EQ(vmafhip_flush(third.get()), 0);
    const char *const *names;
    const int n = vmafhip_feature_names(third.get(), &names);
    std::vector<double> sum(static_cast<size_t>(n), 0.0);
    for (unsigned i = 0; i < static_cast<unsigned>(f.frames); i++) {
        const double *a, *b;
        ASSERT_EQ(vmafhip_frame_scores(every.get(), i, 1, &a), 0);
        const int ret = vmafhip_frame_scores(third.get(), i, 1, &b);
        if (i % 3) {
            EXPECT_EQ(ret, VMAFHIP_FRAME_SKIPPED) << i;
            EXPECT_EQ(b, nullptr);
            continue;
        }
        ASSERT_EQ(ret, 0) << i;
        for (int k = 0; k < n; k++) {
            EXPECT_EQ(b[k], a[k]) << "frame " << i << " " << names[k]; // motion too
            sum[static_cast<size_t>(k)] += b[k];
        }
    }
    for (int k = 0; k < n; k++) {
        VmafHipPooled p;
        ASSERT_EQ(vmafhip_pooled(third.get(), k, &p), 0);
        EXPECT_EQ(p.mean, sum[static_cast<size_t>(k)] / 4) << names[k]; // frames 0, 3, 6, 9
    }
}

// The values of a frame stay where they are until close, however many
// frames follow (the header's promise).
TEST(Api, ScorePointersStayValid)
{
    VmafHipSettings s = base(16, 16);
    Ctx ctx = open_ctx(s);
    const Frame a(16, 16, 8, 3), b(16, 16, 8, 4);
    const VmafHipPicture pa = a.pic(), pb = b.pic();
    ASSERT_EQ(vmafhip_submit(ctx.get(), &pa, &pb), 0);
    const double *first;
    ASSERT_EQ(vmafhip_frame_scores(ctx.get(), 0, 1, &first), 0);
    const std::vector<double> copy(first, first + 3);
    for (int i = 1; i < 5000; i++)
        ASSERT_EQ(vmafhip_submit(ctx.get(), i % 2 ? &pb : &pa, &pb), i);
    ASSERT_EQ(vmafhip_flush(ctx.get()), 0);
    const double *again;
    ASSERT_EQ(vmafhip_frame_scores(ctx.get(), 0, 1, &again), 0);
    EXPECT_EQ(again, first);
    EXPECT_EQ(std::vector<double>(first, first + 3), copy);
}

TEST(Api, IdenticalInputsHitTheCaps)
{
    VmafHipSettings s = base(64, 48, "psnr|float_ssim");
    s.bitdepth = 12;
    Ctx ctx = open_ctx(s);
    const Frame a(64, 48, 12, 9);
    VmafHipPicture p = a.pic();
    ASSERT_EQ(vmafhip_submit(ctx.get(), &p, &p), 0);
    const double *v;
    ASSERT_EQ(vmafhip_frame_scores(ctx.get(), 0, 1, &v), 0);
    EXPECT_EQ(v[0], 84.0); // 6 * 12 + 12
    EXPECT_EQ(v[1], 84.0);
    EXPECT_EQ(v[2], 84.0);
    EXPECT_EQ(v[3], 1.0); // float_ssim
}

} // namespace
