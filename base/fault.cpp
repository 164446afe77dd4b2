#include "base/fault.h"

#include <atomic>

namespace vmafhip {

namespace {

std::atomic<long> fail_at{0}; // 0: disarmed
std::atomic<long> calls{0};

} // namespace

void fault_arm_gpu(long n)
{
    calls.store(0, std::memory_order_relaxed);
    fail_at.store(n, std::memory_order_relaxed);
}

long fault_gpu_calls()
{
    return calls.load(std::memory_order_relaxed);
}

bool fault_gpu_now()
{
    const long at = fail_at.load(std::memory_order_relaxed);
    if (!at)
        return false; // disarmed: nothing shared is written on the hot path
    return calls.fetch_add(1, std::memory_order_relaxed) + 1 == at;
}

} // namespace vmafhip
