// gpu_platform=none: the GPU backend explains that it was not built.
#include <cerrno>

#include "core/backend.h"

namespace vmafhip {

std::unique_ptr<Backend> make_hip_backend(const Metrics &, const VmafHipSettings &, const Logger &,
                                          int *ret, std::string *err, const HipTuning &)
{
    *ret = -ENODEV;
    *err = "built without GPU support (gpu_platform=none); use backend=cpu";
    return nullptr;
}

int hip_device_count()
{
    return 0;
}

} // namespace vmafhip
