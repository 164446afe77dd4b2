#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "base/device_copy.h"

using vmafhip::copy_rows_for_device;

namespace {

constexpr uint8_t kGuard = 0xA5;

// Copies rows of row bytes from a source with src_pad bytes after each row
// (read bottom-up when flip) into a destination starting dst_off bytes into
// its buffer with dst_pad bytes between rows, and checks every byte of the
// destination buffer: the rows equal the source's, the rest is untouched.
void check(size_t row, int rows, size_t dst_off, size_t dst_pad, size_t src_pad, bool flip)
{
    const size_t src_stride = row + src_pad, dst_stride = row + dst_pad;
    std::vector<uint8_t> src(src_stride * rows + 1);
    for (size_t i = 0; i < src.size(); i++)
        src[i] = static_cast<uint8_t>(i * 131 + 7);
    std::vector<uint8_t> dst(dst_off + dst_stride * rows + 64, kGuard);
    const uint8_t *first = flip ? src.data() + (rows - 1) * src_stride : src.data();
    const ptrdiff_t step = flip ? -static_cast<ptrdiff_t>(src_stride) : static_cast<ptrdiff_t>(src_stride);
    copy_rows_for_device(dst.data() + dst_off, static_cast<ptrdiff_t>(dst_stride), first, step, row, rows);
    for (size_t i = 0; i < dst.size(); i++) {
        uint8_t want = kGuard;
        if (i >= dst_off && (i - dst_off) / dst_stride < static_cast<size_t>(rows) &&
            (i - dst_off) % dst_stride < row) {
            const size_t y = (i - dst_off) / dst_stride, x = (i - dst_off) % dst_stride;
            want = first[static_cast<ptrdiff_t>(y) * step + static_cast<ptrdiff_t>(x)];
        }
        ASSERT_EQ(dst[i], want) << "byte " << i << ", row " << row << " x " << rows << ", dst offset "
                                << dst_off << ", dst pad " << dst_pad << ", src pad " << src_pad
                                << (flip ? ", bottom-up" : "");
    }
}

} // namespace

// Row lengths around the 16-byte stores and the 64-byte unrolled loop, every
// destination misalignment, packed and padded layouts on both sides.
TEST(DeviceCopy, EveryAlignmentAndLength)
{
    for (size_t row : {1, 15, 16, 17, 31, 47, 63, 64, 65, 79, 127, 128, 129, 1920, 4099})
        for (size_t off = 0; off < 16; off++)
            for (int rows : {1, 3})
                for (size_t dst_pad : {0, 5})
                    for (size_t src_pad : {0, 3})
                        check(row, rows, off, dst_pad, src_pad, false);
}

TEST(DeviceCopy, BottomUpSource)
{
    for (size_t row : {7, 64, 333})
        for (size_t off : {0, 9})
            check(row, 4, off, 0, 2, true);
}

TEST(DeviceCopy, NothingToCopy)
{
    std::vector<uint8_t> dst(64, kGuard), src(64, 1);
    copy_rows_for_device(dst.data(), 16, src.data(), 16, 0, 4);
    copy_rows_for_device(dst.data(), 16, src.data(), 16, 16, 0);
    for (uint8_t b : dst)
        ASSERT_EQ(b, kGuard);
}
