#include "core/host_memory.h"

#include <new>

namespace vmafhip {

namespace {

class PlainHostMemory final : public HostMemory {
public:
    uint8_t *alloc(size_t bytes) override { return new (std::nothrow) uint8_t[bytes]; }
    void free(uint8_t *p) override { delete[] p; }
    int new_fence(void **fence) override
    {
        *fence = nullptr;
        return 0;
    }
    void delete_fence(void *) override {}
    bool fence_done(void *, bool) override { return true; }
};

} // namespace

std::shared_ptr<HostMemory> make_plain_host_memory()
{
    return std::make_shared<PlainHostMemory>();
}

} // namespace vmafhip
