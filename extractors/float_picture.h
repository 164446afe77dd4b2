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

} // namespace vmafhip
