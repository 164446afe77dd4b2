// Page-locked host memory for the pictures the GPU copies from: the slots'
// staging and the pictures lent to callers. Pinning costs time when a block
// is made and when it is freed, and a ladder makes hundreds of MiB of it as
// its pipelines fill and frees them at the end. On H100 hosts hipHostMalloc
// took 0.34 to 0.49 ms per MiB and its free 0.09 to 0.15 ms; memory mapped
// on 2 MiB (transparent huge) pages and then registered took 0.26 ms (the
// registration faulting the pages in) and 0.03 ms: the kernel faults in, and
// the driver pins, 512 times fewer pages. Where the kernel gives no huge
// pages the mapping has small ones; where registering fails (or for blocks
// below a huge page), hipHostMalloc.
#pragma once

#include <cstddef>
#include <cstdint>

namespace vmafhip {

/// `bytes` of pinned host memory that every device's context copies from
/// asynchronously, page aligned; nullptr when none is left.
uint8_t *pinned_alloc(size_t bytes);

/// Frees a block of pinned_alloc(); nullptr is ignored.
void pinned_free(uint8_t *p);

} // namespace vmafhip
