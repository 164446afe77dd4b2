// The option table behind vmafhip_default_settings(), vmafhip_settings_set()
// and libvmaf's feature-name suffixes: one row per option, nothing repeated.
#pragma once

#include <cstring>
#include <string>
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

/// Check every option value of the enabled features against its range.
/// @return 0 or -ERANGE / -EINVAL with *msg naming the option and its range.
int check_options(const VmafHipSettings &s, std::string *msg);

/// libvmaf's name suffix for options flagged as feature parameters that
/// differ from their defaults, e.g. "_egl_1" (spec adm.md §10). "" when
/// everything is at its default.
std::string feature_name_suffix(const VmafHipSettings &s, const char *feature);

} // namespace vmafhip
