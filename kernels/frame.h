// A staged frame pair as the kernels see it: planes in device memory, tightly
// packed (row pitch = width * bytes per sample), cropped to the sizes libvmaf
// scores. Host and device code share this POD.
#pragma once

#include <cstdint>

namespace vmafhip {

struct GpuPlane {
    const uint8_t *data; ///< device pointer
    int w, h;            ///< samples; pitch is w * bytes per sample
};

struct GpuFrame {
    GpuPlane ref[3];
    GpuPlane dis[3];
    int planes; ///< planes staged: 1 (luma) or 3
    int bpc;    ///< bits per sample
};

} // namespace vmafhip
