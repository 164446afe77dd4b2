// The option table behind vmafhip_default_settings(), vmafhip_settings_set()
// and libvmaf's feature-name suffixes: one row per option, nothing repeated.
#pragma once

#include <string>

#include "vmafhip.h"

namespace vmafhip {

/// Check every option value of the enabled features against its range.
/// @return 0 or -ERANGE / -EINVAL with *msg naming the option and its range.
int check_options(const VmafHipSettings &s, std::string *msg);

/// libvmaf's name suffix for options flagged as feature parameters that
/// differ from their defaults, e.g. "_egl_1" (spec adm.md §10). "" when
/// everything is at its default.
std::string feature_name_suffix(const VmafHipSettings &s, const char *feature);

} // namespace vmafhip
