// Host memory for pictures the library lends to callers, from the backend
// that copies out of it: pinned on the GPU (DMA straight from it), plain on
// the CPU. It outlives the backend: lent pictures may be released after the
// context is closed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace vmafhip {

class HostMemory {
public:
    virtual ~HostMemory() = default;

    /// A block of `bytes`, with no promise of alignment (pinned memory is
    /// sub-allocated), or nullptr when none is left.
    virtual uint8_t *alloc(size_t bytes) = 0;
    virtual void free(uint8_t *p) = 0;

    /// A fence for one block: the backend marks it after its (asynchronous)
    /// copies from the block. *fence = nullptr where copies finish inside
    /// submit (CPU). @return 0 or -ENOMEM.
    virtual int new_fence(void **fence) = 0;
    virtual void delete_fence(void *fence) = 0;

    /// Whether every copy marked on `fence` is done; wait: block until it is.
    virtual bool fence_done(void *fence, bool wait) = 0;

    /// Whether block p (from alloc()) is still of the memory the backend
    /// copies from fastest; one that is not is freed once it is given back
    /// (the backend changed: pinned memory came with the GPU).
    virtual bool preferred(const uint8_t *p) const
    {
        (void)p;
        return true;
    }
};

/// Plain memory (new[]) and no fences: the CPU backend's.
std::shared_ptr<HostMemory> make_plain_host_memory();

} // namespace vmafhip
