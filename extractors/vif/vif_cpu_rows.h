// integer VIF on the CPU: the row kernels (docs/vif.md §4.1, §4.2) behind
// one interface, one implementation per instruction set (vif_cpu_scalar.cpp,
// vif_cpu_avx2.cpp). vif_cpu.cpp runs the same pipeline on any of them, so
// the tests can compare them on the whole pipeline.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "extractors/frame_view.h"
#include "kernels/vif/vif_ops.h"

namespace vmafhip {

class ThreadPool;
class Vif;

/// Samples readable past the last sample of every row of a VifScaleView:
/// vector loads of a row's last block may read that far (the values are
/// never used).
constexpr int VIF_ROW_SLACK = 64;

/// The ref and dis pictures of one scale, padded as libvmaf pads them (§3):
/// rows -half .. h - 1 + half of w samples each, uint16 at every scale.
struct VifScaleView {
    uint16_t *pic[2]; ///< row 0 of ref and dis
    ptrdiff_t stride; ///< samples from one row to the next
    int w, h;

    uint16_t *row(int p, int i) const { return pic[p] + static_cast<ptrdiff_t>(i) * stride; }
};

/// The row kernels of one instruction set with their buffers: one object
/// per chunk of rows in flight. Samples of scale 0 must be within the bit
/// depth (the core refuses other frames before scoring).
class VifRows {
public:
    virtual ~VifRows() = default;
    /// §4.1: the statistics of rows [i0, i1) of scale s, added to *part.
    /// stale: what libvmaf's mirrored columns hold when scale 3 has one
    /// column (§8).
    virtual void stats(int s, const VifParams &p, const VifScaleView &im, const VifVert &stale, int i0,
                       int i1, VifPartial *part) = 0;
    /// §4.2: rows [y0, y1) of scale s (>= 1) from the whole scale s - 1;
    /// writes dst.w samples of each row and nothing else.
    virtual void down(int s, const VifParams &p, const VifScaleView &src, const VifScaleView &dst, int y0,
                      int y1) = 0;
};

using VifRowsFactory = std::unique_ptr<VifRows> (*)();

/// Plain C++ (any CPU): the reference every other implementation is tested
/// against.
std::unique_ptr<VifRows> vif_rows_scalar();
/// AVX2 intrinsics where vif_cpu_has_avx2(); scale 3 (a 64th of the pixels,
/// and taps beyond int16) goes to the scalar rows.
std::unique_ptr<VifRows> vif_rows_avx2();
/// An x86-64 build on a CPU (and OS) with AVX2.
bool vif_cpu_has_avx2();

/// The row kernels of one instruction set as a table, the shape every
/// metric's CPU kernels have (choose_kernels()).
struct VifKernels {
    VifRowsFactory rows;
};
/// The plain C++ rows.
const VifKernels &vif_kernels_scalar();
/// The AVX2 rows, or nullptr when this is not an x86-64 build or the CPU
/// has no AVX2.
const VifKernels *vif_kernels_avx2();

/// Vif::cpu with the given row kernels and fresh buffers (tests).
void vif_cpu_run(const Vif &v, const FrameView &f, VifRowsFactory rows, ThreadPool &pool, VifAccum *acc);

/// §3 / §8: the `r` columns left and right of a filtered row of w columns
/// (row[0 .. w) valid, the pointer has r slots before it and after w).
/// stale: libvmaf's value of every such column when w == 1 (§8).
template <typename T> void vif_pad_columns(T *row, int w, int r, const T *stale)
{
    if (w > r) { // one reflection: vif_mirror without its division
        for (int k = 1; k <= r; k++) {
            row[-k] = row[k];
            row[w - 1 + k] = row[w - 1 - k];
        }
        return;
    }
    for (int k = 1; k <= r; k++) {
        row[-k] = w > 1 ? row[vif_mirror(-k, w)] : *stale;
        row[w - 1 + k] = w > 1 ? row[vif_mirror(w - 1 + k, w)] : *stale;
    }
}

} // namespace vmafhip
