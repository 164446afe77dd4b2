#include "core/gpu/pinned_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <mutex>
#include <new>
#include <unordered_map>

#include "kernels/gpu_compat.h"

namespace vmafhip {

namespace {

constexpr size_t kHugePage = size_t(2) << 20;

// The mapped length of each mapped block (munmap needs it; hipHostFree does
// not), kept until the process ends: lent pictures may be freed late, from
// any thread.
struct MappedBlocks {
    std::mutex lock;
    std::unordered_map<const uint8_t *, size_t> bytes;
};

MappedBlocks &mapped_blocks()
{
    static MappedBlocks *const blocks = new MappedBlocks;
    return *blocks;
}

// Anonymous memory whose start is on a huge page (the kernel maps huge pages
// only where they fit whole), advised to use them, registered with the GPU
// runtime. The length is whole small pages.
uint8_t *map_and_register(size_t bytes)
{
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    bytes = (bytes + page - 1) / page * page;
    const size_t span = bytes + kHugePage;
    void *const m = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return nullptr;
    auto *const base = static_cast<uint8_t *>(m);
    auto *const p = reinterpret_cast<uint8_t *>((reinterpret_cast<uintptr_t>(base) + kHugePage - 1) &
                                                ~(uintptr_t(kHugePage) - 1));
    if (p > base)
        (void)munmap(base, static_cast<size_t>(p - base));
    if (base + span > p + bytes)
        (void)munmap(p + bytes, static_cast<size_t>(base + span - (p + bytes)));
    (void)madvise(p, bytes, MADV_HUGEPAGE); // advice: small pages work too
    if (hipHostRegister(p, bytes, hipHostRegisterPortable) != hipSuccess) {
        (void)hipGetLastError();
        (void)munmap(p, bytes);
        return nullptr;
    }
    MappedBlocks &blocks = mapped_blocks();
    try {
        std::lock_guard<std::mutex> hold(blocks.lock);
        blocks.bytes.emplace(p, bytes);
    } catch (const std::bad_alloc &) {
        (void)hipHostUnregister(p);
        (void)munmap(p, bytes);
        return nullptr;
    }
    return p;
}

} // namespace

uint8_t *pinned_alloc(size_t bytes)
{
    if (bytes >= kHugePage)
        if (uint8_t *const p = map_and_register(bytes))
            return p;
    void *p = nullptr;
    if (hipHostMalloc(&p, bytes, hipHostMallocPortable) != hipSuccess) {
        (void)hipGetLastError();
        return nullptr;
    }
    return static_cast<uint8_t *>(p);
}

void pinned_free(uint8_t *p)
{
    if (!p)
        return;
    size_t bytes = 0;
    {
        MappedBlocks &blocks = mapped_blocks();
        std::lock_guard<std::mutex> hold(blocks.lock);
        const auto it = blocks.bytes.find(p);
        if (it != blocks.bytes.end()) {
            bytes = it->second;
            blocks.bytes.erase(it);
        }
    }
    if (bytes) {
        (void)hipHostUnregister(p);
        (void)munmap(p, bytes);
    } else {
        (void)hipHostFree(p);
    }
    (void)hipGetLastError();
}

} // namespace vmafhip
