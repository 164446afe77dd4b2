// libvmaf's picture_copy() of one sample, which its float features (the
// float family, float VIF, SpEED) read their pictures through: shared by the
// CPU code and the kernels.
#pragma once

#include <stdint.h>

#include "kernels/hd.h"

namespace vmafhip {

/// Sample s of bpc bits on the 8-bit scale plus offset (0, or -128 to centre
/// it on 0): float(s), above 8 bits divided by 2^(bpc - 8) (exact), then the
/// offset added as a float, rounding as libvmaf's float32 sum does.
VMAFHIP_HD float picture_sample(uint32_t s, int bpc, int offset)
{
    const float v = bpc == 8 ? static_cast<float>(s)
                             : static_cast<float>(s) / static_cast<float>(1 << (bpc - 8));
    return v + static_cast<float>(offset);
}

} // namespace vmafhip
