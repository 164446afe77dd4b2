// Which powf this process's C library computes, for kernels that must
// compute the same floats (kernels/c_powf.h).
#pragma once

#include "kernels/c_powf.h"

namespace vmafhip {

/// POWF_GLIBC_FUSED or POWF_GLIBC when powf gives, on inputs where they
/// differ, what glibc's FMA build or its plain build gives; otherwise
/// POWF_ROUNDED_POW. Decided once per process.
PowfKind host_powf_kind();

} // namespace vmafhip
