// The message that says why there is no usable GPU (core/gpu/gpu_diagnose.h): made
// from the runtime's error and what the machine has, not the runtime's text alone.
#include <gtest/gtest.h>

#include "core/gpu/gpu_diagnose.h"

using vmafhip::gpu_absent_reason;
using vmafhip::GpuHostFacts;
using vmafhip::GpuPlatform;
using vmafhip::GpuProbeError;

namespace {

GpuHostFacts facts(bool library, bool nodes, bool access = true)
{
    GpuHostFacts f;
    f.driver_library = library;
    f.device_nodes = nodes;
    f.device_access = nodes && access;
    return f;
}

std::string nvidia(GpuProbeError e, const GpuHostFacts &f, const char *name = "cudaErrorInsufficientDriver")
{
    return gpu_absent_reason(GpuPlatform::Nvidia, e, f, name);
}

} // namespace

TEST(GpuDiagnose, NvidiaNoDriverAtAll)
{
    // The CUDA runtime says "CUDA driver version is insufficient" here.
    EXPECT_EQ(nvidia(GpuProbeError::InsufficientDriver, facts(false, false)),
              "no NVIDIA driver: libcuda.so.1 is not installed and there is no /dev/nvidia* device "
              "node (no NVIDIA GPU, or its driver is not installed) (cudaErrorInsufficientDriver)");
    EXPECT_EQ(nvidia(GpuProbeError::NoDevice, facts(false, false), "cudaErrorNoDevice"),
              "no NVIDIA driver: libcuda.so.1 is not installed and there is no /dev/nvidia* device "
              "node (no NVIDIA GPU, or its driver is not installed) (cudaErrorNoDevice)");
}

TEST(GpuDiagnose, NvidiaLibraryWithoutDevice)
{
    const std::string m = nvidia(GpuProbeError::InsufficientDriver, facts(true, false));
    EXPECT_NE(m.find("libcuda.so.1 is installed but there is no /dev/nvidia* device node"), std::string::npos) << m;
    EXPECT_EQ(m.find("insufficient"), std::string::npos) << m;
}

TEST(GpuDiagnose, NvidiaDeviceWithoutLibrary)
{
    const std::string m = nvidia(GpuProbeError::InsufficientDriver, facts(false, true));
    EXPECT_NE(m.find("libcuda.so.1 is not installed, though there are /dev/nvidia* device nodes"),
              std::string::npos) << m;
}

TEST(GpuDiagnose, NvidiaNodesNotAccessible)
{
    const std::string m = nvidia(GpuProbeError::NoDevice, facts(true, true, false), "cudaErrorNoDevice");
    EXPECT_NE(m.find("/dev/nvidia* device nodes cannot be opened"), std::string::npos) << m;
}

TEST(GpuDiagnose, NvidiaDriverTooOld)
{
    GpuHostFacts f = facts(true, true);
    f.driver_release = "535.104.05";
    f.driver_cuda = 12020;
    f.runtime_cuda = 13000;
    EXPECT_EQ(nvidia(GpuProbeError::InsufficientDriver, f),
              "the NVIDIA driver 535.104.05 supports CUDA up to 12.2; this build's CUDA 13.0 runtime "
              "needs a newer one (R580 or newer) (cudaErrorInsufficientDriver)");
    f.driver_release.clear();
    f.driver_cuda = 0;
    EXPECT_EQ(nvidia(GpuProbeError::InsufficientDriver, f),
              "the NVIDIA driver is too old; this build's CUDA 13.0 runtime needs a newer one "
              "(R580 or newer) (cudaErrorInsufficientDriver)");
}

TEST(GpuDiagnose, NvidiaDriverWithoutGpu)
{
    GpuHostFacts f = facts(true, true);
    f.driver_release = "580.65.06";
    EXPECT_EQ(nvidia(GpuProbeError::NoDevice, f, "cudaErrorNoDevice"),
              "the NVIDIA driver 580.65.06 found no GPU (cudaErrorNoDevice)");
    EXPECT_EQ(nvidia(GpuProbeError::NoDevice, f, ""), "the NVIDIA driver 580.65.06 found no GPU");
    EXPECT_EQ(nvidia(GpuProbeError::Other, f, "cudaErrorOperatingSystem"),
              "the CUDA runtime cannot use the NVIDIA driver 580.65.06 (cudaErrorOperatingSystem)");
}

TEST(GpuDiagnose, Amd)
{
    const auto amd = [](GpuProbeError e, const GpuHostFacts &f) {
        return gpu_absent_reason(GpuPlatform::Amd, e, f, "hipErrorNoDevice");
    };
    EXPECT_EQ(amd(GpuProbeError::NoDevice, facts(false, false)),
              "no AMD GPU driver: there is no /dev/kfd (the amdgpu kernel driver is not loaded, or "
              "there is no AMD GPU; in a container, pass /dev/kfd and /dev/dri through) (hipErrorNoDevice)");
    EXPECT_NE(amd(GpuProbeError::NoDevice, facts(false, true, false)).find("/dev/kfd is there but cannot be opened"),
              std::string::npos);
    EXPECT_EQ(amd(GpuProbeError::NoDevice, facts(false, true)), "the HIP runtime found no AMD GPU (hipErrorNoDevice)");
}

TEST(GpuDiagnose, HostFactsOfThisMachine)
{
    // Whatever the machine has, the facts are consistent with it.
    for (GpuPlatform p : {GpuPlatform::Nvidia, GpuPlatform::Amd}) {
        const GpuHostFacts f = vmafhip::gpu_host_facts(p);
        EXPECT_TRUE(!f.device_access || f.device_nodes);
        EXPECT_FALSE(gpu_absent_reason(p, GpuProbeError::NoDevice, f, "").empty());
    }
}
