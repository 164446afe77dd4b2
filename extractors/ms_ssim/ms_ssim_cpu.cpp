// float_ms_ssim CPU reference (docs/ms_ssim.md §2-§3): the luma planes as
// floats, halved four times by the 9x9 low-pass filter, and float_ssim's map
// sums (extractors/ssim/ssim_cpu.cpp) at each of the five scales.
// Every § below is a section of docs/ms_ssim.md.
#include <memory>

#include "base/thread_pool.h"
#include "extractors/ms_ssim/ms_ssim.h"
#include "extractors/ssim/ssim_cpu_rows.h"
#include "kernels/ssim/ssim_ops.h"

namespace vmafhip {

namespace {

constexpr int LPF_TAPS = 9;
constexpr int LPF_HALF = LPF_TAPS / 2;

// §3.1: libvmaf's 9x9 filter (the 9/7 biorthogonal wavelet's low-pass) is
// symmetric in both axes and about its diagonal: these are its rows and
// columns 0..4 (4 is the centre), each a float literal of libvmaf's table.
// It is not the outer product of libvmaf's 1-D taps, which ms_ssim.c does not
// use for the decimation.
constexpr float LPF_QUARTER[5][5] = {
    {0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f},
    {-0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f},
    {-0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f},
    {0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f},
    {0.016114f, -0.010146f, -0.047149f, 0.160885f, 0.363505f},
};

constexpr float lpf_tap(int v, int u)
{
    return LPF_QUARTER[v <= LPF_HALF ? v : LPF_TAPS - 1 - v][u <= LPF_HALF ? u : LPF_TAPS - 1 - u];
}

} // namespace

void ms_ssim_decimate(const float *in, int w, int h, float *out, ThreadPool &pool)
{
    const int ow = w / 2 + (w & 1), oh = h / 2 + (h & 1);
    // §3.2: output (x, y) filters around the input sample (2x, 2y), taps in
    // row-major order, each a float32 product added to a double, rounded to
    // float once; outside the plane the mirror of float_ssim's decimation.
    pool.parallel_for(oh, 8, [&](int y0, int y1) {
        for (int y = y0; y < y1; y++) {
            const float *rows[LPF_TAPS];
            for (int v = 0; v < LPF_TAPS; v++)
                rows[v] = in + static_cast<size_t>(ssim_mirror(2 * y + v - LPF_HALF, h)) * w;
            float *o = out + static_cast<size_t>(y) * ow;
            for (int x = 0; x < ow; x++) {
                int cols[LPF_TAPS];
                for (int u = 0; u < LPF_TAPS; u++)
                    cols[u] = ssim_mirror(2 * x + u - LPF_HALF, w);
                double acc = 0.0;
                for (int v = 0; v < LPF_TAPS; v++)
                    for (int u = 0; u < LPF_TAPS; u++) {
                        const float p = rows[v][cols[u]] * lpf_tap(v, u);
                        acc += static_cast<double>(p);
                    }
                o[x] = static_cast<float>(acc);
            }
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
