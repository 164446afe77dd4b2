// float_motion on the GPU: the GpuImpl of the table entry. The constants hold
// the blur's taps and, with motion_add_scale1, the half-size resampling's
// tables (built on the host, docs/float_motion.md §2, §3.2); one
// fmotion_enqueue() writes the frame's score into the accumulator block,
// which finish() reads as it reads the CPU's.
#include <cstring>

#include "extractors/float_motion/float_motion.h"
#include "kernels/float_motion/float_motion.h"

namespace vmafhip {

namespace {

/// Where each table lies in the constants (4-byte floats and ints): the
/// taps, then per plane size (luma; chroma) the half-size resampling's
/// column indices and weights, row indices and weights (empty without
/// motion_add_scale1; chroma's empty without motion_add_uv).
struct ConstantsLayout {
    size_t taps, xi[2], xw[2], yi[2], yw[2], bytes;
};

ConstantsLayout constants_layout(const FloatMotion &m)
{
    ConstantsLayout L{};
    size_t at = 4 * m.blur_taps().size();
    for (int q = 0; q < 2; q++) {
        const Resampling &r = m.half(q);
        L.xi[q] = at;
        at += 4 * r.ax.idx.size();
        L.xw[q] = at;
        at += 4 * r.ax.w.size();
        L.yi[q] = at;
        at += 4 * r.ay.idx.size();
        L.yw[q] = at;
        at += 4 * r.ay.w.size();
    }
    L.bytes = at;
    return L;
}

/// The pass of plane q (0: luma; 1, 2: Cb, Cr).
FmotionDims dims_of(const FloatMotion &m, int q)
{
    const Geometry &g = m.geometry();
    const Resampling &r = m.half(q);
    const bool half = m.options().add_scale1 != 0;
    return FmotionDims{g.scored_w(q),
                       g.scored_h(q),
                       static_cast<int>(m.blur_taps().size()),
                       half ? 1 : 0,
                       half ? r.sw : 0,
                       half ? r.sh : 0,
                       half ? r.taps : 0,
                       half ? r.taps : 0,
                       half && r.normalise ? 1 : 0,
                       fmotion_libvmaf_pitch(g.scored_w(q)),
                       fmotion_libvmaf_pitch(g.w)};
}

size_t constants_bytes(const Extractor &e)
{
    return constants_layout(static_cast<const FloatMotion &>(e)).bytes;
}

template <typename T> void put(uint8_t *host, size_t off, const std::vector<T> &v)
{
    static_assert(sizeof(T) == 4);
    if (!v.empty())
        std::memcpy(host + off, v.data(), v.size() * sizeof(T));
}

void fill_constants(const Extractor &e, void *host)
{
    const FloatMotion &m = static_cast<const FloatMotion &>(e);
    const ConstantsLayout L = constants_layout(m);
    uint8_t *h = static_cast<uint8_t *>(host);
    put(h, L.taps, m.blur_taps());
    for (int q = 0; q < 2; q++) {
        const Resampling &r = m.half(q);
        put(h, L.xi[q], r.ax.idx);
        put(h, L.xw[q], r.ax.w);
        put(h, L.yi[q], r.ay.idx);
        put(h, L.yw[q], r.ay.w);
    }
}

size_t workspace_bytes(const Extractor &e)
{
    const FloatMotion &m = static_cast<const FloatMotion &>(e);
    // Luma's: the chroma planes' passes, one after the other, fit in it.
    return m.options().force_zero ? 0 : fmotion_workspace_bytes(dims_of(m, 0));
}

// §3: frame 0 has no previous picture: before the second frame prev_ref
// holds stale samples; the kernels run anyway and finish() writes 0 for
// frame 0, as for the CPU's zero score.
void enqueue(const Extractor &e, GpuStream stream, const GpuFrame &f, const void *constants,
             void *workspace, void *d_accum)
{
    const FloatMotion &m = static_cast<const FloatMotion &>(e);
    if (m.options().force_zero)
        return; // §4.3: nothing is computed; the zeroed accumulator is the CPU's
    const ConstantsLayout L = constants_layout(m);
    const uint8_t *c = static_cast<const uint8_t *>(constants);
    FloatMotionAccum *out = static_cast<FloatMotionAccum *>(d_accum);
    // §3.3: luma, then with motion_add_uv Cb and Cr, each into its own score.
    for (int q = 0; q < m.scored_planes(); q++) {
        const int t = q > 0; // the chroma planes share their tables
        const FmotionTables tables{reinterpret_cast<const float *>(c + L.taps),
                                   reinterpret_cast<const int *>(c + L.xi[t]),
                                   reinterpret_cast<const float *>(c + L.xw[t]),
                                   reinterpret_cast<const int *>(c + L.yi[t]),
                                   reinterpret_cast<const float *>(c + L.yw[t])};
        const GpuPlane &prev = q ? f.prev_ref_chroma[0][q - 1] : f.prev_ref[0];
        fmotion_enqueue(static_cast<hipStream_t>(stream), dims_of(m, q), tables, prev, f.ref[q],
                        f.bpc, workspace, &out->plane[q]);
    }
}

} // namespace

extern const GpuImpl float_motion_gpu = {constants_bytes, fill_constants, workspace_bytes, enqueue};

} // namespace vmafhip
