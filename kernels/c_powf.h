// powf as libvmaf calls it, shared by CPU code and kernels (ciede, float_adm's
// p-norms). On the CPU it is the C library's powf, libvmaf's own call. On the
// GPU it is the device's double pow rounded to float: the device's powf may
// be two float ulps off, while a double pow (itself within two double ulps)
// rounds to the correctly rounded float but where the exact power lies within
// about 2^-50 of a halfway point between floats; glibc's powf is correctly
// rounded in all but rare cases too (its bound is 0.82 ulp). The two agree
// wherever both round correctly; the pages that use it say what was measured.
#pragma once

#include <math.h>

#include "kernels/hd.h"

namespace vmafhip {

VMAFHIP_HD float c_powf(float x, float y)
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return static_cast<float>(::pow(static_cast<double>(x), static_cast<double>(y)));
#else
    return ::powf(x, y);
#endif
}

} // namespace vmafhip
