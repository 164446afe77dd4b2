// SpEED on the GPU: the GpuImpls of speed_chroma and speed_temporal. The
// constants hold the plan's taps and resampling tables (built on the host,
// docs/speed.md §5.1, §5.2, §11); one speed_enqueue() runs §5.1 to §5.7
// of every side of the frame into the accumulator block, which finish()
// reads as it reads the CPU's.
#include "extractors/gpu_tables.h"
#include "extractors/speed/speed.h"
#include "kernels/speed/speed.h"

namespace vmafhip {

namespace {

/// Where each table lies in the constants: floats and ints, in this order.
struct TableOffsets {
    size_t taps_a, taps_l, xi, xw, yi, yw, bytes;
};

TableOffsets table_offsets(const SpeedPlan &p)
{
    TableOffsets o{};
    GpuTableLayout L;
    o.taps_a = L.take(p.taps_a.size());
    o.taps_l = L.take(p.taps_l.size());
    o.xi = L.take(p.ax.idx.size());
    o.xw = L.take(p.ax.w.size());
    o.yi = L.take(p.ay.idx.size());
    o.yw = L.take(p.ay.w.size());
    o.bytes = L.bytes;
    return o;
}

SpeedTables tables(const SpeedPlan &p, const void *constants)
{
    const TableOffsets o = table_offsets(p);
    return SpeedTables{gpu_table<float>(constants, o.taps_a), gpu_table<float>(constants, o.taps_l),
                       gpu_table<int>(constants, o.xi),     gpu_table<float>(constants, o.xw),
                       gpu_table<int>(constants, o.yi),     gpu_table<float>(constants, o.yw)};
}

// X: SpeedChroma or SpeedTemporal.
template <typename X> const SpeedPlan &plan_of(const Extractor &e)
{
    return static_cast<const X &>(e).plan();
}

template <typename X> size_t constants_bytes(const Extractor &e)
{
    return table_offsets(plan_of<X>(e)).bytes;
}

template <typename X> void fill_constants(const Extractor &e, void *host)
{
    const SpeedPlan &p = plan_of<X>(e);
    const TableOffsets o = table_offsets(p);
    put_gpu_table(host, o.taps_a, p.taps_a);
    put_gpu_table(host, o.taps_l, p.taps_l);
    put_gpu_table(host, o.xi, p.ax.idx);
    put_gpu_table(host, o.xw, p.ax.w);
    put_gpu_table(host, o.yi, p.ay.idx);
    put_gpu_table(host, o.yw, p.ay.w);
}

template <typename X> size_t workspace_bytes(const Extractor &e)
{
    return speed_workspace_bytes(plan_of<X>(e).d, X::SIDES);
}

// §7: U reference, U distorted, V reference, V distorted.
void chroma_enqueue(const Extractor &e, GpuStream stream, const GpuFrame &f, const void *constants,
                    void *workspace, void *d_accum)
{
    const SpeedPlan &p = plan_of<SpeedChroma>(e);
    const SpeedSideInput sides[SpeedChroma::SIDES] = {{f.ref[1].data, nullptr}, {f.dis[1].data, nullptr},
                                     {f.ref[2].data, nullptr}, {f.dis[2].data, nullptr}};
    speed_enqueue(static_cast<hipStream_t>(stream), p.d, tables(p, constants), sides, SpeedChroma::SIDES, f.bpc,
                  workspace, static_cast<float *>(d_accum));
}

// §8 step 3: the previous frame's lumas minus the current ones. Before the
// second frame prev_ref and prev_dis hold stale samples: the kernels run
// anyway and finish() writes 0 for frame 0.
void temporal_enqueue(const Extractor &e, GpuStream stream, const GpuFrame &f,
                      const void *constants, void *workspace, void *d_accum)
{
    const SpeedTemporal &t = static_cast<const SpeedTemporal &>(e);
    const SpeedPlan &p = t.plan();
    const uint8_t *dis_now = t.use_ref_diff() ? f.ref[0].data : f.dis[0].data;
    const SpeedSideInput sides[SpeedTemporal::SIDES] = {{f.prev_ref[0].data, f.ref[0].data},
                                     {f.prev_dis[0].data, dis_now}};
    speed_enqueue(static_cast<hipStream_t>(stream), p.d, tables(p, constants), sides, SpeedTemporal::SIDES, f.bpc,
                  workspace, static_cast<float *>(d_accum));
}

} // namespace

extern const GpuImpl speed_chroma_gpu = {constants_bytes<SpeedChroma>,
                                         fill_constants<SpeedChroma>,
                                         workspace_bytes<SpeedChroma>, chroma_enqueue};
extern const GpuImpl speed_temporal_gpu = {constants_bytes<SpeedTemporal>,
                                           fill_constants<SpeedTemporal>,
                                           workspace_bytes<SpeedTemporal>, temporal_enqueue};

} // namespace vmafhip
