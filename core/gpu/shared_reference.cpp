#include "core/gpu/shared_reference.h"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/gpu/gpu_check.h"

namespace vmafhip {

struct SharedRef {
    enum State { COPYING, READY, GONE };

    SharedRefKey key;
    const void *owner = nullptr;
    // Guarded by the registry's mutex:
    State state = COPYING;
    bool listed = true;
    SharedRefPlanes planes;
    int pins = 0;                   ///< borrowers enqueueing their copies
    std::vector<hipEvent_t> copies; ///< recorded after borrowers' copies
};

namespace {

struct KeyHash {
    size_t operator()(const SharedRefKey &k) const
    {
        size_t h = std::hash<int>()(k.device);
        const auto mix = [&h](size_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
        for (int v : k.layout)
            mix(std::hash<int>()(v));
        for (int q = 0; q < 3; q++) {
            mix(std::hash<const void *>()(k.data[q]));
            mix(std::hash<ptrdiff_t>()(k.stride[q]));
        }
        return h;
    }
};

// Process-wide; never destroyed: its events would outlive the GPU runtime's
// own teardown at exit.
struct Registry {
    std::mutex mu;
    std::condition_variable changed;
    std::unordered_map<SharedRefKey, SharedRefHandle, KeyHash> listed;
    /// Events borrowers recorded that no owner waits for any more, per device.
    std::unordered_map<int, std::vector<hipEvent_t>> spare;
    std::atomic<long> copies{0};
};

Registry &registry()
{
    static Registry *r = new Registry;
    return *r;
}

// With the registry locked.
void unlist_locked(Registry &r, SharedRef &s)
{
    if (s.listed) {
        r.listed.erase(s.key);
        s.listed = false;
    }
    if (s.state == SharedRef::COPYING) {
        s.state = SharedRef::GONE;
        r.changed.notify_all();
    }
}

} // namespace

SharedRefRole shared_ref_find(const SharedRefKey &key, const void *owner, SharedRefHandle *h,
                              SharedRefPlanes *from)
{
    Registry &r = registry();
    std::unique_lock<std::mutex> lock(r.mu);
    for (;;) {
        const auto it = r.listed.find(key);
        if (it == r.listed.end()) {
            auto s = std::make_shared<SharedRef>();
            s->key = key;
            s->owner = owner;
            r.listed.emplace(key, s);
            *h = std::move(s);
            return SharedRefRole::OWN;
        }
        const SharedRefHandle s = it->second;
        if (s->owner == owner)
            return SharedRefRole::NONE;
        if (s->state == SharedRef::READY) {
            s->pins++;
            *from = s->planes;
            *h = s;
            return SharedRefRole::BORROW;
        }
        // Being copied: its owner publishes or unlists it without waiting for
        // anything (unlisted, the next round lists it for the asking context).
        r.changed.wait(lock, [&] { return s->state != SharedRef::COPYING; });
    }
}

void shared_ref_publish(const SharedRefHandle &h, const SharedRefPlanes &from)
{
    Registry &r = registry();
    const std::lock_guard<std::mutex> lock(r.mu);
    if (h->state != SharedRef::COPYING)
        return;
    h->planes = from;
    h->state = SharedRef::READY;
    r.changed.notify_all();
}

void shared_ref_unlist(const SharedRefHandle &h)
{
    if (!h)
        return;
    Registry &r = registry();
    const std::lock_guard<std::mutex> lock(r.mu);
    unlist_locked(r, *h);
}

int shared_ref_settle(SharedRefHandle *h, hipStream_t stream, std::string *err)
{
    if (!*h)
        return 0;
    const SharedRefHandle s = std::move(*h);
    h->reset();
    Registry &r = registry();
    std::vector<hipEvent_t> copies;
    {
        std::unique_lock<std::mutex> lock(r.mu);
        unlist_locked(r, *s);
        // Pins are held only while a borrower enqueues (never while waiting).
        r.changed.wait(lock, [&] { return s->pins == 0; });
        copies.swap(s->copies);
    }
    int ret = 0;
    for (hipEvent_t e : copies) {
        // The wait is on the copy as recorded now: a borrower may record the
        // event again once it is spare.
        const hipError_t w = stream ? hipStreamWaitEvent(stream, e, 0) : hipEventSynchronize(e);
        if (w != hipSuccess && ret == 0)
            ret = gpu_error(w, stream ? "hipStreamWaitEvent(borrower's copy)"
                                      : "hipEventSynchronize(borrower's copy)",
                            __FILE__, __LINE__, err);
    }
    const std::lock_guard<std::mutex> lock(r.mu);
    std::vector<hipEvent_t> &spare = r.spare[s->key.device];
    spare.insert(spare.end(), copies.begin(), copies.end());
    return ret;
}

int shared_ref_unpin(SharedRefHandle *h, hipStream_t stream, std::string *err)
{
    if (!*h)
        return 0;
    const SharedRefHandle s = std::move(*h);
    h->reset();
    Registry &r = registry();
    hipEvent_t e = nullptr;
    int ret = 0;
    if (stream) {
        {
            const std::lock_guard<std::mutex> lock(r.mu);
            std::vector<hipEvent_t> &spare = r.spare[s->key.device];
            if (!spare.empty()) {
                e = spare.back();
                spare.pop_back();
            }
        }
        const auto record = [&]() -> int {
            if (!e)
                GPU_TRY(hipEventCreateWithFlags(&e, hipEventDisableTiming));
            GPU_TRY(hipEventRecord(e, stream));
            return 0;
        };
        ret = record();
    }
    const std::lock_guard<std::mutex> lock(r.mu);
    if (e && ret == 0) {
        s->copies.push_back(e);
        r.copies.fetch_add(1, std::memory_order_relaxed);
    } else if (e) {
        r.spare[s->key.device].push_back(e);
    }
    s->pins--;
    r.changed.notify_all();
    return ret;
}

long shared_ref_copies()
{
    return registry().copies.load(std::memory_order_relaxed);
}

} // namespace vmafhip
