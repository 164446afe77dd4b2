// The CLI's video readers (.y4m headers and frames, raw .yuv) on arbitrary
// bytes: open, take the declared format (or, for raw files, one chosen by
// the first byte), read every frame in order, and again by position
// (locate() and read_at(), how regular files are read): both ways must give
// the same frames and end the same way, with the same message. Must never
// crash, hang or leak.
#include <algorithm>
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
    const size_t bytes = cli::frame_bytes(fmt);
    std::vector<uint8_t> frames, frame(bytes);
    int ret;
    while ((ret = in->read(frame.data(), &err)) == 1)
        frames.insert(frames.end(), frame.begin(), frame.end());

    std::string err2;
    const auto again = cli::open_input(file.path(), "reference", &err2);
    if (!again || again->start(fmt, &err2) < 0 || !again->positional())
        __builtin_trap(); // a regular file, opened and started once already
    long long index = 0, offset;
    int ret2;
    while ((ret2 = again->locate(&offset, &err2)) == 1) {
        if (again->read_at(index, offset, frame.data(), bytes, &err2) < 0) {
            ret2 = -1;
            break;
        }
        if (frames.size() < (index + 1) * bytes ||
            !std::equal(frame.begin(), frame.end(), frames.begin() + index * bytes))
            __builtin_trap(); // another frame than read() gave
        index++;
    }
    if (ret2 != ret || index * bytes != frames.size() || (ret < 0 && err2 != err))
        __builtin_trap(); // ended otherwise than read()
    return 0;
}
