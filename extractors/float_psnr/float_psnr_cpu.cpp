// float_psnr CPU reference (docs/float_psnr.md §2.1): the float planes in
// parallel, then one sequential double sum, libvmaf's order to the bit. The
// terms are kernels/float_picture/float_picture_ops.h's, which the GPU runs too.
#include <cstddef>

#include "extractors/float_picture.h"
#include "extractors/float_psnr/float_psnr.h"
#include "kernels/float_picture/float_picture_ops.h"

namespace vmafhip {

void FloatPsnr::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    const FloatLuma l = float_luma(f, g_.bpc, 0, pool);
    double noise = 0;
    for (size_t i = 0; i < l.ref.size(); i++)
        noise += float_psnr_term(l.ref[i], l.dis[i]); // a float32 square, added as a double
    static_cast<FloatPsnrAccum *>(accum)->noise = noise;
}

} // namespace vmafhip
