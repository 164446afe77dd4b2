// ciede CPU reference (docs/ciede.md §2-§5): the difference of every pixel
// computed in parallel, row by row, then added in libvmaf's order (rows top
// to bottom, each left to right) into one double, which is the C code's
// sequential sum to the bit.
// Every § below is a section of docs/ciede.md.
#include <cstdint>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/ciede/ciede.h"
#include "extractors/powf_kind.h"
#include "kernels/ciede/ciede_ops.h"

namespace vmafhip {

namespace {

/// §2: the colours of pixel (x, y), the chroma sample repeated over the
/// pixels it covers (4:2:0: (x / 2, y / 2); 4:4:4: (x, y)).
template <typename T>
void row_differences(const FrameView &f, int y, int w, int ss, int bpc, float *out)
{
    const T *r[3] = {f.ref[0].row<T>(y), f.ref[1].row<T>(y >> ss), f.ref[2].row<T>(y >> ss)};
    const T *d[3] = {f.dis[0].row<T>(y), f.dis[1].row<T>(y >> ss), f.dis[2].row<T>(y >> ss)};
    const int powf_kind = host_powf_kind(); // the C library's powf here, whichever it is
    for (int x = 0; x < w; x++) {
        const int c = x >> ss;
        out[x] = ciede_pixel(r[0][x], r[1][c], r[2][c], d[0][x], d[1][c], d[2][c], bpc, powf_kind);
    }
}

} // namespace

void Ciede::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    const int w = g_.w, h = g_.h, ss = g_.ss_x(); // 4:2:0 or 4:4:4 (check())
    std::vector<float> de(static_cast<size_t>(w) * h);
    pool.parallel_for(h, 4, [&](int y0, int y1) {
        for (int y = y0; y < y1; y++) {
            float *out = de.data() + static_cast<size_t>(y) * w;
            if (g_.bpc > 8)
                row_differences<uint16_t>(f, y, w, ss, g_.bpc, out);
            else
                row_differences<uint8_t>(f, y, w, ss, g_.bpc, out);
        }
    });
    // §5: never split.
    double sum = 0.;
    for (const float d : de)
        sum += d;
    static_cast<CiedeAccum *>(accum)->sum = sum;
}

} // namespace vmafhip
