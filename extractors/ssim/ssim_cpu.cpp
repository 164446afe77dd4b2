// float_ssim CPU reference (docs/ssim.md §2-§6): normalise and decimate each
// luma plane, run the separable Gaussian on the five planes, compute the SSIM
// of every map pixel in parallel, then sum the map sequentially in row-major
// order, as libvmaf does, so the double sums are libvmaf's to the last bit.
// The passes and the pixel SSIM are the kernels of a table
// (extractors/ssim/ssim_cpu_rows.h); the plain ones are here.
// Every § below is a section of docs/ssim.md.
#include <algorithm>
#include <memory>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/ssim/ssim.h"
#include "extractors/ssim/ssim_cpu_rows.h"
#include "kernels/ssim/ssim_ops.h"

namespace vmafhip {

namespace {

// Map pixels computed before each sequential sum: bounds the scratch memory
// (about 14 MB) for large undecimated frames. 1080p at scale 4 is one band.
constexpr int BAND_PIXELS = 1 << 18;

// §2 and §4.3: one luma plane to a dense float plane of the decimated size.
// BPC is a template constant so the exact /4, /16, /256 become multiplies.
//
// The order of §4.3's double sum does not matter: every product
// float(sample * k) is at least 2^-15 when not 0 (a sample is a multiple of
// 2^-8, k at least 1/100), so a multiple of 2^-38, and a whole box adds up to
// at most 256 = 2^8: every partial sum, in any order, is a multiple of 2^-38
// below 2^9, held exactly in a double's 53 bits. So each output row adds its
// f source rows column by column (one double per source column, loops the
// compiler vectorises), then each output the f columns of its box.
template <typename T, int BPC>
void load_plane(const PlaneView &p, int f, int dw, int dh, float *out, ThreadPool &pool)
{
    if (f == 1) {
        pool.parallel_for(dh, 16, [&](int y0, int y1) {
            for (int y = y0; y < y1; y++) {
                const T *r = p.row<T>(y);
                float *o = out + static_cast<size_t>(y) * dw;
                for (int x = 0; x < dw; x++)
                    o[x] = ssim_normalise(r[x], BPC);
            }
        });
        return;
    }
    const float k = ssim_decimate_weight(f);
    const int lo = ssim_decimate_first_tap(f), hi = ssim_decimate_last_tap(f);
    // Source column i + lo for i in [0, span): the columns of every box,
    // mirrored at the ends; [first, last) needs no mirror.
    const int span = dw * f;
    const int first = std::min(span, -lo), last = std::max(first, std::min(span, p.w - lo));
    pool.parallel_for(dh, 8, [&](int y0, int y1) {
        std::vector<double> cols(static_cast<size_t>(span));
        for (int y = y0; y < y1; y++) {
            std::fill(cols.begin(), cols.end(), 0.0);
            for (int dy = lo; dy <= hi; dy++) {
                const T *r = p.row<T>(ssim_mirror(y * f + dy, p.h));
                const auto mirrored = [&](int i) {
                    cols[i] = ssim_decimate_acc(cols[i], ssim_normalise(r[ssim_mirror(i + lo, p.w)], BPC), k);
                };
                for (int i = 0; i < first; i++)
                    mirrored(i);
                const T *in = r + lo;
                for (int i = first; i < last; i++)
                    cols[i] = ssim_decimate_acc(cols[i], ssim_normalise(in[i], BPC), k);
                for (int i = last; i < span; i++)
                    mirrored(i);
            }
            float *o = out + static_cast<size_t>(y) * dw;
            for (int x = 0; x < dw; x++) {
                double a = 0.0;
                for (int t = 0; t < f; t++)
                    a += cols[static_cast<size_t>(x) * f + t];
                o[x] = static_cast<float>(a);
            }
        }
    });
}

void hpass_scalar(const float *r, const float *d, int n, SsimPlanes out)
{
    for (int x = 0; x < n; x++) {
        const SsimMoments mo = ssim_hpass5(r + x, d + x, 1);
        out[0][x] = mo.mu1;
        out[1][x] = mo.mu2;
        out[2][x] = mo.e11;
        out[3][x] = mo.e22;
        out[4][x] = mo.e12;
    }
}

void vpass_pixel_scalar(const float *const in[5], ptrdiff_t stride, int n, const SsimPixelRow &out)
{
    for (int x = 0; x < n; x++) {
        const SsimPixel px = ssim_pixel(ssim_filter11(in[0] + x, stride), ssim_filter11(in[1] + x, stride),
                                        ssim_filter11(in[2] + x, stride), ssim_filter11(in[3] + x, stride),
                                        ssim_filter11(in[4] + x, stride));
        out.l[x] = px.l;
        out.c[x] = px.c;
        out.s[x] = px.s;
        out.ssim[x] = px.ssim;
    }
}

} // namespace

const SsimKernels &ssim_kernels_scalar()
{
    static const SsimKernels k = {hpass_scalar, vpass_pixel_scalar};
    return k;
}

void ssim_cpu_load(const PlaneView &p, int bpc, int f, int dw, int dh, float *out, ThreadPool &pool)
{
    switch (bpc) {
    case 8: load_plane<uint8_t, 8>(p, f, dw, dh, out, pool); break;
    case 10: load_plane<uint16_t, 10>(p, f, dw, dh, out, pool); break;
    case 12: load_plane<uint16_t, 12>(p, f, dw, dh, out, pool); break;
    default: load_plane<uint16_t, 16>(p, f, dw, dh, out, pool); break;
    }
}

void ssim_cpu_sums(const SsimParams &p, int bpc, const PlaneView &ref_plane, const PlaneView &dis_plane,
                   const SsimKernels &k, ThreadPool &pool, SsimAccum *out)
{
    // Scratch left uninitialised (every element is written before it is
    // read): zeroing it cost a tenth of the time at small sizes.
    const size_t dec = static_cast<size_t>(p.dec_w) * p.dec_h;
    const std::unique_ptr<float[]> ref(new float[dec]), dis(new float[dec]);
    ssim_cpu_load(ref_plane, bpc, p.scale, p.dec_w, p.dec_h, ref.get(), pool);
    ssim_cpu_load(dis_plane, bpc, p.scale, p.dec_w, p.dec_h, dis.get(), pool);
    ssim_cpu_map_sums(ref.get(), dis.get(), p.dec_w, p.dec_h, k, pool, out);
}

void ssim_cpu_map_sums(const float *ref, const float *dis, int w, int h, const SsimKernels &k,
                       ThreadPool &pool, SsimAccum *out)
{
    const int mw = w - (SSIM_TAPS - 1), mh = h - (SSIM_TAPS - 1);

    // Per band of map rows: horizontal pass of the band's rows + 10 into five
    // planes (mu1, mu2, e11, e22, e12), then the vertical pass and the pixel
    // SSIM, then the sequential sums.
    const int band = std::max(1, std::min(mh, BAND_PIXELS / mw));
    const size_t plane = static_cast<size_t>(band + 10) * mw;
    const std::unique_ptr<float[]> hbuf(new float[5 * plane]);
    float *hp[5];
    for (int q = 0; q < 5; q++)
        hp[q] = hbuf.get() + q * plane;
    const size_t map = static_cast<size_t>(band) * mw;
    const std::unique_ptr<double[]> terms(new double[4 * map]);
    const SsimPixelRow px = {terms.get(), terms.get() + map, terms.get() + 2 * map, terms.get() + 3 * map};
    SsimAccum acc = {0.0, 0.0, 0.0, 0.0};

    for (int y0 = 0; y0 < mh; y0 += band) {
        const int rows = std::min(band, mh - y0);
        pool.parallel_for(rows + 10, 8, [&](int r0, int r1) {
            for (int r = r0; r < r1; r++) {
                const size_t in = static_cast<size_t>(y0 + r) * w, o = static_cast<size_t>(r) * mw;
                float *const row[5] = {hp[0] + o, hp[1] + o, hp[2] + o, hp[3] + o, hp[4] + o};
                k.hpass(ref + in, dis + in, mw, row);
            }
        });
        pool.parallel_for(rows, 8, [&](int r0, int r1) {
            for (int r = r0; r < r1; r++) {
                const size_t o = static_cast<size_t>(r) * mw;
                const float *const in[5] = {hp[0] + o, hp[1] + o, hp[2] + o, hp[3] + o, hp[4] + o};
                k.vpass_pixel(in, mw, mw, SsimPixelRow{px.l + o, px.c + o, px.s + o, px.ssim + o});
            }
        });
        // §6: libvmaf's row-major double sums; never split, or the last bit moves.
        const size_t n = static_cast<size_t>(rows) * mw;
        for (size_t i = 0; i < n; i++) {
            acc.ssim += px.ssim[i];
            acc.l += px.l[i];
            acc.c += px.c[i];
            acc.s += px.s[i];
        }
    }
    *out = acc;
}

void Ssim::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    ssim_cpu_sums(p_, g_.bpc, f.ref[0], f.dis[0], *k_, pool, static_cast<SsimAccum *>(accum));
}

} // namespace vmafhip
