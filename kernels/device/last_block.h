// The last block of a grid (or of a group of its blocks) to finish: a step
// that needs every block's results runs in that block, in the same launch,
// instead of in a launch of its own after it. A kernel with a few such steps
// in a row (a reduction, then a decision on its total) saves one launch per
// step; on small pictures those launches, not the arithmetic, are the time.
#pragma once

#include "kernels/device/block.h"

/**
 * Whether the calling block is the last of `blocks` blocks to call this with
 * `counter`. Every thread of the block must call it, after its writes of the
 * results the last block reads (atomics or stores to global memory): each
 * thread fences them before the count, so the last block sees them all. The
 * last block resets the counter to 0, ready for the next launch. The last
 * block reads those results through volatile pointers or atomics (not
 * through a cache line it loaded before).
 */
__device__ inline bool gpu_last_block(unsigned *counter, unsigned blocks)
{
    __shared__ int s_last;
    __threadfence();
    __syncthreads();
    if (gpu_block_tid() == 0) {
        const unsigned before = atomicAdd(counter, 1u);
        s_last = before == blocks - 1;
        if (s_last)
            atomicExch(counter, 0u);
    }
    __syncthreads();
    const bool last = s_last != 0;
    if (last)
        __threadfence(); // the count observed, before any read of the results
    return last;
}
