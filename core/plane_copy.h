// An owned, packed copy of one plane: what a backend keeps of a picture
// whose caller may reuse its memory once submit returns.
#pragma once

#include <cstring>
#include <vector>

#include "extractors/frame_view.h"

namespace vmafhip {

struct PlaneCopy {
    std::vector<uint8_t> buf;
    PlaneView view; ///< rows of w samples, no padding

    void assign(const PlaneView &src, int bytes_per_sample)
    {
        const size_t row = static_cast<size_t>(src.w) * bytes_per_sample;
        buf.resize(row * static_cast<size_t>(src.h));
        for (int y = 0; y < src.h; y++)
            std::memcpy(buf.data() + y * row, src.row<uint8_t>(y), row);
        view = PlaneView{buf.data(), static_cast<ptrdiff_t>(row), src.w, src.h};
    }
};

} // namespace vmafhip
