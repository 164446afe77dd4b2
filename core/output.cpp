// Log writers (placeholder until the writers land).
#include <cerrno>

#include "core/context.h"

extern "C" int vmafhip_write_log(VmafHipContext *, const char *, enum VmafHipLogFormat, unsigned)
{
    return -ENOTSUP;
}
