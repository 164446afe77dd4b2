#include "core/gpu/capture_branches.h"

#include "core/gpu/gpu_check.h"

namespace vmafhip {

CaptureBranches::~CaptureBranches()
{
    release();
}

void CaptureBranches::release()
{
    for (hipEvent_t e : ended_)
        (void)hipEventDestroy(e);
    for (hipStream_t s : streams_)
        (void)hipStreamDestroy(s);
    if (forked_)
        (void)hipEventDestroy(forked_);
    ended_.clear();
    streams_.clear();
    forked_ = nullptr;
}

int CaptureBranches::init(int n, std::string *err)
{
    const int ret = [&] {
        GPU_TRY(hipEventCreateWithFlags(&forked_, hipEventDisableTiming));
        for (int i = 0; i < n; i++) {
            hipStream_t s = nullptr;
            GPU_TRY(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
            streams_.push_back(s);
            hipEvent_t e = nullptr;
            GPU_TRY(hipEventCreateWithFlags(&e, hipEventDisableTiming));
            ended_.push_back(e);
        }
        return 0;
    }();
    if (ret < 0)
        release();
    return ret;
}

int CaptureBranches::fork(hipStream_t main, int n, std::string *err)
{
    GPU_TRY(hipEventRecord(forked_, main));
    for (int i = 0; i < n; i++)
        GPU_TRY(hipStreamWaitEvent(streams_[i], forked_, 0));
    return 0;
}

int CaptureBranches::join(hipStream_t main, int n, std::string *err)
{
    for (int i = 0; i < n; i++) {
        GPU_TRY(hipEventRecord(ended_[i], streams_[i]));
        GPU_TRY(hipStreamWaitEvent(main, ended_[i], 0));
    }
    return 0;
}

} // namespace vmafhip
