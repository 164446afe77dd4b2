// Semi-planar pictures (nv12, p010 and kin) made planar on the GPU: the
// Cb, Cr pairs split into the two chroma planes the metrics read, samples
// in the high bits of their 16-bit words shifted down.
#pragma once

#include "kernels/frame.h"
#include "kernels/gpu_compat.h"

namespace vmafhip {

/// For both pictures of f: pairs[pic] (device, pic 0 reference, 1
/// distorted) holds f's chroma size of Cb, Cr pairs, packed; split them into
/// planes 1 and 2, shifted down by `shift` bits. With shift, also shift
/// luma down in place. planes: f's metric planes (1: luma only).
void semi_planar_enqueue(hipStream_t stream, const GpuFrame &f, const uint8_t *const pairs[2],
                         int planes, int shift);

} // namespace vmafhip
