// The pictures a context lends (vmafhip_picture_borrow()): blocks of host
// memory from the backend, in the layout of one frame, reused once their
// caller has released them and the backend's copy from them is done.
//
// Thread-safe: readers borrow and release from their own threads while the
// context submits. The pool lives while the context or any lent block does,
// so a picture released after vmafhip_close() is still freed properly.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "core/host_memory.h"
#include "extractors/frame_view.h"
#include "vmafhip.h"

namespace vmafhip {

class LentPictures : public std::enable_shared_from_this<LentPictures> {
public:
    static constexpr size_t kMaxBlocks = 64;
    /// Beyond two blocks, lent memory stays below this.
    static constexpr size_t kMaxBytes = size_t(1) << 30;

    LentPictures(std::shared_ptr<HostMemory> mem, const Geometry &g);
    ~LentPictures();

    /// vmafhip_picture_borrow(). @return 0, -EINVAL, -EAGAIN or -ENOMEM.
    int borrow(int align, VmafHipLentPicture *out);

    /// vmafhip_picture_release().
    static void release(void *handle);

    /// The blocks the pool holds now, lent or not, and their bytes.
    void usage(size_t *blocks, size_t *bytes) const;

    /// The fence of the lent block that holds every plane of `pic` (planes
    /// planes), or nullptr when the picture is not (all) in one lent block.
    void *fence_of(const VmafHipPicture &pic, int planes) const;

private:
    struct Block {
        uint8_t *mem = nullptr;  ///< as allocated
        uint8_t *base = nullptr; ///< mem aligned to kMaxAlign: the picture's start
        size_t bytes = 0;        ///< from base
        void *fence = nullptr;
        bool lent = false;
        std::shared_ptr<LentPictures> owner; ///< set while lent: keeps the pool alive
    };

    /// Waits for the backend's copies from b, then frees it.
    void free_block(Block &b);

    /// Bytes of a picture with rows and planes aligned to `align`; fills the
    /// plane offsets and strides.
    size_t layout(size_t align, size_t offset[3], ptrdiff_t stride[3]) const;

    std::shared_ptr<HostMemory> mem_;
    Geometry g_;
    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<Block>> blocks_;
    size_t bytes_ = 0;
};

} // namespace vmafhip
