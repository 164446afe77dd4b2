// float_ssim CPU reference (docs/ssim.md §2-§6): normalise and decimate each
// luma plane, run the separable Gaussian on the five planes, compute the SSIM
// of every map pixel in parallel, then sum the map sequentially in row-major
// order, as libvmaf does, so the double sums are libvmaf's to the last bit.
// Every § below is a section of docs/ssim.md.
#include <algorithm>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/ssim.h"
#include "kernels/ssim_ops.h"

namespace vmafhip {

namespace {

// Map pixels computed before each sequential sum: bounds the scratch memory
// (about 14 MB) for large undecimated frames. 1080p at scale 4 is one band.
constexpr int BAND_PIXELS = 1 << 18;

// §2 and §4.3: one luma plane to a dense float plane of the decimated size.
// BPC is a template constant so the exact /4, /16, /256 become multiplies.
// Decimation keeps one double accumulator per output of a row and adds one
// source row at a time: each output still sees its taps in the order of §4.3
// (rows outer, columns inner), while neighbouring outputs are independent
// chains, which the CPU overlaps.
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
    pool.parallel_for(dh, 8, [&](int y0, int y1) {
        std::vector<double> acc(static_cast<size_t>(dw));
        for (int y = y0; y < y1; y++) {
            std::fill(acc.begin(), acc.end(), 0.0);
            for (int dy = lo; dy <= hi; dy++) {
                const T *r = p.row<T>(ssim_mirror(y * f + dy, p.h));
                for (int x = 0; x < dw; x++) {
                    const int ax = x * f;
                    double a = acc[x];
                    if (ax + lo >= 0 && ax + hi < p.w) { // no mirror needed
                        for (int dx = lo; dx <= hi; dx++)
                            a = ssim_decimate_acc(a, ssim_normalise(r[ax + dx], BPC), k);
                    } else {
                        for (int dx = lo; dx <= hi; dx++)
                            a = ssim_decimate_acc(a, ssim_normalise(r[ssim_mirror(ax + dx, p.w)], BPC), k);
                    }
                    acc[x] = a;
                }
            }
            float *o = out + static_cast<size_t>(y) * dw;
            for (int x = 0; x < dw; x++)
                o[x] = static_cast<float>(acc[x]);
        }
    });
}

void load(const PlaneView &p, int bpc, int f, int dw, int dh, float *out, ThreadPool &pool)
{
    switch (bpc) {
    case 8: load_plane<uint8_t, 8>(p, f, dw, dh, out, pool); break;
    case 10: load_plane<uint16_t, 10>(p, f, dw, dh, out, pool); break;
    case 12: load_plane<uint16_t, 12>(p, f, dw, dh, out, pool); break;
    default: load_plane<uint16_t, 16>(p, f, dw, dh, out, pool); break;
    }
}

} // namespace

void Ssim::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    const int w = p_.dec_w, h = p_.dec_h, mw = p_.map_w, mh = p_.map_h;
    std::vector<float> ref(static_cast<size_t>(w) * h), dis(ref.size());
    load(f.ref[0], g_.bpc, p_.scale, w, h, ref.data(), pool);
    load(f.dis[0], g_.bpc, p_.scale, w, h, dis.data(), pool);

    // Per band of map rows: horizontal pass of the band's rows + 10 into five
    // planes (mu1, mu2, e11, e22, e12), then the vertical pass and the pixel
    // SSIM, then the sequential sums.
    const int band = std::max(1, std::min(mh, BAND_PIXELS / mw));
    const size_t plane = static_cast<size_t>(band + 10) * mw;
    std::vector<float> hbuf(5 * plane);
    float *const hp[5] = {hbuf.data(), hbuf.data() + plane, hbuf.data() + 2 * plane,
                          hbuf.data() + 3 * plane, hbuf.data() + 4 * plane};
    std::vector<SsimPixel> px(static_cast<size_t>(band) * mw);
    SsimAccum acc = {0.0, 0.0, 0.0, 0.0};

    for (int y0 = 0; y0 < mh; y0 += band) {
        const int rows = std::min(band, mh - y0);
        pool.parallel_for(rows + 10, 8, [&](int r0, int r1) {
            for (int r = r0; r < r1; r++) {
                const float *rr = ref.data() + static_cast<size_t>(y0 + r) * w;
                const float *dr = dis.data() + static_cast<size_t>(y0 + r) * w;
                const size_t o = static_cast<size_t>(r) * mw;
                for (int x = 0; x < mw; x++) {
                    const SsimMoments mo = ssim_hpass5(rr + x, dr + x, 1);
                    hp[0][o + x] = mo.mu1;
                    hp[1][o + x] = mo.mu2;
                    hp[2][o + x] = mo.e11;
                    hp[3][o + x] = mo.e22;
                    hp[4][o + x] = mo.e12;
                }
            }
        });
        pool.parallel_for(rows, 8, [&](int r0, int r1) {
            for (int r = r0; r < r1; r++) {
                const size_t o = static_cast<size_t>(r) * mw;
                for (int x = 0; x < mw; x++)
                    px[o + x] = ssim_pixel(ssim_filter11(hp[0] + o + x, mw),
                                           ssim_filter11(hp[1] + o + x, mw),
                                           ssim_filter11(hp[2] + o + x, mw),
                                           ssim_filter11(hp[3] + o + x, mw),
                                           ssim_filter11(hp[4] + o + x, mw));
            }
        });
        // §6: libvmaf's row-major double sums; never split, or the last bit moves.
        const size_t n = static_cast<size_t>(rows) * mw;
        for (size_t i = 0; i < n; i++) {
            acc.ssim += px[i].ssim;
            acc.l += px[i].l;
            acc.c += px[i].c;
            acc.s += px[i].s;
        }
    }
    *static_cast<SsimAccum *>(accum) = acc;
}

} // namespace vmafhip
