// Semi-planar pictures (nv12, p010 and kin) made from planar ones, for the
// tests that score both and compare.
#pragma once

#include <cstring>
#include <random>
#include <vector>

#include "tests/common/fixtures.h"
#include "vmafhip.h"

namespace testfx {

/// One picture in a semi-planar layout, made from a planar one: rows padded
/// by `pad` bytes; with `shift`, samples moved up by it and the bits below
/// filled with noise (they must not matter).
struct SemiPlanar {
    std::vector<uint8_t> luma, pairs;
    VmafHipPicture pic{};
    int rows[2]; ///< of luma and of the pairs

    SemiPlanar(const VmafHipPicture &planar, const Fixture &f, int shift, int pad,
               std::mt19937 &rng)
    {
        const int bps = f.bpc > 8 ? 2 : 1;
        const int sx = f.chroma != VMAFHIP_CHROMA_444, sy = f.chroma == VMAFHIP_CHROMA_420;
        const int cw = (f.w + sx) >> sx, ch = (f.h + sy) >> sy;
        const size_t lrow = static_cast<size_t>(f.w) * bps + pad, crow = 2 * cw * bps + pad;
        luma.assign(lrow * f.h, 0);
        pairs.assign(crow * ch, 0);
        const unsigned noise_mask = (1u << shift) - 1;
        auto put = [&](uint8_t *dst, int x, const VmafHipPicture &src, int p, int sx_, int y) {
            const uint8_t *row = static_cast<const uint8_t *>(src.data[p]) + y * src.stride[p];
            if (bps == 1) {
                dst[x] = row[sx_];
                return;
            }
            uint16_t v;
            std::memcpy(&v, row + 2 * sx_, 2);
            v = static_cast<uint16_t>((v << shift) | (rng() & noise_mask));
            std::memcpy(dst + 2 * x, &v, 2);
        };
        for (int y = 0; y < f.h; y++)
            for (int x = 0; x < f.w; x++)
                put(luma.data() + y * lrow, x, planar, 0, x, y);
        for (int y = 0; y < ch; y++)
            for (int x = 0; x < cw; x++) {
                put(pairs.data() + y * crow, 2 * x, planar, 1, x, y);
                put(pairs.data() + y * crow, 2 * x + 1, planar, 2, x, y);
            }
        pic.data[0] = luma.data();
        pic.data[1] = pairs.data();
        pic.stride[0] = static_cast<ptrdiff_t>(lrow);
        pic.stride[1] = static_cast<ptrdiff_t>(crow);
        rows[0] = f.h;
        rows[1] = ch;
    }
};

} // namespace testfx
