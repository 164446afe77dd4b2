// The GPU runtime of the process, started once per device on a thread of
// its own and shared by every context: the driver and the device's context
// (a few hundred milliseconds on an H200), the device's properties and the
// check that this build has code for it. Contexts that do not wait for it
// score on the CPU meanwhile (core/backend_handover.cpp); a process that
// ends while a device is still starting does not wait for that start.
#pragma once

#include <atomic>
#include <string>

#include "core/gpu/gpu_device.h"

namespace vmafhip {

/// Whether this machine can have a usable GPU at all, judged from what
/// costs no runtime start (device nodes, the driver library, GPU support in
/// this build). @return 0, or -ENODEV with *err saying why there is none.
int gpu_precheck(std::string *err);

/// Begin starting device `index`, once per process; returns at once.
void gpu_start(int index);

/// Wait until device `index` has started (starting it if nobody did) or
/// *cancel (may be nullptr) is true, then make it current on this thread.
/// @return 0 with *info; -ECANCELED; or the start's error with *err
///         (-ENODEV, -ENOTSUP, -EIO).
int gpu_join(int index, const std::atomic<bool> *cancel, GpuDeviceInfo *info, std::string *err);

/// Make every gpu_join() look at its cancel flag again.
void gpu_wake_waiters();

} // namespace vmafhip
