// vmafhip_strerror: the meaning of each negative errno this library returns.
#include <cerrno>

#include "vmafhip.h"

extern "C" const char *vmafhip_strerror(int err)
{
    switch (err) {
    case 0: return "success";
    case -EINVAL: return "invalid argument";
    case -ERANGE: return "value out of range";
    case -ENOMEM: return "out of memory";
    case -ENODEV: return "no usable GPU";
    case -ENOTSUP: return "not supported";
    case -EAGAIN: return "not ready yet";
    case -EIO: return "GPU runtime failure";
    case -ENOENT: return "no such file or directory";
    case -EACCES: return "permission denied";
    case -ENOSPC: return "no space left on device";
    default: return err < 0 ? "unknown error" : "not an error code";
    }
}
