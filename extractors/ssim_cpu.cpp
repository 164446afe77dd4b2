// Placeholder: replaced by the float_ssim CPU reference.
#include "extractors/ssim.h"

namespace vmafhip {
void ssim_cpu(const Ssim &, const Geometry &, const FrameView &, SsimAccum *a, ThreadPool &) { *a = SsimAccum{}; }
} // namespace vmafhip
