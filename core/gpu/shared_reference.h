// Reference pictures shared between the GPU contexts of a process. An
// encoding ladder scores several renditions against one decoded source: each
// rendition's context is given the same reference frame (FFmpeg's split
// filter passes one frame to every scoring filter). The first context that
// stages it lists its device copy; the others wait for that copy on their
// own stream and copy it device to device, instead of copying the same
// picture into pinned memory and over the bus again.
//
// Why a match is the same picture: a listing lives only while its owner may
// still read the caller's picture (kept: until the owner collects the frame,
// abandons the stream or ends), and a context looks up only pictures it is
// given kept. Two pictures kept at once at the same addresses, with the same
// strides and sizes, are the same memory, and a kept picture is not written.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "kernels/gpu_compat.h"

namespace vmafhip {

/// What makes two contexts' reference pictures the same bytes on the device:
/// the device, the layout the backends copy them into, the caller's planes.
struct SharedRefKey {
    int device = 0;
    /// w, h, bpc, chroma, layout, the metric planes: equal layouts have equal
    /// device planes.
    std::array<int, 6> layout{};
    std::array<const uint8_t *, 3> data{};
    std::array<ptrdiff_t, 3> stride{};

    bool operator==(const SharedRefKey &o) const
    {
        return device == o.device && layout == o.layout && data == o.data && stride == o.stride;
    }
};

/// The device planes of a listed picture, complete once `ready` has fired.
struct SharedRefPlanes {
    std::array<const uint8_t *, 3> data{};
    hipEvent_t ready = nullptr;
};

struct SharedRef; // one listed picture (shared_reference.cpp)

/// An owner's hold on its listed picture, and a borrower's pin of another's.
using SharedRefHandle = std::shared_ptr<SharedRef>;

enum class SharedRefRole {
    NONE,   ///< listed by the asking context itself: copy it as usual
    OWN,    ///< now listed as being copied by the asking context
    BORROW, ///< another context's copy, pinned: copy from its planes
};

/// Look the picture up. Another context's copy being enqueued is waited for.
/// BORROW: *h pins it and *from holds its planes; give the pin back with
/// shared_ref_unpin() once the device copy from it is enqueued. OWN: *h lists
/// the picture as the asking context's (`owner`): shared_ref_publish() once
/// its copy is enqueued, or shared_ref_unlist() if none comes.
SharedRefRole shared_ref_find(const SharedRefKey &key, const void *owner, SharedRefHandle *h,
                              SharedRefPlanes *from);

/// Owner: the copy is enqueued, complete once from.ready fires.
void shared_ref_publish(const SharedRefHandle &h, const SharedRefPlanes &from);

/// Owner: no later lookup finds the picture (the caller may let it go, or no
/// copy comes: contexts waiting for it copy it from the host themselves).
void shared_ref_unlist(const SharedRefHandle &h);

/// Owner, before its device planes are written again: unlists the picture,
/// waits for the borrowers still enqueueing their copies, and makes `stream`
/// wait for those copies (nullptr: waits for them on the host). Resets *h.
/// @return 0 or a negative errno with *err set.
int shared_ref_settle(SharedRefHandle *h, hipStream_t stream, std::string *err);

/// Borrower: the copy from the pinned planes is enqueued on `stream` (on the
/// device current); the owner's next write waits for it. With no stream (a
/// failure), only the pin is given back. Resets *h.
/// @return 0 or a negative errno with *err set.
int shared_ref_unpin(SharedRefHandle *h, hipStream_t stream, std::string *err);

/// Reference pictures copied from another context's device copy since the
/// process started.
long shared_ref_copies();

} // namespace vmafhip
