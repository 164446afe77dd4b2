#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "base/device_copy.h"
#include "core/pack10_staging.h"
#include "kernels/packed10.h"

using vmafhip::copy_rows_for_device;
using namespace vmafhip;

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

namespace {

// A plane of w x rows 16-bit samples up to `limit`, rows `pad` samples
// apart beyond w, 2 bytes past a 16-byte boundary when `unaligned` (the
// library takes 16-bit planes at any even address).
struct Plane16 {
    std::vector<uint8_t> bytes;
    size_t stride, offset;
    Plane16(int w, int rows, int pad, bool unaligned, unsigned limit, std::mt19937 &rng)
        : bytes(2 * (static_cast<size_t>(w) + pad) * rows + 2), stride(2 * (static_cast<size_t>(w) + pad)),
          offset(unaligned ? 2 : 0)
    {
        std::uniform_int_distribution<unsigned> sample(0, limit);
        for (int y = 0; y < rows; y++)
            for (int x = 0; x < w + pad; x++)
                set(x, y, static_cast<uint16_t>(sample(rng)));
    }
    uint16_t at(int x, int y) const
    {
        uint16_t v;
        std::memcpy(&v, bytes.data() + offset + y * stride + 2 * x, 2);
        return v;
    }
    void set(int x, int y, uint16_t v) { std::memcpy(bytes.data() + offset + y * stride + 2 * x, &v, 2); }
    const uint8_t *row(int y) const { return bytes.data() + offset + y * stride; }
};

} // namespace

// Every width up to three blocks and a few large ones, samples up to 511 and 1023,
// padded, unaligned and bottom-up sources: each sample reads back from its
// packed row (packed10_sample(), the kernels' reading), the padding is 0.
TEST(Pack10, EverySampleReadsBack)
{
    std::mt19937 rng(7);
    for (int w = 1; w <= 3 * PACKED10_BLOCK_SAMPLES + 1; w++)
        for (const unsigned limit : {511u, 1023u})
            for (const bool flip : {false, true}) {
                const int rows = 3;
                const Plane16 src(w, rows, w % 3, w % 2, limit, rng);
                const size_t row_words = packed10_row_words(w);
                std::vector<uint32_t> dst(row_words * rows + 4, 0xdeadbeef);
                const uint8_t *first = flip ? src.row(rows - 1) : src.row(0);
                const ptrdiff_t step = flip ? -static_cast<ptrdiff_t>(src.stride) : static_cast<ptrdiff_t>(src.stride);
                ASSERT_TRUE(pack10_rows_for_device(dst.data(), first, step, w, rows));
                for (int y = 0; y < rows; y++) {
                    const uint32_t *row = dst.data() + y * row_words;
                    const int sy = flip ? rows - 1 - y : y;
                    for (int x = 0; x < w; x++)
                        ASSERT_EQ(packed10_sample(row, x), src.at(x, sy)) << "w " << w << " x " << x << " y " << y;
                    for (int x = w; x < static_cast<int>(row_words / PACKED10_BLOCK_WORDS) * PACKED10_BLOCK_SAMPLES; x++)
                        ASSERT_EQ(packed10_sample(row, x), 0u) << "padding, w " << w << " x " << x;
                    for (size_t k = 0; k < row_words; k++)
                        ASSERT_EQ(row[k] >> 30, 0u) << "w " << w << " word " << k;
                }
                for (size_t k = row_words * rows; k < dst.size(); k++)
                    ASSERT_EQ(dst[k], 0xdeadbeefu) << "past the rows, w " << w;
            }
    for (const int w : {1920, 3840, 1921, 961})
        for (const bool unaligned : {false, true}) {
            const Plane16 src(w, 2, 0, unaligned, 1023, rng);
            std::vector<uint32_t> dst(packed10_row_words(w) * 2);
            ASSERT_TRUE(pack10_rows_for_device(dst.data(), src.row(0), static_cast<ptrdiff_t>(src.stride), w, 2));
            for (int y = 0; y < 2; y++)
                for (int x = 0; x < w; x++)
                    ASSERT_EQ(packed10_sample(dst.data() + y * packed10_row_words(w), x), src.at(x, y));
        }
}

// A sample above 1023 anywhere (the vectors' blocks, the last partial
// block, any bit above the tenth) is reported, never packed wrongly.
TEST(Pack10, SampleTooLargeIsReported)
{
    std::mt19937 rng(11);
    for (const int w : {24, 50, 97, 1920})
        for (const uint16_t big : {uint16_t{1024}, uint16_t{0x8000}, uint16_t{0xffff}, uint16_t{2047}})
            for (const int x : {0, 7, 8, 16, 23, w / 2, w - 1}) {
                Plane16 src(w, 2, 1, false, 1023, rng);
                src.set(x, 1, big);
                std::vector<uint32_t> dst(packed10_row_words(w) * 2);
                EXPECT_FALSE(pack10_rows_for_device(dst.data(), src.row(0), static_cast<ptrdiff_t>(src.stride), w, 2))
                    << "w " << w << " x " << x << " sample " << big;
            }
    // padding samples beyond w are not read
    Plane16 src(25, 1, 23, false, 1023, rng);
    for (int x = 25; x < 48; x++)
        src.set(x, 0, 0xffff);
    std::vector<uint32_t> dst(packed10_row_words(25));
    EXPECT_TRUE(pack10_rows_for_device(dst.data(), src.row(0), static_cast<ptrdiff_t>(src.stride), 25, 1));
}
