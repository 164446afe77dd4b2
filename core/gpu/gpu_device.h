// Device discovery and selection for the GPU backend.
#pragma once

#include <string>

#include "base/log.h"

namespace vmafhip {

struct GpuDeviceInfo {
    int index = 0;
    std::string name;  ///< e.g. "NVIDIA H200"
    std::string arch;  ///< e.g. "sm_90" or "gfx90a"
    size_t total_mem = 0;
    int sm_count = 0;
    int warp_size = 0;
};

/// Free and total memory of the current device (tests watch for leaks).
/// @return 0 or -ENODEV.
int gpu_memory_info(size_t *free_bytes, size_t *total_bytes);

/// Host-to-device copy rate of a buffer of `bytes` from pinned or pageable
/// host memory on the current device, in GB/s (best of `repeats`).
/// @return 0 or a negative errno with *err set.
int gpu_measure_h2d(size_t bytes, bool pinned, int repeats, double *gbps, std::string *err);

/// Make device `index` current for this thread after checking it exists and
/// that this build has kernels for it. @return 0, -ENODEV or -ENOTSUP.
int gpu_select_device(int index, GpuDeviceInfo *info, std::string *err);

} // namespace vmafhip
