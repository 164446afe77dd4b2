// integer motion on the GPU: the GpuImpl of the table entry. No constants
// and no workspace: one launch reads the previous and the current reference
// luma and adds the SAD into the frame's accumulator (kernels/motion/motion.hip).
#include "extractors/motion/motion.h"
#include "kernels/motion/motion.h"

namespace vmafhip {

namespace {

void motion_gpu_enqueue(const Extractor &e, GpuStream stream, const GpuFrame &f, const void *,
                        void *, void *d_accum)
{
    const Motion &m = static_cast<const Motion &>(e);
    if (!m.computes_sad())
        return; // motion_force_zero: the zeroed accumulator is the answer
    // Before the first compared frame prev_ref holds stale samples: the
    // kernel runs anyway and Motion::finish() ignores its sum (it knows the
    // frame index).
    const MotionParams &p = m.params();
    motion_enqueue(static_cast<hipStream_t>(stream), p, f.prev_ref[p.prev], f.ref[0],
                   static_cast<MotionAccum *>(d_accum));
}

} // namespace

const GpuImpl motion_gpu = {gpu_no_bytes, gpu_no_constants, gpu_no_bytes, motion_gpu_enqueue};

} // namespace vmafhip
