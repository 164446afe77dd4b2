// Test steps shared by float_psnr, float_ansnr and float_moment: their goldens
// beyond the shared .float set (tests/fixtures/MANIFEST.md, "float_psnr,
// float_ansnr and float_moment at 12 and 16 bits and at 3x3"), and runs of
// one extractor on hand-made planes. The unit tests of the three are built for
// the CPU (suite unit) and the GPU (suite gpu, TEST_BACKEND).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "extractors/extractor.h"
#include "tests/common/ctc.h"
#include "tests/common/extractors.h"
#include "tests/common/fixtures.h"
#include "tests/common/float_family.h"
#include "tests/common/score.h"
#include "tests/common/test_planes.h"

namespace testfx {

/// The pairs with a .float_small golden: 12 and 16 bits (the x264 clip and
/// identical pictures) and float_ansnr's smallest frame, 3x3.
inline std::vector<Fixture> float_small_pairs()
{
    const std::string m = "minsize_ms_ssim_176x176_yuv420p";
    return {
        pair(m + "12le__ref_vs_x264crf38", 12, VMAFHIP_CHROMA_420, 3),
        pair(m + "12le__ref_vs_ref", 12, VMAFHIP_CHROMA_420, 3),
        pair(m + "16le__ref_vs_x264crf38", 16, VMAFHIP_CHROMA_420, 1),
        pair(m + "16le__ref_vs_ref", 16, VMAFHIP_CHROMA_420, 1),
        pair("motion_3x3_yuv444p__ref_vs_ref", 8, VMAFHIP_CHROMA_444, 10),
    };
}

/// Every frame of the shared .float goldens (compare_float_goldens) and of the
/// .float_small ones, with 1 and 3 threads, bit for bit; each run must give
/// outputs_per_frame values a frame.
inline void expect_every_golden(const std::string &feature, int outputs_per_frame)
{
    int frames = 0;
    for (const Fixture &f : float_pairs())
        frames += f.frames;
    EXPECT_EQ(compare_float_goldens(feature, outputs_per_frame), 2 * outputs_per_frame * frames);
    for (const Fixture &f : float_small_pairs())
        for (int threads : {1, 3}) {
            SCOPED_TRACE(f.name + " threads " + std::to_string(threads));
            const int n = compare_golden_values(run_features(f, feature, threads),
                                                "golden/" + f.name + ".float_small.fullprec.json",
                                                "");
            EXPECT_EQ(n, outputs_per_frame * f.frames);
        }
}

/// The table entry of one of the three: found by its name and by the feature
/// libvmaf's provided_features lists, no options (libvmaf's have none), a GPU
/// implementation in every build that has a GPU platform (the builds where
/// psnr has one; the GPU backend refuses the extractor in the others), and an
/// instance for g writes `names`.
inline void expect_entry(const vmafhip::ExtractorInfo &e, const std::string &provided,
                         const vmafhip::Geometry &g, const std::vector<std::string> &names)
{
    EXPECT_EQ(vmafhip::find_extractor(e.name), &e);
    ASSERT_EQ(e.n_provides, 1);
    EXPECT_EQ(e.provides[0].libvmaf_name, provided);
    EXPECT_EQ(vmafhip::find_provider(provided), &e);
    const vmafhip::ExtractorInfo *psnr = vmafhip::find_extractor("psnr");
    ASSERT_TRUE(psnr);
    EXPECT_EQ(e.gpu != nullptr, psnr->gpu != nullptr);
    EXPECT_EQ(std::string(e.help).find("CPU only"), std::string::npos);
    EXPECT_EQ(e.n_options, 0);
    int ret = 0;
    std::string msg;
    const std::unique_ptr<vmafhip::Extractor> x = try_extractor(e.name, g, &ret, &msg);
    ASSERT_TRUE(x) << msg;
    std::vector<std::string> got;
    x->names(&got);
    EXPECT_EQ(got, names);
    if (!e.gpu)
        expect_gpu_backend_refuses(e.name);
}

/// The GPU host side of one of the three for g, where this build has one (it
/// needs no device): `constants` bytes of constants, and a workspace of
/// `planes` float planes of g's luma size and the sums' records, which take
/// less than an eighth of a plane each (ordered sums: one record of 1024
/// values; float_ansnr: a float per row).
inline void expect_gpu_host_side(const vmafhip::ExtractorInfo &e, const vmafhip::Geometry &g,
                                 size_t constants, int planes)
{
    const vmafhip::GpuImpl *gpu = e.gpu;
    if (!gpu)
        GTEST_SKIP() << "built without a GPU platform";
    int ret = 0;
    std::string msg;
    const std::unique_ptr<vmafhip::Extractor> x = try_extractor(e.name, g, &ret, &msg);
    ASSERT_TRUE(x) << msg;
    EXPECT_EQ(gpu->constants_bytes(*x), constants);
    const size_t plane = sizeof(float) * static_cast<size_t>(g.w) * g.h;
    EXPECT_GE(gpu->workspace_bytes(*x), planes * plane);
    EXPECT_LT(gpu->workspace_bytes(*x), planes * plane * 9 / 8);
}

/// The outputs of extractor `name` on one frame of two hand-made planes (the
/// luma of a 4:4:4 picture; the other planes are never read), from its
/// accumulators with 1, 2 and 3 threads, which must be the same bytes.
inline std::vector<double> outputs_of(const std::string &name, const Plane &ref, const Plane &dis)
{
    const vmafhip::Geometry g{ref.w, ref.h, ref.bpc, VMAFHIP_CHROMA_444};
    int ret = 0;
    std::string msg;
    std::unique_ptr<vmafhip::Extractor> e = try_extractor(name, g, &ret, &msg);
    EXPECT_TRUE(e) << msg;
    if (!e)
        return {};
    vmafhip::FrameView fv;
    fv.ref[0] = ref.view();
    fv.dis[0] = dis.view();
    std::vector<unsigned char> acc(e->accum_bytes());
    same_sums_any_thread_count(*e, fv, acc.data());
    std::vector<std::string> names;
    e->names(&names);
    std::vector<double> out(names.size());
    e->finish(0, acc.data(), out.data());
    return out;
}

} // namespace testfx
