// Read-only views of caller-owned pictures and the frame geometry the
// metrics see (libvmaf's plane sizes).
#pragma once

#include <cstddef>
#include <cstdint>

#include "vmafhip.h"

namespace vmafhip {

/// One image plane. stride is in bytes and may be negative.
struct PlaneView {
    const uint8_t *data = nullptr;
    ptrdiff_t stride = 0;
    int w = 0, h = 0;

    template <typename T> const T *row(int y) const
    {
        return reinterpret_cast<const T *>(data + static_cast<ptrdiff_t>(y) * stride);
    }
};

/// Sizes and format shared by every metric of a context.
struct Geometry {
    int w = 0, h = 0;   ///< luma size
    int bpc = 8;        ///< bits per sample: 8, 10, 12 or 16
    VmafHipChroma chroma = VMAFHIP_CHROMA_420;

    int ss_x() const { return chroma == VMAFHIP_CHROMA_420 || chroma == VMAFHIP_CHROMA_422; }
    int ss_y() const { return chroma == VMAFHIP_CHROMA_420; }
    int planes() const { return chroma == VMAFHIP_CHROMA_400 ? 1 : 3; }
    int bytes_per_sample() const { return bpc > 8 ? 2 : 1; }
    /// Above 8 and below 16 bits a stored sample can exceed the bit depth's
    /// maximum: such frames are detected and refused, never scored.
    bool range_checked() const { return bpc > 8 && bpc < 16; }
    uint32_t max_sample() const { return (1u << bpc) - 1; }

    /// Plane size as the caller stores it (FFmpeg: ceil for subsampled chroma).
    int stored_w(int p) const { return p ? (w + ss_x()) >> ss_x() : w; }
    int stored_h(int p) const { return p ? (h + ss_y()) >> ss_y() : h; }
    /// Plane size libvmaf scores (floor for subsampled chroma; docs/psnr.md §2).
    int scored_w(int p) const { return p ? w >> ss_x() : w; }
    int scored_h(int p) const { return p ? h >> ss_y() : h; }
};

/// Earlier reference pictures an extractor may read (motion): luma only.
constexpr int MAX_LOOKBEHIND = 2;

/// A frame pair as the metrics read it: planes cropped to the scored sizes.
struct FrameView {
    PlaneView ref[3];
    PlaneView dis[3];
    /// Luma of the reference pictures of frames index-1 and index-2, for
    /// extractors with a look-behind; data is nullptr where there is none.
    PlaneView prev_ref[MAX_LOOKBEHIND];
    unsigned index = 0; ///< frame number, from 0
};

} // namespace vmafhip
