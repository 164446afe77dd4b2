// float_psnr CPU reference (docs/float_psnr.md §2.1): the float planes in
// parallel, then one sequential double sum, libvmaf's order to the bit.
#include <cstddef>

#include "extractors/float_picture.h"
#include "extractors/float_psnr/float_psnr.h"

namespace vmafhip {

void FloatPsnr::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    const FloatLuma l = float_luma(f, g_.bpc, 0, pool);
    double noise = 0;
    for (size_t i = 0; i < l.ref.size(); i++) {
        const float diff = l.ref[i] - l.dis[i];
        noise += diff * diff; // a float32 square, added as a double
    }
    static_cast<FloatPsnrAccum *>(accum)->noise = noise;
}

} // namespace vmafhip
