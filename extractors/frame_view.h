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
    /// How the caller's pictures hold the planes; the metrics always read
    /// planar pictures, samples in the low bits (the backends convert).
    VmafHipLayout layout = VMAFHIP_LAYOUT_PLANAR;

    int ss_x() const { return chroma == VMAFHIP_CHROMA_420 || chroma == VMAFHIP_CHROMA_422; }
    int ss_y() const { return chroma == VMAFHIP_CHROMA_420; }
    int planes() const { return chroma == VMAFHIP_CHROMA_400 ? 1 : 3; }
    int bytes_per_sample() const { return bpc > 8 ? 2 : 1; }
    /// Above 8 and below 16 bits a stored sample can exceed the bit depth's
    /// maximum: such frames are detected and refused, never scored. (Not
    /// where samples are in the high bits: shifted down, none can.)
    bool range_checked() const { return bpc > 8 && bpc < 16 && !sample_shift(); }
    uint32_t max_sample() const { return (1u << bpc) - 1; }

    /// Plane size as the caller stores it (FFmpeg: ceil for subsampled chroma).
    int stored_w(int p) const { return p ? (w + ss_x()) >> ss_x() : w; }
    int stored_h(int p) const { return p ? (h + ss_y()) >> ss_y() : h; }
    /// Plane size libvmaf scores (floor for subsampled chroma; docs/psnr.md §2).
    int scored_w(int p) const { return p ? w >> ss_x() : w; }
    int scored_h(int p) const { return p ? h >> ss_y() : h; }

    /// Semi-planar pictures: picture plane 1 holds Cb, Cr pairs.
    bool semi_planar() const { return layout != VMAFHIP_LAYOUT_PLANAR; }
    /// Bits a stored sample is shifted up by (p010: 6); the backends shift down.
    int sample_shift() const { return layout == VMAFHIP_LAYOUT_NV_MSB ? 16 - bpc : 0; }
    /// Picture planes that hold `planes` metric planes (1: luma; 3: with chroma).
    int picture_planes(int planes) const { return semi_planar() && planes > 1 ? 2 : planes; }
    /// Samples per row of picture plane q, stored (ceil-size chroma) and read.
    int stored_row(int q) const { return semi_planar() && q == 1 ? 2 * stored_w(1) : stored_w(q); }
    int scored_row(int q) const { return semi_planar() && q == 1 ? 2 * scored_w(1) : scored_w(q); }
};

/// Earlier reference pictures an extractor may read (motion, float_motion).
constexpr int MAX_LOOKBEHIND = 2;

/// A frame pair, planes cropped to the scored sizes. The metrics read it
/// planar; a backend gets it in the context's layout (Geometry::layout): a
/// semi-planar picture has its Cb, Cr pairs in ref[1] / dis[1] (w: twice the
/// chroma width, in samples) and nothing in ref[2] / dis[2].
struct FrameView {
    PlaneView ref[3];
    PlaneView dis[3];
    /// Luma of the reference pictures of frames index-1 and index-2, for
    /// extractors with a look-behind; data is nullptr where there is none.
    PlaneView prev_ref[MAX_LOOKBEHIND];
    /// Cb and Cr of those reference pictures (planar), where an extractor
    /// reads them (Extractor::lookbehind_chroma); data is nullptr otherwise.
    PlaneView prev_ref_chroma[MAX_LOOKBEHIND][2];
    /// Luma of the distorted pictures of frames index-1 and index-2, where the
    /// CPU backend scores (speed_temporal); data is nullptr where there is none.
    PlaneView prev_dis[MAX_LOOKBEHIND];
    unsigned index = 0; ///< frame number, from 0
};

} // namespace vmafhip
