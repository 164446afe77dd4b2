// Owned, packed, planar copies of pictures: what a CPU-side backend keeps of
// a picture whose caller may reuse its memory once submit returns, in the
// form the metrics read (a semi-planar picture's Cb, Cr pairs split, samples
// in the high bits shifted down).
#pragma once

#include <cstring>
#include <vector>

#include "extractors/frame_view.h"

namespace vmafhip {

struct PlaneCopy {
    std::vector<uint8_t> buf;
    PlaneView view; ///< rows of w samples, no padding

    /// A copy of src, samples shifted down by `shift` bits (16-bit samples).
    void assign(const PlaneView &src, int bytes_per_sample, int shift = 0)
    {
        const size_t row = static_cast<size_t>(src.w) * bytes_per_sample;
        resize(src.w, src.h, bytes_per_sample);
        for (int y = 0; y < src.h; y++) {
            uint8_t *dst = buf.data() + y * row;
            if (!shift) {
                std::memcpy(dst, src.row<uint8_t>(y), row);
                continue;
            }
            const uint16_t *s = src.row<uint16_t>(y);
            uint16_t *d = reinterpret_cast<uint16_t *>(dst);
            for (int x = 0; x < src.w; x++)
                d[x] = static_cast<uint16_t>(s[x] >> shift);
        }
    }

    /// Rows of w samples of `bytes_per_sample` each, contents undefined.
    void resize(int w, int h, int bytes_per_sample)
    {
        const size_t row = static_cast<size_t>(w) * bytes_per_sample;
        buf.resize(row * static_cast<size_t>(h));
        view = PlaneView{buf.data(), static_cast<ptrdiff_t>(row), w, h};
    }
};

/// The Cb, Cr pairs of `pairs` (w: two samples per pair) into cb and cr,
/// shifted down by `shift` bits.
template <typename T> void split_pairs(const PlaneView &pairs, int shift, PlaneCopy *cb, PlaneCopy *cr)
{
    const int w = pairs.w / 2;
    cb->resize(w, pairs.h, sizeof(T));
    cr->resize(w, pairs.h, sizeof(T));
    for (int y = 0; y < pairs.h; y++) {
        const T *s = pairs.row<T>(y);
        T *b = reinterpret_cast<T *>(cb->buf.data()) + static_cast<size_t>(y) * w;
        T *r = reinterpret_cast<T *>(cr->buf.data()) + static_cast<size_t>(y) * w;
        for (int x = 0; x < w; x++) {
            b[x] = static_cast<T>(s[2 * x] >> shift);
            r[x] = static_cast<T>(s[2 * x + 1] >> shift);
        }
    }
}

/// Planar copies of the first `planes` metric planes of one picture given in
/// g's layout (FrameView's contract); out[] views them.
struct PictureCopy {
    PlaneCopy p[3];

    void assign(const PlaneView in[3], const Geometry &g, int planes, PlaneView out[3])
    {
        const int bps = g.bytes_per_sample(), shift = g.sample_shift();
        p[0].assign(in[0], bps, shift);
        if (planes > 1 && g.semi_planar()) {
            if (bps == 2)
                split_pairs<uint16_t>(in[1], shift, &p[1], &p[2]);
            else
                split_pairs<uint8_t>(in[1], 0, &p[1], &p[2]);
        } else {
            for (int q = 1; q < planes; q++)
                p[q].assign(in[q], bps);
        }
        for (int q = 0; q < planes; q++)
            out[q] = p[q].view;
    }
};

/// The planes of an earlier frame that extractors read (Metrics::lookbehind,
/// lookbehind_chroma, lookbehind_dis), planar and packed: the reference luma,
/// its Cb and Cr where chroma, the distorted luma where with_dis; the other
/// planes stay empty (null data).
struct KeptPlanes {
    PictureCopy ref;
    PlaneCopy dis;

    /// Copies them from a frame pair in geometry g's layout.
    void assign(const PlaneView ref_in[3], const PlaneView &dis_in, const Geometry &g, bool chroma,
                bool with_dis)
    {
        PlaneView planar[3];
        ref.assign(ref_in, g, chroma ? 3 : 1, planar);
        if (with_dis)
            dis.assign(dis_in, g.bytes_per_sample(), g.sample_shift());
    }

    /// Their views (null data where not kept): the reference luma, its Cb
    /// and Cr, the distorted luma.
    void views(PlaneView *ref_out, PlaneView chroma_out[2], PlaneView *dis_out) const
    {
        *ref_out = ref.p[0].view;
        chroma_out[0] = ref.p[1].view;
        chroma_out[1] = ref.p[2].view;
        *dis_out = dis.view;
    }
};

} // namespace vmafhip
