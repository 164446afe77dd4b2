#include "core/gpu/gpu_start.h"

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <map>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>

#include "core/gpu/gpu_check.h"
#include "core/gpu/gpu_diagnose.h"

namespace vmafhip {

namespace {

struct DeviceStart {
    bool done = false;
    int ret = 0;
    GpuDeviceInfo info;
    std::string err;
};

struct Registry {
    std::mutex m;
    std::condition_variable cv;
    std::map<int, DeviceStart> starts; ///< a device's entry exists once its start began
};

// Never destroyed: a start may still run while the process exits.
Registry &registry()
{
    static Registry *r = new Registry;
    return *r;
}

void run_start(int index)
{
    DeviceStart s;
    try {
        s.ret = gpu_select_device(index, &s.info, &s.err);
    } catch (const std::bad_alloc &) {
        s.ret = -ENOMEM;
        s.err = "out of host memory while starting the GPU";
    }
    s.done = true;
    Registry &r = registry();
    {
        std::lock_guard<std::mutex> lock(r.m);
        r.starts[index] = std::move(s);
    }
    r.cv.notify_all();
}

} // namespace

int gpu_precheck(std::string *err)
{
    // Loading the driver library to look costs a millisecond or two; a host
    // found usable stays so for the process (each context's open asks).
    static std::atomic<bool> usable{false};
    if (usable.load(std::memory_order_relaxed))
        return 0;
#if defined(GPU_PLATFORM_NVIDIA)
    const GpuPlatform platform = GpuPlatform::Nvidia;
#else
    const GpuPlatform platform = GpuPlatform::Amd;
#endif // defined(GPU_PLATFORM_NVIDIA)
    const GpuHostFacts f = gpu_host_facts(platform);
    const bool library = platform == GpuPlatform::Amd || f.driver_library;
    if (library && f.device_nodes && f.device_access) {
        usable.store(true, std::memory_order_relaxed);
        return 0;
    }
    *err = "no usable GPU: " + gpu_absent_reason(platform, GpuProbeError::NoDevice, f, "");
    return -ENODEV;
}

void gpu_start(int index)
{
    Registry &r = registry();
    {
        std::lock_guard<std::mutex> lock(r.m);
        if (!r.starts.emplace(index, DeviceStart()).second)
            return; // started already, or starting
    }
    try {
        std::thread(run_start, index).detach();
    } catch (const std::system_error &) {
        run_start(index); // no thread to spare: start it here
    }
}

int gpu_join(int index, const std::atomic<bool> *cancel, GpuDeviceInfo *info, std::string *err)
{
    gpu_start(index);
    Registry &r = registry();
    {
        std::unique_lock<std::mutex> lock(r.m);
        const DeviceStart &s = r.starts[index];
        r.cv.wait(lock, [&] { return s.done || (cancel && cancel->load()); });
        if (!s.done)
            return -ECANCELED;
        if (s.ret < 0) {
            *err = s.err;
            return s.ret;
        }
        *info = s.info;
    }
    // The current device is per thread.
    GPU_TRY(hipSetDevice(index));
    return 0;
}

void gpu_wake_waiters()
{
    Registry &r = registry();
    // Under the lock: a waiter between its check and its sleep cannot miss it.
    std::lock_guard<std::mutex> lock(r.m);
    r.cv.notify_all();
}

} // namespace vmafhip
