// Pairs of planes for tests of row kernels against each other: every bit
// depth, sizes from the smallest up to an odd 1080p (around the vector widths
// and the 1024-column sums), random and extreme content.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "extractors/frame_view.h"

namespace testfx {

const int kDepths[] = {8, 10, 12, 16};

/// Frame sizes: the smallest, around the vector widths (16 and 32 columns)
/// and the 1024-column sums, odd ones, and an odd 1080p.
const std::pair<int, int> kSizes[] = {{1, 1},     {2, 2},     {3, 3},    {3, 9},   {9, 3},    {4, 5},
                                      {15, 4},    {16, 3},    {17, 7},   {31, 5},  {32, 6},   {33, 11},
                                      {47, 3},    {63, 8},    {64, 4},   {65, 9},  {97, 61},  {1023, 5},
                                      {1024, 3},  {1025, 6},  {2049, 4}, {1921, 1081}};

enum class Content {
    Noise,      ///< independent uniform samples
    Natural,    ///< smooth waves, the second picture a noisy copy
    Zero,       ///< both all 0
    Max,        ///< both all at the maximum
    Opposite,   ///< the first all at the maximum, the second all 0: the largest sums
    Extremes,   ///< 0 and the maximum in blocks, some flipped in the second
    AboveDepth, ///< 10 and 12 bits: rows of the first with any 16-bit value
};
const Content kContents[] = {Content::Noise,    Content::Natural,  Content::Zero,      Content::Max,
                             Content::Opposite, Content::Extremes, Content::AboveDepth};

/// One plane of w x h samples of `bpc` bits, rows tightly packed: the
/// values, and the bytes the caller would store (uint8 at 8 bits, else uint16).
struct Plane {
    int w, h, bpc;
    std::vector<uint16_t> v;
    std::vector<uint8_t> stored;

    vmafhip::PlaneView view() const { return vmafhip::PlaneView{stored.data(), static_cast<ptrdiff_t>(w) * (bpc > 8 ? 2 : 1), w, h}; }
};

/// A pair of planes (see Content); AboveDepth applies only to 10 and 12 bits.
inline std::pair<Plane, Plane> make_planes(int w, int h, int bpc, Content c, uint32_t seed)
{
    Plane a{w, h, bpc, std::vector<uint16_t>(static_cast<size_t>(w) * h), {}}, b = a;
    std::mt19937 rng(seed);
    const int top = (1 << bpc) - 1;
    auto any = [&](int hi) { return static_cast<uint16_t>(std::uniform_int_distribution<int>(0, hi)(rng)); };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const size_t o = static_cast<size_t>(y) * w + x;
            uint16_t &p = a.v[o], &q = b.v[o];
            switch (c) {
            case Content::Noise:
                p = any(top);
                q = any(top);
                break;
            case Content::Natural: {
                const double s = 0.5 + 0.4 * std::sin(x * 0.13 + y * 0.07) * std::cos(y * 0.11 - x * 0.02);
                p = static_cast<uint16_t>(s * top);
                const int n = std::uniform_int_distribution<int>(-top / 30, top / 30)(rng);
                q = static_cast<uint16_t>(std::min(std::max(p + n, 0), top));
                break;
            }
            case Content::Zero:
                p = q = 0;
                break;
            case Content::Max:
                p = q = static_cast<uint16_t>(top);
                break;
            case Content::Opposite:
                p = static_cast<uint16_t>(top);
                q = 0;
                break;
            case Content::Extremes:
                p = ((x / 3 + y / 2) % 3 == 0) != (rng() % 17 == 0) ? static_cast<uint16_t>(top) : 0;
                q = rng() % 5 == 0 ? static_cast<uint16_t>(top - p) : p;
                break;
            case Content::AboveDepth:
                p = y % 7 == 3 ? any(65535) : any(top);
                q = any(top);
                break;
            }
        }
    for (Plane *pl : {&a, &b}) {
        const uint8_t *bytes = reinterpret_cast<const uint8_t *>(pl->v.data());
        pl->stored = bpc > 8 ? std::vector<uint8_t>(bytes, bytes + 2 * pl->v.size())
                             : std::vector<uint8_t>(pl->v.begin(), pl->v.end());
    }
    return {a, b};
}

/// The cases of a frame test: every depth, size and content (AboveDepth at
/// 10 and 12 bits only).
template <typename F> void for_each_frame(F run)
{
    uint32_t seed = 0;
    for (int bpc : kDepths)
        for (const auto &sz : kSizes)
            for (Content c : kContents) {
                if (c == Content::AboveDepth && (bpc == 8 || bpc == 16))
                    continue;
                const auto planes = make_planes(sz.first, sz.second, bpc, c, seed++);
                SCOPED_TRACE(testing::Message() << sz.first << "x" << sz.second << ", " << bpc
                                                << " bits, content " << static_cast<int>(c));
                run(planes.first, planes.second, c);
            }
}

} // namespace testfx
