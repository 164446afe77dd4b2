// Tables of 4-byte values (float taps, int indices) laid end to end in an
// extractor's GPU constants (GpuImpl::constants_bytes, fill_constants): the
// offsets once on the host, the bytes copied into the host block the backend
// uploads, and device pointers into the uploaded block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace vmafhip {

/// The next table's offset in the constants, and the bytes so far.
struct GpuTableLayout {
    size_t bytes = 0;
    /// Room for n values; @return their offset.
    size_t take(size_t n)
    {
        const size_t here = bytes;
        bytes += n * 4;
        return here;
    }
};

/// v's values at byte offset off of the host block.
template <typename T> void put_gpu_table(void *host, size_t off, const std::vector<T> &v)
{
    static_assert(sizeof(T) == 4, "tables of 4-byte values");
    if (!v.empty())
        std::memcpy(static_cast<uint8_t *>(host) + off, v.data(), v.size() * sizeof(T));
}

/// The table at byte offset off of the (device) constants.
template <typename T> const T *gpu_table(const void *constants, size_t off)
{
    static_assert(sizeof(T) == 4, "tables of 4-byte values");
    return reinterpret_cast<const T *>(static_cast<const uint8_t *>(constants) + off);
}

} // namespace vmafhip
