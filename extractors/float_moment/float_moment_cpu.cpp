// float_moment CPU reference (docs/float_psnr.md §4): the float planes in
// parallel, then the sequential double sums, libvmaf's order to the bit. The
// squares are kernels/float_picture/float_picture_ops.h's, which the GPU runs too.
#include <vector>

#include "extractors/float_moment/float_moment.h"
#include "extractors/float_picture.h"
#include "kernels/float_picture/float_picture_ops.h"

namespace vmafhip {

namespace {

/// The sum of the samples and the sum of their float32 squares.
void moments(const std::vector<float> &plane, double *first, double *second)
{
    double s1 = 0, s2 = 0;
    for (const float v : plane) {
        s1 += v;
        s2 += float_moment_square(v);
    }
    *first = s1;
    *second = s2;
}

} // namespace

void FloatMoment::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    FloatMomentAccum &a = *static_cast<FloatMomentAccum *>(accum);
    const FloatLuma l = float_luma(f, g_.bpc, 0, pool);
    moments(l.ref, &a.ref1, &a.ref2);
    moments(l.dis, &a.dis1, &a.dis2);
}

} // namespace vmafhip
