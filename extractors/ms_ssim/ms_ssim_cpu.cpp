// float_ms_ssim CPU reference (docs/ms_ssim.md §2-§3): the luma planes as
// floats, halved four times by the 9x9 low-pass filter, and float_ssim's map
// sums (extractors/ssim/ssim_cpu.cpp) at each of the five scales.
// Every § below is a section of docs/ms_ssim.md.
#include <memory>

#include "base/thread_pool.h"
#include "extractors/ms_ssim/ms_ssim.h"
#include "extractors/ssim/ssim_cpu_rows.h"
#include "kernels/ms_ssim/ms_ssim_ops.h"

namespace vmafhip {

void ms_ssim_decimate(const float *in, int w, int h, float *out, ThreadPool &pool)
{
    const int ow = ms_ssim_half(w), oh = ms_ssim_half(h);
    pool.parallel_for(oh, 8, [&](int y0, int y1) {
        for (int y = y0; y < y1; y++) {
            float *o = out + static_cast<size_t>(y) * ow;
            for (int x = 0; x < ow; x++)
                o[x] = ms_ssim_decimate_sample(in, w, h, 8, x, y);
        }
    });
}

void MsSsim::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    MsSsimAccum &a = *static_cast<MsSsimAccum *>(accum);
    // §2: scale 0 is float_ssim's normalised luma; each next scale is the
    // one before decimated (reference and distorted separately).
    const size_t n0 = static_cast<size_t>(sz_.w[0]) * sz_.h[0];
    const std::unique_ptr<float[]> ref(new float[n0]), dis(new float[n0]);
    const std::unique_ptr<float[]> ref_next(new float[n0]), dis_next(new float[n0]);
    float *r = ref.get(), *d = dis.get(), *rn = ref_next.get(), *dn = dis_next.get();
    ssim_cpu_load(f.ref[0], g_.bpc, 1, sz_.w[0], sz_.h[0], r, pool);
    ssim_cpu_load(f.dis[0], g_.bpc, 1, sz_.w[0], sz_.h[0], d, pool);
    for (int i = 0; i < MS_SSIM_SCALES; i++) {
        ssim_cpu_map_sums(r, d, sz_.w[i], sz_.h[i], *k_, pool, &a.scale[i]);
        if (i + 1 == MS_SSIM_SCALES)
            break;
        ms_ssim_decimate(r, sz_.w[i], sz_.h[i], rn, pool);
        ms_ssim_decimate(d, sz_.w[i], sz_.h[i], dn, pool);
        std::swap(r, rn);
        std::swap(d, dn);
    }
}

} // namespace vmafhip
