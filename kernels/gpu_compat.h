// gpu_compat.h: the HIP runtime names this project uses, for both platforms.
// AMD (hipcc / clang -x hip, or a host compiler with __HIP_PLATFORM_AMD__):
// the real HIP headers. NVIDIA (nvcc, or a host compiler with
// GPU_PLATFORM_NVIDIA): each name mapped onto CUDA, signatures identical.
// Names only: device helpers live in kernels/device/.
#pragma once

#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP__) || defined(__HIPCC__)
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime.h>
#define GPU_PLATFORM_AMD 1

#elif defined(__CUDACC__) || defined(GPU_PLATFORM_NVIDIA)
#include <cuda_runtime.h>
#ifndef GPU_PLATFORM_NVIDIA
#define GPU_PLATFORM_NVIDIA 1
#endif

typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
typedef cudaDeviceProp hipDeviceProp_t;
typedef cudaGraph_t hipGraph_t;
typedef cudaGraphExec_t hipGraphExec_t;

#define hipSuccess cudaSuccess
#define hipErrorInvalidValue cudaErrorInvalidValue
#define hipErrorOutOfMemory cudaErrorMemoryAllocation
#define hipErrorNoDevice cudaErrorNoDevice
#define hipErrorInvalidDevice cudaErrorInvalidDevice
#define hipErrorNotReady cudaErrorNotReady
#define hipErrorInsufficientDriver cudaErrorInsufficientDriver
#define hipErrorNoBinaryForGpu cudaErrorNoKernelImageForDevice

#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipHostMallocDefault cudaHostAllocDefault
#define hipHostMallocPortable cudaHostAllocPortable
#define hipHostRegisterDefault cudaHostRegisterDefault
#define hipHostRegisterPortable cudaHostRegisterPortable
#define hipStreamNonBlocking cudaStreamNonBlocking
#define hipEventDisableTiming cudaEventDisableTiming
#define hipEventDefault cudaEventDefault
#define hipStreamCaptureModeThreadLocal cudaStreamCaptureModeThreadLocal

#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipHostMalloc cudaHostAlloc
#define hipHostFree cudaFreeHost
#define hipHostRegister cudaHostRegister
#define hipHostUnregister cudaHostUnregister
#define hipMemcpy cudaMemcpy
#define hipMemcpyAsync cudaMemcpyAsync
#define hipMemcpy2DAsync cudaMemcpy2DAsync
#define hipMemsetAsync cudaMemsetAsync
#define hipMemGetInfo cudaMemGetInfo
#define hipStreamCreateWithFlags cudaStreamCreateWithFlags
#define hipStreamSynchronize cudaStreamSynchronize
#define hipStreamWaitEvent cudaStreamWaitEvent
#define hipStreamDestroy cudaStreamDestroy
#define hipStreamBeginCapture cudaStreamBeginCapture
#define hipStreamEndCapture cudaStreamEndCapture
#define hipGraphInstantiate(exec, graph, a, b, c) cudaGraphInstantiate(exec, graph, 0)
#define hipGraphLaunch cudaGraphLaunch
#define hipGraphDestroy cudaGraphDestroy
#define hipGraphExecDestroy cudaGraphExecDestroy
#define hipEventCreateWithFlags cudaEventCreateWithFlags
#define hipEventRecord cudaEventRecord
#define hipEventQuery cudaEventQuery
#define hipEventSynchronize cudaEventSynchronize
#define hipEventElapsedTime cudaEventElapsedTime
#define hipEventDestroy cudaEventDestroy
#define hipGetDeviceCount cudaGetDeviceCount
#define hipSetDevice cudaSetDevice
#define hipGetDevice cudaGetDevice
#define hipGetDeviceProperties cudaGetDeviceProperties
#define hipFuncGetAttributes cudaFuncGetAttributes
#define hipFuncAttributes cudaFuncAttributes
#define hipGetLastError cudaGetLastError
#define hipGetErrorString cudaGetErrorString
#define hipGetErrorName cudaGetErrorName
#define hipDriverGetVersion cudaDriverGetVersion
#define hipRuntimeGetVersion cudaRuntimeGetVersion

#else
#error "gpu_compat.h: compile with hipcc/clang -x hip (AMD) or nvcc (NVIDIA), or define GPU_PLATFORM_NVIDIA / __HIP_PLATFORM_AMD__ for host files"
#endif // platform
