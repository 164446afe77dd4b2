#include "core/gpu/gpu_device.h"

#include <cerrno>
#include <cstring>
#include <vector>

#include "core/gpu/gpu_check.h"
#include "core/gpu/gpu_diagnose.h"
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

int gpu_memory_info(size_t *free_bytes, size_t *total_bytes)
{
    if (hipMemGetInfo(free_bytes, total_bytes) != hipSuccess) {
        (void)hipGetLastError();
        return -ENODEV;
    }
    return 0;
}

int gpu_measure_h2d(size_t bytes, bool pinned, int repeats, double *gbps, std::string *err)
{
    void *dev = nullptr, *host = nullptr;
    std::vector<uint8_t> pageable;
    hipStream_t stream = nullptr;
    hipEvent_t t0 = nullptr, t1 = nullptr;
    int ret = 0;
    // One cleanup path for every exit below.
    auto run = [&]() -> int {
        GPU_TRY(hipMalloc(&dev, bytes));
        if (pinned) {
            GPU_TRY(hipHostMalloc(&host, bytes, hipHostMallocDefault));
        } else {
            pageable.assign(bytes, 1);
            host = pageable.data();
        }
        std::memset(host, 1, bytes);
        GPU_TRY(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
        GPU_TRY(hipEventCreateWithFlags(&t0, hipEventDefault));
        GPU_TRY(hipEventCreateWithFlags(&t1, hipEventDefault));
        float best = 0;
        for (int i = 0; i <= repeats; i++) { // the first copy warms up
            GPU_TRY(hipEventRecord(t0, stream));
            GPU_TRY(hipMemcpyAsync(dev, host, bytes, hipMemcpyHostToDevice, stream));
            GPU_TRY(hipEventRecord(t1, stream));
            GPU_TRY(hipEventSynchronize(t1));
            float ms = 0;
            GPU_TRY(hipEventElapsedTime(&ms, t0, t1));
            if (i && (best == 0 || ms < best))
                best = ms;
        }
        *gbps = static_cast<double>(bytes) / (best * 1e6);
        return 0;
    };
    ret = run();
    if (t0)
        (void)hipEventDestroy(t0);
    if (t1)
        (void)hipEventDestroy(t1);
    if (stream)
        (void)hipStreamDestroy(stream);
    if (pinned && host)
        (void)hipHostFree(host);
    (void)hipFree(dev);
    return ret;
}

int gpu_select_device(int index, GpuDeviceInfo *info, std::string *err)
{
    int count = 0;
    const hipError_t e = hipGetDeviceCount(&count);
    if (e != hipSuccess || count == 0) {
        (void)hipGetLastError();
#if defined(GPU_PLATFORM_NVIDIA)
        const GpuPlatform platform = GpuPlatform::Nvidia;
#else
        const GpuPlatform platform = GpuPlatform::Amd;
#endif // defined(GPU_PLATFORM_NVIDIA)
        GpuHostFacts facts = gpu_host_facts(platform);
        int v = 0;
        if (platform == GpuPlatform::Nvidia) {
            if (hipDriverGetVersion(&v) == hipSuccess)
                facts.driver_cuda = v;
            if (hipRuntimeGetVersion(&v) == hipSuccess)
                facts.runtime_cuda = v;
            (void)hipGetLastError();
        }
        const GpuProbeError kind = e == hipSuccess || e == hipErrorNoDevice ? GpuProbeError::NoDevice
                                   : e == hipErrorInsufficientDriver ? GpuProbeError::InsufficientDriver
                                                                     : GpuProbeError::Other;
        *err = "no usable GPU: " + gpu_absent_reason(platform, kind, facts,
                                                     e == hipSuccess ? "" : hipGetErrorName(e));
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
    // The reductions handle the two widths GPUs have (kernels/device/warp.h);
    // any other would sum wrongly, so refuse it.
    if (p.warpSize != 32 && p.warpSize != 64) {
        *err = strprintf("GPU %d (%s, %s) reports a warp size of %d: the kernels handle warps of "
                         "32 or 64 lanes",
                         index, info->name.c_str(), info->arch.c_str(), p.warpSize);
        return -ENOTSUP;
    }
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
