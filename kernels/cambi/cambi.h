// CAMBI kernels (docs/cambi.md): preprocessing, mask, mode filter,
// c-values and the per-scale pooling of one or two pictures per frame.
#pragma once

#include <cstddef>

#include "kernels/cambi/cambi_ops.h"
#include "kernels/frame.h"
#include "kernels/gpu_compat.h"

namespace vmafhip {

/// One picture's pass (§3): the distorted picture at the encode size, or the
/// reference at the source size. Host-built by cambi_gpu.cpp.
struct CambiGpuPass {
    int32_t w, h;                 ///< target size (§4.1)
    int32_t ws;                   ///< adjusted window, odd (§2.5); pad = ws >> 1
    int32_t mask_index;           ///< §2.6
    int32_t sx, sy;               ///< resize (§4.2): offsets of the index vectors in the
                                  ///< constants' int area, or -1 when the size is the picture's
    int32_t sw[CAMBI_SCALES];     ///< scale sizes (§6)
    int32_t sh[CAMBI_SCALES];
    int32_t k[CAMBI_SCALES];      ///< c-values pooled per scale (§9)
};

/// Everything the kernels of one frame need.
struct CambiGpuParams {
    CambiTables t;
    int32_t bpc;                  ///< 8, 10, 12 or 16
    int32_t anti_dither;          ///< enc_bitdepth < 10 (§4.3)
    int32_t speedup;              ///< one halving before scale 0 (§6)
    int32_t passes;               ///< 1, or 2 with full_ref
    CambiGpuPass pass[2];         ///< distorted, reference
};

/// Device constants: R (§2.7) then the resize index vectors, as ints.
constexpr size_t CAMBI_CONST_INTS = CAMBI_RECIPROCALS * sizeof(float) / sizeof(int32_t);

/// Device scratch memory cambi_enqueue() needs.
size_t cambi_workspace_bytes(const CambiGpuParams &p);

/// Enqueue the CAMBI scores of frame f: D (and S with full_ref) into
/// d_out (device), which the caller zeroes. constants: as above.
void cambi_enqueue(hipStream_t stream, const CambiGpuParams &p, const GpuFrame &f,
                   const void *constants, void *workspace, CambiAccum *d_out);

} // namespace vmafhip
