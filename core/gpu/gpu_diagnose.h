// Why there is no usable GPU, in words: the runtime's own message for a
// machine without a GPU is often misleading (the CUDA runtime says "CUDA
// driver version is insufficient" when there is no driver at all), so the
// message is made from the runtime's error and what the machine has.
// Independent of the GPU runtime's headers: built (and tested) in every build.
#pragma once

#include <string>

namespace vmafhip {

enum class GpuPlatform { Nvidia, Amd };

/// What the runtime said when asked for its devices.
enum class GpuProbeError {
    NoDevice,           ///< hipErrorNoDevice / cudaErrorNoDevice, or a count of 0
    InsufficientDriver, ///< hipErrorInsufficientDriver / cudaErrorInsufficientDriver
    Other,              ///< anything else
};

/// What the machine has, as far as the GPU runtime needs it.
struct GpuHostFacts {
    bool driver_library = false; ///< NVIDIA: libcuda.so.1 loads
    bool device_nodes = false;   ///< NVIDIA: /dev/nvidiactl or /dev/nvidia<N>; AMD: /dev/kfd
    bool device_access = false;  ///< those nodes can be opened for reading and writing
    std::string driver_release;  ///< NVIDIA: the kernel module's version, e.g. "535.104.05"
    int driver_cuda = 0;         ///< NVIDIA: the CUDA version the driver supports (12020), 0: unknown
    int runtime_cuda = 0;        ///< NVIDIA: the CUDA runtime version of this build (13000), 0: unknown
};

/// The facts of this machine for `platform` (device nodes, driver library,
/// kernel module version); driver_cuda and runtime_cuda are left for the
/// caller, who has the runtime.
GpuHostFacts gpu_host_facts(GpuPlatform platform);

/// Why no GPU can be used, e.g. "no NVIDIA driver: libcuda.so.1 is not
/// installed and there is no /dev/nvidia* device node (cudaErrorInsufficientDriver)".
/// runtime_error is the runtime's name of the error (may be empty).
std::string gpu_absent_reason(GpuPlatform platform, GpuProbeError error, const GpuHostFacts &facts,
                              const std::string &runtime_error);

} // namespace vmafhip
