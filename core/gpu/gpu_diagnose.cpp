#include "core/gpu/gpu_diagnose.h"

#include <dlfcn.h>
#include <glob.h>
#include <unistd.h>

#include <fstream>
#include <regex>
#include <vector>

#include "base/log.h"

namespace vmafhip {

namespace {

// The paths matching a glob pattern.
std::vector<std::string> matching(const char *pattern)
{
    std::vector<std::string> out;
    glob_t g;
    if (glob(pattern, 0, nullptr, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; i++)
            out.emplace_back(g.gl_pathv[i]);
    globfree(&g);
    return out;
}

std::string cuda_version(int v)
{
    return strprintf("%d.%d", v / 1000, v % 1000 / 10);
}

} // namespace

GpuHostFacts gpu_host_facts(GpuPlatform platform)
{
    GpuHostFacts f;
    std::vector<std::string> nodes;
    if (platform == GpuPlatform::Nvidia) {
        if (void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
            f.driver_library = true;
            dlclose(h);
        }
        nodes = matching("/dev/nvidia[0-9]*");
        for (const std::string &n : matching("/dev/nvidiactl"))
            nodes.push_back(n);
        std::ifstream v("/proc/driver/nvidia/version");
        std::string line;
        std::smatch m;
        if (std::getline(v, line) && std::regex_search(line, m, std::regex(R"((\d+\.\d+(\.\d+)?))")))
            f.driver_release = m[1];
    } else {
        nodes = matching("/dev/kfd");
    }
    f.device_nodes = !nodes.empty();
    f.device_access = f.device_nodes;
    for (const std::string &n : nodes)
        if (access(n.c_str(), R_OK | W_OK) != 0)
            f.device_access = false;
    return f;
}

std::string gpu_absent_reason(GpuPlatform platform, GpuProbeError error, const GpuHostFacts &f,
                              const std::string &runtime_error)
{
    const std::string tail = runtime_error.empty() ? "" : " (" + runtime_error + ")";
    if (platform == GpuPlatform::Amd) {
        if (!f.device_nodes)
            return "no AMD GPU driver: there is no /dev/kfd (the amdgpu kernel driver is not loaded, "
                   "or there is no AMD GPU; in a container, pass /dev/kfd and /dev/dri through)" + tail;
        if (!f.device_access)
            return "/dev/kfd is there but cannot be opened for reading and writing (add the user "
                   "to the render and video groups)" + tail;
        if (error == GpuProbeError::NoDevice)
            return "the HIP runtime found no AMD GPU" + tail;
        return "the HIP runtime cannot use the AMD GPU driver" + tail;
    }
    // NVIDIA, through the CUDA runtime.
    const std::string release = f.driver_release.empty() ? "" : " " + f.driver_release;
    if (!f.driver_library && !f.device_nodes)
        return "no NVIDIA driver: libcuda.so.1 is not installed and there is no /dev/nvidia* "
               "device node (no NVIDIA GPU, or its driver is not installed)" + tail;
    if (!f.driver_library)
        return "the NVIDIA driver library libcuda.so.1 is not installed, though there are "
               "/dev/nvidia* device nodes (in a container: mount the driver libraries, as the "
               "NVIDIA container toolkit does)" + tail;
    if (!f.device_nodes)
        return "the NVIDIA driver library libcuda.so.1 is installed but there is no /dev/nvidia* "
               "device node: no NVIDIA GPU, or its kernel module is not loaded (in a container: "
               "pass the GPU through)" + tail;
    if (!f.device_access)
        return "the /dev/nvidia* device nodes cannot be opened for reading and writing (check "
               "their permissions)" + tail;
    if (error == GpuProbeError::InsufficientDriver) {
        std::string s = "the NVIDIA driver" + release;
        if (f.driver_cuda > 0)
            s += " supports CUDA up to " + cuda_version(f.driver_cuda);
        else
            s += " is too old";
        if (f.runtime_cuda > 0)
            s += "; this build's CUDA " + cuda_version(f.runtime_cuda) + " runtime needs a newer one";
        else
            s += " for this build's CUDA runtime";
        if (f.runtime_cuda >= 13000 && f.runtime_cuda < 14000)
            s += " (R580 or newer)";
        return s + tail;
    }
    if (error == GpuProbeError::NoDevice)
        return "the NVIDIA driver" + release + " found no GPU" + tail;
    return "the CUDA runtime cannot use the NVIDIA driver" + release + tail;
}

} // namespace vmafhip
