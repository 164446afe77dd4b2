#include "core/gpu_device.h"

#include <cerrno>

#include "core/gpu_check.h"
#include "kernels/sample_check.h"

#ifndef VMAFHIP_GPU_TARGETS
#define VMAFHIP_GPU_TARGETS "unknown"
#endif

namespace vmafhip {

int gpu_error(hipError_t e, const char *stmt, const char *file, int line, std::string *err)
{
    *err = strprintf("%s failed (%s:%d): %s (%s)", stmt, file, line, hipGetErrorString(e),
                     hipGetErrorName(e));
    (void)hipGetLastError(); // clear the sticky non-fatal error so the process stays usable
    switch (e) {
    case hipErrorOutOfMemory: return -ENOMEM;
    case hipErrorNoDevice:
    case hipErrorInvalidDevice:
    case hipErrorInsufficientDriver: return -ENODEV;
    default: return -EIO;
    }
}

int hip_device_count()
{
    int n = 0;
    if (hipGetDeviceCount(&n) != hipSuccess) {
        (void)hipGetLastError();
        return 0;
    }
    return n;
}

int gpu_select_device(int index, GpuDeviceInfo *info, std::string *err)
{
    int count = 0;
    const hipError_t e = hipGetDeviceCount(&count);
    if (e != hipSuccess || count == 0) {
        *err = e != hipSuccess ? strprintf("no usable GPU: %s (%s)", hipGetErrorString(e),
                                           hipGetErrorName(e))
                               : std::string("no GPU found");
        (void)hipGetLastError();
        return -ENODEV;
    }
    if (index >= count) {
        *err = strprintf("GPU %d requested, but %d GPU%s present: valid device indices are 0 to %d",
                         index, count, count == 1 ? " is" : "s are", count - 1);
        return -ENODEV;
    }
    GPU_TRY(hipSetDevice(index));
    hipDeviceProp_t p;
    GPU_TRY(hipGetDeviceProperties(&p, index));
    info->index = index;
    info->name = p.name;
#if defined(GPU_PLATFORM_NVIDIA)
    info->arch = strprintf("sm_%d%d", p.major, p.minor);
#else
    info->arch = p.gcnArchName;
#endif // defined(GPU_PLATFORM_NVIDIA)
    info->total_mem = p.totalGlobalMem;
    info->sm_count = p.multiProcessorCount;
    info->warp_size = p.warpSize;
    const hipError_t probe = gpu_probe_kernels();
    if (probe != hipSuccess) {
        (void)hipGetLastError();
        *err = strprintf("GPU %d (%s, %s) has no device code in this build, which targets %s: "
                         "rebuild with that architecture added (meson options nvidia_archs / "
                         "amd_targets): %s",
                         index, info->name.c_str(), info->arch.c_str(), VMAFHIP_GPU_TARGETS,
                         hipGetErrorString(probe));
        return -ENOTSUP;
    }
    return 0;
}

} // namespace vmafhip
