#include "gpu_wait.h"

namespace cli {

bool wait_for_gpu(long long frames, const Format &fmt)
{
    if (frames <= 0)
        return false;
    const long long per_frame = static_cast<long long>(fmt.w) * fmt.h;
    // frames * per_frame >= kGpuWaitSamples, without overflowing.
    return per_frame > 0 && frames >= (kGpuWaitSamples + per_frame - 1) / per_frame;
}

} // namespace cli
