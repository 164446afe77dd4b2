#include "format.h"

#include <algorithm>

// Samples above 8 bits are little-endian in the files (FFmpeg's *le formats,
// y4m) and native-endian in vmafhip_submit(): equal only on such hosts.
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the vmafhip CLI reads 16-bit samples in place: it needs a little-endian host"
#endif

namespace cli {

namespace {

int planes(const Format &f)
{
    return f.chroma == VMAFHIP_CHROMA_400 ? 1 : 3;
}

// Plane p's size in samples; subsampled chroma rounds up, as FFmpeg stores it.
size_t plane_w(const Format &f, int p)
{
    const bool ss = p && (f.chroma == VMAFHIP_CHROMA_420 || f.chroma == VMAFHIP_CHROMA_422);
    return ss ? (static_cast<size_t>(f.w) + 1) / 2 : static_cast<size_t>(f.w);
}

size_t plane_h(const Format &f, int p)
{
    const bool ss = p && f.chroma == VMAFHIP_CHROMA_420;
    return ss ? (static_cast<size_t>(f.h) + 1) / 2 : static_cast<size_t>(f.h);
}

size_t sample_bytes(const Format &f)
{
    return f.bpc > 8 ? 2 : 1;
}

} // namespace

size_t leading_planes_bytes(const Format &f, int n)
{
    size_t bytes = 0;
    for (int p = 0; p < std::min(n, planes(f)); p++)
        bytes += plane_w(f, p) * plane_h(f, p) * sample_bytes(f);
    return bytes;
}

size_t frame_bytes(const Format &f)
{
    return leading_planes_bytes(f, planes(f));
}

VmafHipPicture frame_picture(const Format &f, const uint8_t *frame)
{
    VmafHipPicture pic = {};
    for (int p = 0; p < planes(f); p++) {
        pic.data[p] = frame;
        pic.stride[p] = static_cast<ptrdiff_t>(plane_w(f, p) * sample_bytes(f));
        frame += plane_w(f, p) * plane_h(f, p) * sample_bytes(f);
    }
    return pic;
}

const char *chroma_name(VmafHipChroma c)
{
    switch (c) {
    case VMAFHIP_CHROMA_420: return "420";
    case VMAFHIP_CHROMA_422: return "422";
    case VMAFHIP_CHROMA_444: return "444";
    case VMAFHIP_CHROMA_400: return "400";
    }
    return "?";
}

std::string describe(const Format &f)
{
    static const char *const layouts[] = {"4:2:0", "4:2:2", "4:4:4", "4:0:0 (gray)"};
    return std::to_string(f.w) + "x" + std::to_string(f.h) + " " + layouts[f.chroma] + " " +
           std::to_string(f.bpc) + "-bit";
}

} // namespace cli
