// Reading the caller's settings safely: enum fields as stored.
#pragma once

#include <cstring>
#include <type_traits>

#include "vmafhip.h"

namespace vmafhip {

/// A C caller may store any int in an enum field of the settings: read the
/// stored value as its underlying integer (loading an out-of-range enum is
/// undefined in C++).
template <typename E> int stored_enum(const E &e)
{
    typename std::underlying_type<E>::type v;
    std::memcpy(&v, &e, sizeof v);
    return static_cast<int>(v);
}

/// The settings' log level, or info when it is not a valid level.
inline VmafHipLogLevel settings_log_level(const VmafHipSettings &s)
{
    const int l = stored_enum(s.log_level);
    return l >= VMAFHIP_LOG_ERROR && l <= VMAFHIP_LOG_DEBUG ? static_cast<VmafHipLogLevel>(l)
                                                             : VMAFHIP_LOG_INFO;
}

} // namespace vmafhip
