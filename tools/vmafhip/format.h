// Frame formats of the vmafhip CLI's inputs: plane sizes of FFmpeg's raw
// layout (chroma ceil(W/2), samples above 8 bits in 16 bits) and the
// pictures handed to vmafhip_submit().
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "vmafhip.h"

namespace cli {

struct Format {
    int w = 0, h = 0; ///< luma size
    int bpc = 0;      ///< bits per sample
    VmafHipChroma chroma = VMAFHIP_CHROMA_420;

    bool operator==(const Format &o) const
    {
        return w == o.w && h == o.h && bpc == o.bpc && chroma == o.chroma;
    }
    bool operator!=(const Format &o) const { return !(*this == o); }
};

/// Bytes of one frame, every plane, as stored in a raw .yuv or a y4m FRAME.
size_t frame_bytes(const Format &f);

/// Bytes of a frame's first `planes` planes (luma first): what a reader
/// needs when the context reads no more (vmafhip_planes_read()).
size_t leading_planes_bytes(const Format &f, int planes);

/// Picture of a frame stored at `frame` (frame_bytes(f) bytes).
VmafHipPicture frame_picture(const Format &f, const uint8_t *frame);

/// "420", "422", "444" or "400", as -p takes it.
const char *chroma_name(VmafHipChroma c);

/// e.g. "576x324 4:2:0 8-bit", for messages.
std::string describe(const Format &f);

} // namespace cli
