// CAMBI on the GPU backend (docs/cambi.md §14), through the public API.
//
// Map:
//   CambiGpu.Goldens     every golden case of tests/unit/test_cambi.cpp
//                        (tests/common/cambi_cases.h), bit for bit
//   CambiGpu.SameAsCpu   synthetic banded pictures, every bit depth, sizes
//                        from 216 rows to 1080p, the speed-up, resize,
//                        full_ref, extreme options: the GPU's doubles equal
//                        the CPU backend's bit for bit
//   CambiGpu.OrderedSum  1080p without the speed-up and with heavy banding:
//                        top-k sums above 2^29, where the value depends on
//                        libvmaf's selection order (§9), which the GPU then
//                        runs as the CPU does
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/common/bits.h"
#include "tests/common/cambi_cases.h"
#include "tests/common/context.h"
#include "tests/common/fixtures.h"
#include "tests/common/score.h"
#include "vmafhip.h"

namespace {

typedef testfx::OptionList Opts;

TEST(CambiGpu, Goldens)
{
    int compared = 0;
    auto run = [&](const std::string &pair, const Opts &o, const std::string &golden) {
        const testfx::Fixture &f = testfx::fixture(pair);
        const std::string spec = testfx::cambi_spec(o);
        const testfx::Scored r =
            testfx::score(f, testfx::settings(f.w, f.h, f.bpc, f.chroma, spec.c_str()));
        ASSERT_FALSE(r.names.empty()) << spec;
        const int n = testfx::compare_golden_values(r, golden, "cambi");
        EXPECT_GT(n, 0) << pair << " " << spec;
        compared += n;
    };
    for (const std::string &pair : testfx::cambi_v1_pairs())
        run(pair, testfx::cambi_v1_options(), testfx::cambi_v1_golden(pair));
    for (const testfx::CambiOptionSets &c : testfx::cambi_option_sets())
        for (const Opts &o : c.sets)
            run(c.pair, o, testfx::cambi_golden(c.pair));
    for (const testfx::CambiOptionSets &c : testfx::cambi_pq_option_sets())
        for (const Opts &o : c.sets)
            run(c.pair, o, testfx::cambi_pq_golden(c.pair));
    // As tests/unit/test_cambi.cpp: the v1 column, the option sets, the PQ sets.
    EXPECT_EQ(compared, (10 + 10 + 10 + 6) + 10 * (11 + 2) + 6 * (3 + 2) + (6 * 10 + 6 * 6 + 2 * 3));
}

/// A 4:2:0 picture of banded content: steps of 1 to 4 levels (10-bit
/// scale) in blocks of varying size over a dark ramp that rises every 24
/// rows, a few noisy rows, the luma written at bpc bits (above 10 bits with
/// random low bits below half a 10-bit step, which §4.2 rounds away).
struct Picture {
    int w, h, bps;
    std::vector<uint8_t> y, c;
    Picture(int w_, int h_, int bpc, uint32_t seed) : w(w_), h(h_), bps(bpc > 8 ? 2 : 1)
    {
        y.resize(static_cast<size_t>(w) * h * bps);
        c.assign(static_cast<size_t>((w + 1) / 2) * ((h + 1) / 2) * bps, 0);
        uint32_t r = seed * 2654435761u + 1;
        auto rnd = [&r] { return (r = r * 1664525u + 1013904223u) >> 8; };
        const int bw = 6 + static_cast<int>(seed % 7), bh = 9 + static_cast<int>(seed % 5);
        for (int i = 0; i < h; i++)
            for (int j = 0; j < w; j++) {
                const int band = (j / bw + i / bh) % 4 + 1;
                int v10 = 80 + (j * 3) / (bw * 4) * band + (i / 24) * 3;
                if (i % 97 == 13)
                    v10 += static_cast<int>(rnd() % 9);
                v10 = v10 > 1023 ? 1023 : v10;
                const uint32_t v = bpc <= 10 ? static_cast<uint32_t>(v10) >> (10 - bpc)
                                             : (static_cast<uint32_t>(v10) << (bpc - 10)) |
                                                   (rnd() & ((1u << (bpc - 11)) - 1));
                put(i, j, v);
            }
    }
    void put(int i, int j, uint32_t v)
    {
        const size_t q = static_cast<size_t>(i) * w + j;
        if (bps == 2)
            reinterpret_cast<uint16_t *>(y.data())[q] = static_cast<uint16_t>(v);
        else
            y[q] = static_cast<uint8_t>(v);
    }
    VmafHipPicture pic() const
    {
        const ptrdiff_t cs = static_cast<ptrdiff_t>((w + 1) / 2) * bps;
        return VmafHipPicture{{y.data(), c.data(), c.data()},
                              {static_cast<ptrdiff_t>(w) * bps, cs, cs}};
    }
};

/// Every frame's outputs of pictures (ref[i], dis[i]) on one backend.
std::vector<std::vector<double>> score_on(int backend, const std::string &spec, int bpc,
                                          const std::vector<Picture> &ref,
                                          const std::vector<Picture> &dis)
{
    VmafHipSettings s =
        testfx::settings(ref[0].w, ref[0].h, bpc, VMAFHIP_CHROMA_420, spec.c_str());
    testfx::set_backend(&s, backend);
    std::vector<std::vector<double>> out;
    const testfx::Ctx ctx = testfx::open_ctx(s);
    if (!ctx)
        return out;
    for (size_t i = 0; i < ref.size(); i++) {
        const VmafHipPicture r = ref[i].pic(), d = dis[i].pic();
        EXPECT_EQ(vmafhip_submit(ctx.get(), &d, &r), static_cast<int>(i))
            << vmafhip_last_error(ctx.get());
    }
    EXPECT_EQ(vmafhip_flush(ctx.get()), 0) << vmafhip_last_error(ctx.get());
    const char *const *names;
    const int n = vmafhip_feature_names(ctx.get(), &names);
    for (size_t i = 0; i < ref.size(); i++) {
        const double *v = nullptr;
        EXPECT_EQ(vmafhip_frame_scores(ctx.get(), static_cast<unsigned>(i), 1, &v), 0);
        if (v)
            out.emplace_back(v, v + n);
    }
    return out;
}

void expect_same_as_cpu(int w, int h, int bpc, const Opts &opts, int frames = 2)
{
    std::vector<Picture> ref, dis;
    for (int i = 0; i < frames; i++) {
        ref.emplace_back(w, h, bpc, static_cast<uint32_t>(2 * i + 1));
        dis.emplace_back(w, h, bpc, static_cast<uint32_t>(2 * i + 2));
    }
    const std::string spec = testfx::cambi_spec(opts);
    const auto gpu = score_on(VMAFHIP_BACKEND_HIP, spec, bpc, ref, dis);
    const auto cpu = score_on(VMAFHIP_BACKEND_CPU, spec, bpc, ref, dis);
    ASSERT_EQ(gpu.size(), cpu.size()) << spec;
    for (size_t i = 0; i < gpu.size(); i++)
        for (size_t k = 0; k < gpu[i].size(); k++)
            EXPECT_EQ(testfx::bits(gpu[i][k]), testfx::bits(cpu[i][k]))
                << w << "x" << h << " " << bpc << " bits " << spec << " frame " << i << " output "
                << k << ": gpu " << gpu[i][k] << " cpu " << cpu[i][k];
}

TEST(CambiGpu, SameAsCpu)
{
    const Opts v1 = testfx::cambi_v1_options();
    for (int bpc : {8, 10, 12, 16}) {
        expect_same_as_cpu(576, 324, bpc, {});
        expect_same_as_cpu(576, 324, bpc, v1);
    }
    expect_same_as_cpu(575, 323, 10, {{"full_ref", "true"}});
    expect_same_as_cpu(300, 216, 8, {{"max_log_contrast", "5"}, {"tvi_threshold", "0.005"}});
    expect_same_as_cpu(640, 360, 10, {{"window_size", "127"}, {"topk", "1"}});
    expect_same_as_cpu(640, 360, 12, {{"max_log_contrast", "0"}, {"topk", "0.0001"}});
    expect_same_as_cpu(640, 360, 8,
                       {{"enc_width", "333"}, {"enc_height", "217"}, {"full_ref", "true"},
                        {"src_width", "480"}, {"src_height", "270"}});
    expect_same_as_cpu(1920, 1080, 10, v1, 1);
    expect_same_as_cpu(1920, 1080, 8, {{"cambi_high_res_speedup", "1080"}}, 1);
}

/// 1080p without the speed-up (window 33), max_log_contrast=5: the lower
/// 55% of the rows are stripes of two levels 23 apart (c-values near 2000),
/// the upper rows a flat level with sparse 2x2 dots one level up (c-values
/// near 4, with bits down to 2^-22). The top-k sums of scales 0 and 1 pass
/// 2^31, where adding such a value rounds, and libvmaf's selection order
/// gives scale 1 a value that differs from the exact mean in its last bits
/// (checked on the CPU code): only the ordered sum matches.
TEST(CambiGpu, OrderedSum)
{
    const int w = 1920, h = 1080;
    Picture p(w, h, 10, 3);
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            const int stripe = j / (6 + (i / 40) % 5);
            const bool dot = (i % 40) / 2 == 0 && (j % 40) / 2 == 0;
            const int stripes = 300 + 23 * (stripe % 2) + (i / 120) * 20 + j / 480;
            p.put(i, j, static_cast<uint32_t>(i >= h * 45 / 100 ? stripes : 150 + dot));
        }
    const std::vector<Picture> ref = {p}, dis = {p};
    const std::string spec = testfx::cambi_spec({{"max_log_contrast", "5"}});
    const auto gpu = score_on(VMAFHIP_BACKEND_HIP, spec, 10, ref, dis);
    const auto cpu = score_on(VMAFHIP_BACKEND_CPU, spec, 10, ref, dis);
    ASSERT_EQ(gpu.size(), 1u);
    ASSERT_EQ(cpu.size(), 1u);
    EXPECT_EQ(testfx::bits(gpu[0][0]), testfx::bits(cpu[0][0]))
        << "gpu " << gpu[0][0] << " cpu " << cpu[0][0];
}

} // namespace
