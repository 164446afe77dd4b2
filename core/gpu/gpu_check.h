// One checked-call macro for the GPU runtime: records the statement, the
// place and the runtime's error text, and maps the failure onto an errno
// (out of memory -> -ENOMEM, no device -> -ENODEV, anything else -> -EIO).
#pragma once

#include <string>

#include "base/fault.h"
#include "kernels/gpu_compat.h"

namespace vmafhip {

int gpu_error(hipError_t e, const char *stmt, const char *file, int line, std::string *err);

} // namespace vmafhip

/// In a function returning int with a `std::string *err` in scope. A call
/// the tests' fault injection picks is not made and fails as out of memory.
#define GPU_TRY(call)                                                                  \
    do {                                                                               \
        const hipError_t gpu_try_e_ =                                                  \
            ::vmafhip::fault_gpu_now() ? hipErrorOutOfMemory : (call);                 \
        if (gpu_try_e_ != hipSuccess)                                                  \
            return ::vmafhip::gpu_error(gpu_try_e_, #call, __FILE__, __LINE__, err);   \
    } while (0)
