// vmafhip_strerror: the meaning of each negative errno this library returns.
#include <cerrno>
#include <cstring>

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
    // What opening or writing a log file may also give.
    case -ENAMETOOLONG: return "file name too long";
    case -EISDIR: return "is a directory";
    case -ENOTDIR: return "not a directory";
    case -EFBIG: return "file too large";
    case -EROFS: return "read-only file system";
    case -ELOOP: return "too many levels of symbolic links";
    case -EPERM: return "operation not permitted";
    case -EDQUOT: return "disk quota exceeded";
    case -EPIPE: return "broken pipe";
    default:
        break;
    }
    if (err >= 0)
        return "not an error code";
    // Any other errno (the log file's own), as the C library says it.
    const char *desc = strerrordesc_np(-err);
    return desc ? desc : "unknown error";
}
