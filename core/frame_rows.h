// Per-frame score rows at stable addresses: the public API hands out
// pointers to a frame's values that must stay valid until close, so rows
// live in fixed blocks that are never moved or reallocated.
#pragma once

#include <cstddef>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

namespace vmafhip {

class FrameRows {
public:
    /// Values per row; set before the first add().
    void set_width(size_t width) { width_ = width; }
    size_t width() const { return width_; }
    unsigned size() const { return n_; }

    /// A new row of NaNs, at an address that stays valid until destruction.
    double *add()
    {
        if (n_ % kRowsPerBlock == 0) {
            // Owned before the vector grows: a failed growth frees it.
            std::unique_ptr<double[]> block(new double[kRowsPerBlock * (width_ ? width_ : 1)]);
            blocks_.push_back(std::move(block));
        }
        double *r = row(n_++);
        std::fill_n(r, width_, std::numeric_limits<double>::quiet_NaN());
        return r;
    }
    double *row(unsigned i) { return blocks_[i / kRowsPerBlock].get() + (i % kRowsPerBlock) * width_; }
    const double *row(unsigned i) const
    {
        return blocks_[i / kRowsPerBlock].get() + (i % kRowsPerBlock) * width_;
    }

private:
    static constexpr unsigned kRowsPerBlock = 256;
    size_t width_ = 0;
    unsigned n_ = 0;
    std::vector<std::unique_ptr<double[]>> blocks_;
};

} // namespace vmafhip
