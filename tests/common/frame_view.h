// The FrameView a context makes of two pictures, for tests that drive
// backends directly.
#pragma once

#include "extractors/frame_view.h"

namespace testfx {

inline vmafhip::FrameView view_of(const vmafhip::Geometry &g, const VmafHipPicture &r,
                                  const VmafHipPicture &d, int planes, unsigned index)
{
    vmafhip::FrameView f;
    for (int p = 0; p < planes; p++) {
        f.ref[p] = vmafhip::PlaneView{static_cast<const uint8_t *>(r.data[p]), r.stride[p],
                                      g.scored_w(p), g.scored_h(p)};
        f.dis[p] = vmafhip::PlaneView{static_cast<const uint8_t *>(d.data[p]), d.stride[p],
                                      g.scored_w(p), g.scored_h(p)};
    }
    f.index = index;
    return f;
}

} // namespace testfx
