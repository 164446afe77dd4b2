// Model files: the input is a libvmaf JSON model (or anything else) loaded by
// path through the public API, then used to score a few frames, so that
// numbers a model may hold (huge, NaN, inf, empty vectors) reach the
// prediction too.
#include <cstdint>
#include <string>

#include "tests/fuzz/fuzz_file.h"
#include "tests/fuzz/fuzz_frames.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::MemFile file(data, size);
    if (!file.ok())
        return 0;
    const std::string models = "path=" + file.path() + ":name=m";
    VmafHipSettings s = fuzz::quiet_settings();
    s.models = models.c_str();
    fuzz::score_some(s, 3, VMAFHIP_LOG_FMT_JSON);
    return 0;
}
