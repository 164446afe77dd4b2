// gpu_platform=none: the GPU backend explains that it was not built.
#include <cerrno>

#include "core/backend.h"
#include "core/gpu/gpu_device.h"
#include "core/gpu/gpu_start.h"

namespace vmafhip {

namespace {

const char *const kNotBuilt = "built without GPU support (gpu_platform=none): use the CPU backend";

} // namespace

int gpu_precheck(std::string *err)
{
    *err = kNotBuilt;
    return -ENODEV;
}

void gpu_start(int) {}

int gpu_join(int, const std::atomic<bool> *, GpuDeviceInfo *, std::string *err)
{
    *err = kNotBuilt;
    return -ENODEV;
}

void gpu_wake_waiters() {}

std::unique_ptr<Backend> make_hip_backend(const Metrics &, const VmafHipSettings &, const Logger &,
                                          int *ret, std::string *err, const HipTuning &,
                                          const std::atomic<bool> *)
{
    *ret = -ENODEV;
    *err = kNotBuilt;
    return nullptr;
}

int gpu_memory_info(size_t *, size_t *)
{
    return -ENODEV;
}

int gpu_measure_h2d(size_t, bool, int, double *, std::string *err)
{
    *err = "built without GPU support (gpu_platform=none)";
    return -ENODEV;
}

int hip_device_count()
{
    return 0;
}

long shared_reference_copies()
{
    return 0;
}

} // namespace vmafhip
