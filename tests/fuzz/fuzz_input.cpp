// The CLI's video readers (.y4m headers and frames, raw .yuv) on arbitrary
// bytes: open, take the declared format (or, for raw files, one chosen by
// the first byte), read every frame. Must never crash, hang or leak.
#include <cstdint>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_file.h"
#include "tools/vmafhip/format.h"
#include "tools/vmafhip/input.h"

namespace {

// Bigger frames are valid (the library takes up to 32768x32768) but only
// make the run slow; the parsing is the same.
constexpr size_t kMaxFrameBytes = size_t(1) << 22;

cli::Format raw_format(uint8_t b)
{
    static const int depths[] = {8, 10, 12, 16};
    cli::Format f;
    f.w = 1 + (b & 7) * 9;
    f.h = 1 + ((b >> 3) & 3) * 13;
    f.chroma = static_cast<VmafHipChroma>((b >> 5) & 3);
    f.bpc = depths[(b >> 6) & 3];
    return f;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::MemFile file(data, size);
    if (!file.ok())
        return 0;
    std::string err;
    const auto in = cli::open_input(file.path(), "reference", &err);
    if (!in)
        return 0;
    const cli::Format fmt = in->declared() ? *in->declared() : raw_format(size ? data[0] : 0);
    if (cli::frame_bytes(fmt) > kMaxFrameBytes || in->start(fmt, &err) < 0)
        return 0;
    std::vector<uint8_t> frame(cli::frame_bytes(fmt));
    while (in->read(frame.data(), &err) == 1) {
    }
    return 0;
}
