// powf as libvmaf calls it, shared by CPU code and kernels (ciede, float_adm's
// p-norms). On the CPU it is the C library's powf, libvmaf's own call. On the
// GPU it is what the host's powf computes, where host_powf_kind()
// (extractors/powf_kind.h) recognises it as one of glibc's two builds
// (kernels/glibc_powf.h); elsewhere the device's double pow rounded to float,
// the correctly rounded power but within about 2^-50 of a halfway point
// between floats. glibc's powf (within 0.82 ulp) is another float in 1 of
// 1,600 to 25,000 results (every float x, y from 0.4 to 20). The device's
// own powf may be two float ulps off.
#pragma once

#include <math.h>

#include "kernels/glibc_powf.h"
#include "kernels/hd.h"

namespace vmafhip {

/// How the kernels compute powf (host_powf_kind() tells which to pass).
enum PowfKind : int {
    POWF_ROUNDED_POW = 0, ///< the double pow, rounded to float
    POWF_GLIBC = 1,       ///< glibc's powf, each product rounded
    POWF_GLIBC_FUSED = 2, ///< glibc's powf as its FMA build computes it
};

/// powf(x, y): the C library's on the host; on the device as `kind` says.
VMAFHIP_HD float c_powf(float x, float y, int kind)
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    if (kind == POWF_ROUNDED_POW)
        return static_cast<float>(::pow(static_cast<double>(x), static_cast<double>(y)));
    return glibc_powf(x, y, kind == POWF_GLIBC_FUSED);
#else
    (void)kind;
    return ::powf(x, y);
#endif
}

} // namespace vmafhip
