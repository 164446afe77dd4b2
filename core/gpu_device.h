// Device discovery and selection for the GPU backend.
#pragma once

#include <string>

#include "core/log.h"

namespace vmafhip {

struct GpuDeviceInfo {
    int index = 0;
    std::string name;  ///< e.g. "NVIDIA H200"
    std::string arch;  ///< e.g. "sm_90" or "gfx90a"
    size_t total_mem = 0;
    int sm_count = 0;
    int warp_size = 0;
};

/// Make device `index` current for this thread after checking it exists and
/// that this build has kernels for it. @return 0, -ENODEV or -ENOTSUP.
int gpu_select_device(int index, GpuDeviceInfo *info, std::string *err);

} // namespace vmafhip
