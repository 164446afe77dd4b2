// The feature and model strings of the public API (what the filter's
// `feature` and `model` options and the CLI's --feature / -m pass through):
// "<features>\0<models>\0<subsample byte><log format byte>". Model files
// have their own target (fuzz_model); paths are left out here.
#include <cstdint>
#include <cstring>
#include <string>

#include "tests/fuzz/fuzz_frames.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = reinterpret_cast<const char *>(data);
    const size_t n1 = strnlen(p, size);
    const std::string features(p, n1);
    const size_t rest = n1 < size ? size - n1 - 1 : 0;
    const char *q = p + (size - rest);
    const size_t n2 = strnlen(q, rest);
    const std::string models(q, n2);
    const uint8_t *tail = reinterpret_cast<const uint8_t *>(q) + (n2 < rest ? n2 + 1 : n2);
    const size_t tail_n = static_cast<size_t>(data + size - tail);
    if (models.find("path") != std::string::npos)
        return 0;
    VmafHipSettings s = fuzz::quiet_settings();
    s.features = features.c_str();
    s.models = n1 < size ? models.c_str() : nullptr;
    s.n_subsample = tail_n > 0 ? tail[0] % 5 : 1;
    const auto fmt = static_cast<VmafHipLogFormat>(tail_n > 1 ? tail[1] % 4 : 0);
    fuzz::score_some(s, 4, fmt);
    return 0;
}
