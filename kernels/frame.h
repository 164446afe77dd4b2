// A staged frame pair as the kernels see it: planes in device memory, tightly
// packed (row pitch = width * bytes per sample), cropped to the sizes libvmaf
// scores. Host and device code share this POD; it needs no GPU runtime.
#pragma once

#include <cstdint>

namespace vmafhip {

/// A GPU stream as an opaque pointer (hipStream_t / cudaStream_t), so that
/// code built without a GPU runtime can carry it.
typedef void *GpuStream;

struct GpuPlane {
    const uint8_t *data; ///< device pointer
    int w, h;            ///< samples; pitch is w * bytes per sample
};

constexpr int GPU_MAX_LOOKBEHIND = 2;

struct GpuFrame {
    GpuPlane ref[3];
    GpuPlane dis[3];
    /// Luma of the reference pictures of the previous frames (index-1,
    /// index-2) for extractors with a look-behind. Always valid device memory
    /// of the luma size; before the first frames it holds stale samples,
    /// which the extractors ignore (they know the frame index on the host).
    GpuPlane prev_ref[GPU_MAX_LOOKBEHIND];
    /// Cb and Cr of those reference pictures (planar), where an extractor
    /// reads them (Metrics::lookbehind_chroma), with the same stale samples
    /// before the first frames; null planes otherwise.
    GpuPlane prev_ref_chroma[GPU_MAX_LOOKBEHIND][2];
    /// Luma of the distorted pictures of the same frames, where an extractor
    /// reads them (Metrics::lookbehind_dis: speed_temporal), with the same
    /// stale samples before the first frames; null planes otherwise.
    GpuPlane prev_dis[GPU_MAX_LOOKBEHIND];
    int planes; ///< planes staged: 1 (luma) or 3
    int bpc;    ///< bits per sample
};

} // namespace vmafhip
