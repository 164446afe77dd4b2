#include "core/lent_pictures.h"

#include <algorithm>
#include <cerrno>

namespace vmafhip {

namespace {

size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

// Bytes past the last plane, for SIMD code that reads a little beyond a row.
constexpr size_t kTailPadding = 64;
// The largest alignment a borrower may ask for: every block starts there.
constexpr size_t kMaxAlign = 4096;

} // namespace

LentPictures::LentPictures(std::shared_ptr<HostMemory> mem, const Geometry &g)
    : mem_(std::move(mem)), g_(g)
{
}

LentPictures::~LentPictures()
{
    // Nothing is lent (a lent block keeps the pool alive).
    for (auto &b : blocks_)
        free_block(*b);
}

void LentPictures::free_block(Block &b)
{
    // The backend's last copies from it first.
    mem_->fence_done(b.fence, true);
    mem_->delete_fence(b.fence);
    mem_->free(b.mem);
    bytes_ -= b.bytes + kMaxAlign - 1;
}

size_t LentPictures::layout(size_t align, size_t offset[3], ptrdiff_t stride[3]) const
{
    size_t off = 0;
    for (int p = 0; p < 3; p++) {
        offset[p] = 0;
        stride[p] = 0;
        if (p >= g_.picture_planes(g_.planes()))
            continue;
        const size_t row = align_up(static_cast<size_t>(g_.stored_row(p)) * g_.bytes_per_sample(), align);
        offset[p] = off;
        stride[p] = static_cast<ptrdiff_t>(row);
        off = align_up(off + row * static_cast<size_t>(g_.stored_h(p)), align);
    }
    return off;
}

int LentPictures::borrow(int align, VmafHipLentPicture *out)
{
    if (align < 1 || static_cast<size_t>(align) > kMaxAlign || (align & (align - 1)))
        return -EINVAL;
    size_t offset[3];
    ptrdiff_t stride[3];
    const size_t size = layout(static_cast<size_t>(align), offset, stride);
    Block *b = nullptr;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        // Free blocks of memory the backend no longer copies from fastest
        // go (their copies are done: a backend that changed copies from
        // them no more).
        blocks_.erase(std::remove_if(blocks_.begin(), blocks_.end(),
                                     [&](const std::unique_ptr<Block> &blk) {
                                         if (blk->lent || mem_->preferred(blk->mem))
                                             return false;
                                         free_block(*blk);
                                         return true;
                                     }),
                      blocks_.end());
        // A free block whose copies are done, else a new one, else the
        // first free block still being copied from (waited for below).
        Block *copying = nullptr;
        for (auto &blk : blocks_) {
            if (blk->lent || blk->bytes < size)
                continue;
            if (mem_->fence_done(blk->fence, false)) {
                b = blk.get();
                break;
            }
            copying = copying ? copying : blk.get();
        }
        if (!b && blocks_.size() < kMaxBlocks &&
            (blocks_.size() < 2 || bytes_ + size + kTailPadding + kMaxAlign - 1 <= kMaxBytes)) {
            auto blk = std::make_unique<Block>();
            blk->bytes = size + kTailPadding;
            if (!(blk->mem = mem_->alloc(blk->bytes + kMaxAlign - 1)))
                return -ENOMEM;
            blk->base = blk->mem + (kMaxAlign - reinterpret_cast<uintptr_t>(blk->mem) % kMaxAlign) % kMaxAlign;
            if (mem_->new_fence(&blk->fence) < 0) {
                mem_->free(blk->mem);
                return -ENOMEM;
            }
            bytes_ += blk->bytes + kMaxAlign - 1;
            blocks_.push_back(std::move(blk));
            b = blocks_.back().get();
        }
        b = b ? b : copying;
        if (!b)
            return -EAGAIN; // every block the pool may have is borrowed
        b->lent = true;
        b->owner = shared_from_this();
    }
    mem_->fence_done(b->fence, true);
    for (int p = 0; p < 3; p++) {
        out->data[p] = stride[p] ? b->base + offset[p] : nullptr;
        out->stride[p] = stride[p];
    }
    out->size = size;
    out->handle = b;
    return 0;
}

void LentPictures::release(void *handle)
{
    if (!handle)
        return;
    Block *b = static_cast<Block *>(handle);
    // The last reference may be this block's: the pool (and the block) go
    // once the lock is released.
    std::shared_ptr<LentPictures> pool = b->owner;
    std::lock_guard<std::mutex> lock(pool->mutex_);
    b->lent = false;
    b->owner.reset();
}

void LentPictures::usage(size_t *blocks, size_t *bytes) const
{
    std::lock_guard<std::mutex> lock(mutex_);
    *blocks = blocks_.size();
    *bytes = bytes_;
}

void *LentPictures::fence_of(const VmafHipPicture &pic, int planes) const
{
    // The bytes the backend copies: the scored rows of every plane.
    uintptr_t lo[3] = {}, hi[3] = {};
    for (int p = 0; p < planes; p++) {
        if (!g_.scored_w(p) || !g_.scored_h(p))
            continue; // nothing copied: any block holds it
        const uintptr_t first = reinterpret_cast<uintptr_t>(pic.data[p]);
        const uintptr_t last = first + static_cast<uintptr_t>(pic.stride[p]) *
                                           static_cast<uintptr_t>(g_.scored_h(p) - 1);
        lo[p] = first < last ? first : last;
        hi[p] = (first < last ? last : first) +
                static_cast<uintptr_t>(g_.scored_row(p)) * g_.bytes_per_sample();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto &b : blocks_) {
        const uintptr_t begin = reinterpret_cast<uintptr_t>(b->base), end = begin + b->bytes;
        bool inside = b->lent;
        for (int p = 0; p < planes && inside; p++)
            inside = lo[p] == hi[p] || (lo[p] >= begin && hi[p] <= end);
        if (inside)
            return b->fence;
    }
    return nullptr;
}

} // namespace vmafhip
