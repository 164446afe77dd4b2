// The bits of a float or double and the number of some bits, in host and
// device code alike (the kernels' intrinsics on the device, memcpy on the
// host): for arithmetic that reads or builds IEEE fields, such as libvmaf's
// fast log2 (float_vif), the reciprocal table (float_adm) and glibc's powf.
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

VMAFHIP_HD uint64_t double_bits(double d)
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return static_cast<uint64_t>(__double_as_longlong(d));
#else
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
#endif
}

VMAFHIP_HD double bits_double(uint64_t u)
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return __longlong_as_double(static_cast<long long>(u));
#else
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
#endif
}

} // namespace vmafhip
