// The luma planes as the float family of libvmaf reads them (float_psnr,
// float_ansnr, float_moment): libvmaf's picture_copy, docs/float_psnr.md §1.
#pragma once

#include <vector>

#include "extractors/frame_view.h"

namespace vmafhip {

class ThreadPool;

/// Both luma planes of a frame as dense w x h float planes (row stride w).
struct FloatLuma {
    int w, h;
    std::vector<float> ref, dis;
};

/// §1: every luma sample v as float(v) / 2^(bpc - 8) + offset, in float32
/// (the division is exact; the offset, -128 for float_ansnr, is added as a
/// float). bpc is 8, 10, 12 or 16.
FloatLuma float_luma(const FrameView &f, int bpc, int offset, ThreadPool &pool);

/// §1 for any plane p into out (p.w x p.h, row-major): its rows split over
/// pool, or converted on the calling thread where pool is null (a caller
/// that already runs as one of a pool's tasks: SpEED's plane sides).
void float_plane(const PlaneView &p, int bpc, int offset, float *out, ThreadPool *pool);

} // namespace vmafhip
