// float_vif on the GPU: the GpuImpl of the table entry. The constants hold
// the plan's Gaussian taps and the prescale's tables (built on the host,
// docs/float_vif.md §2, §3.1, §7); float_vif_enqueue() runs §2 to §4 into
// the accumulator block, which finish() reads as it reads the CPU's.
#include "extractors/float_vif/float_vif.h"
#include "extractors/gpu_tables.h"
#include "kernels/float_vif/float_vif.h"

namespace vmafhip {

namespace {

/// Where each table lies in the constants: floats and ints, in this order.
struct TableOffsets {
    size_t taps[FLOAT_VIF_SCALES], xi, xw, yi, yw, bytes;
};

TableOffsets table_offsets(const FloatVifPlan &p)
{
    TableOffsets o{};
    GpuTableLayout L;
    for (int s = 0; s < FLOAT_VIF_SCALES; s++)
        o.taps[s] = L.take(p.filter[s].size());
    // Empty unless the prescale changes the size.
    o.xi = L.take(p.rs.ax.idx.size());
    o.xw = L.take(p.rs.ax.w.size());
    o.yi = L.take(p.rs.ay.idx.size());
    o.yw = L.take(p.rs.ay.w.size());
    o.bytes = L.bytes;
    return o;
}

const FloatVif &fvif(const Extractor &e) { return static_cast<const FloatVif &>(e); }

FvifDims dims_of(const FloatVif &x)
{
    const FloatVifPlan &p = x.plan();
    FvifDims d{};
    d.w = p.w, d.h = p.h;
    d.sw = p.sw, d.sh = p.sh;
    d.resample = p.sw != p.w || p.sh != p.h;
    d.normalise = d.resample && p.rs.normalise;
    d.tx = d.ty = d.resample ? p.rs.taps : 0;
    for (int s = 0; s < FLOAT_VIF_SCALES; s++)
        d.fw[s] = static_cast<int32_t>(p.filter[s].size());
    d.skip_scale0 = x.options().skip_scale0 != 0;
    return d;
}

size_t constants_bytes(const Extractor &e) { return table_offsets(fvif(e).plan()).bytes; }

void fill_constants(const Extractor &e, void *host)
{
    const FloatVifPlan &p = fvif(e).plan();
    const TableOffsets o = table_offsets(p);
    for (int s = 0; s < FLOAT_VIF_SCALES; s++)
        put_gpu_table(host, o.taps[s], p.filter[s]);
    put_gpu_table(host, o.xi, p.rs.ax.idx);
    put_gpu_table(host, o.xw, p.rs.ax.w);
    put_gpu_table(host, o.yi, p.rs.ay.idx);
    put_gpu_table(host, o.yw, p.rs.ay.w);
}

size_t workspace_bytes(const Extractor &e) { return float_vif_workspace_bytes(dims_of(fvif(e))); }

void enqueue(const Extractor &e, GpuStream stream, const GpuFrame &f, const void *constants,
             void *workspace, void *d_accum)
{
    const FloatVif &x = fvif(e);
    const TableOffsets o = table_offsets(x.plan());
    FvifTables t{};
    for (int s = 0; s < FLOAT_VIF_SCALES; s++)
        t.taps[s] = gpu_table<float>(constants, o.taps[s]);
    t.xi = gpu_table<int>(constants, o.xi);
    t.xw = gpu_table<float>(constants, o.xw);
    t.yi = gpu_table<int>(constants, o.yi);
    t.yw = gpu_table<float>(constants, o.yw);
    float_vif_enqueue(static_cast<hipStream_t>(stream), dims_of(x), t, x.stat(), f.ref[0].data,
                      f.dis[0].data, f.bpc, workspace, static_cast<FloatVifAccum *>(d_accum));
}

} // namespace

extern const GpuImpl float_vif_gpu = {constants_bytes, fill_constants, workspace_bytes, enqueue};

} // namespace vmafhip
