#include "clip.h"

#include <algorithm>

namespace cli {

long long frames_to_score(long long ref_frames, long long dis_frames, int skip_ref, int skip_dist,
                          int frame_cnt)
{
    long long n = frame_cnt > 0 ? frame_cnt : -1;
    const long long left[2] = {ref_frames < 0 ? -1 : std::max(0LL, ref_frames - skip_ref),
                               dis_frames < 0 ? -1 : std::max(0LL, dis_frames - skip_dist)};
    for (long long c : left)
        if (c >= 0 && (n < 0 || c < n))
            n = c;
    return n;
}

bool wait_for_gpu(long long frames, const Format &fmt)
{
    if (frames <= 0)
        return false;
    const long long per_frame = static_cast<long long>(fmt.w) * fmt.h;
    // frames * per_frame >= kGpuWaitSamples, without overflowing.
    return per_frame > 0 && frames >= (kGpuWaitSamples + per_frame - 1) / per_frame;
}

} // namespace cli
