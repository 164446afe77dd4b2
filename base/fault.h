// Fault injection for the tests: make the n-th checked GPU runtime call of
// the process fail, so that every allocation, copy, launch and
// synchronisation failure path can be walked through in turn (tests/gpu).
// Disarmed, a check is one relaxed atomic load. Not exported from the
// shared library: only the tests, which link the internal archive, arm it.
#pragma once

namespace vmafhip {

/// Fail the n-th checked GPU call from now (n >= 1); 0 disarms.
void fault_arm_gpu(long n);

/// Checked GPU calls seen since fault_arm_gpu() armed the injection.
long fault_gpu_calls();

/// Called by every checked GPU call: true when this one must fail.
bool fault_gpu_now();

} // namespace vmafhip
