// The FrameView a context makes of two pictures (in g's layout), for tests
// that drive backends directly.
#pragma once

#include "extractors/frame_view.h"

namespace testfx {

inline vmafhip::FrameView view_of(const vmafhip::Geometry &g, const VmafHipPicture &r,
                                  const VmafHipPicture &d, int planes, unsigned index)
{
    vmafhip::FrameView f;
    for (int q = 0; q < g.picture_planes(planes); q++) {
        f.ref[q] = vmafhip::PlaneView{static_cast<const uint8_t *>(r.data[q]), r.stride[q],
                                      g.scored_row(q), g.scored_h(q)};
        f.dis[q] = vmafhip::PlaneView{static_cast<const uint8_t *>(d.data[q]), d.stride[q],
                                      g.scored_row(q), g.scored_h(q)};
    }
    f.index = index;
    return f;
}

} // namespace testfx
