// The bits of a float and the float of some bits, in host and device code
// alike (the kernels' intrinsics on the device, memcpy on the host): for
// arithmetic that reads or builds IEEE fields, such as libvmaf's fast log2
// (float_vif) and the reciprocal table (float_adm).
#pragma once

#include <stdint.h>
#include <string.h>

#include "kernels/hd.h"

namespace vmafhip {

VMAFHIP_HD uint32_t float_bits(float f)
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return __float_as_uint(f);
#else
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
#endif
}

VMAFHIP_HD float bits_float(uint32_t u)
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return __uint_as_float(u);
#else
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
#endif
}

} // namespace vmafhip
