#pragma once
// The simulator's one event queue (ALGORITHMS.md §7.2): earliest time first, ties in insertion
// order, so every run processes events in exactly the same order.
//
// Design note: a radix heap. The replay's clock never goes back and almost every event is
// scheduled at or after the earliest one queued, so events are kept in 65 buckets by the
// highest bit in which their time's key differs from that earliest time (bucket 0: equal).
// A push appends to a bucket; when bucket 0 runs dry the lowest non-empty bucket is spread
// over the lower ones around its minimum. Work and memory traffic are sequential (a binary or
// 4-ary heap of a million ranks missed the cache on every level), and each event moves a few
// times at most. Every bucket stays in insertion order (a bucket is spread only into empty
// ones, pushes append), so equal times leave in insertion order with no sequence number.
// The rare event earlier than the earliest queued one (a model's or a test's) goes to a
// small ordinary heap that is always taken first.

#include "whatif/netsim/hugepageallocator.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace rankscope::netsim {

struct SimEvent
{
    double time = 0;
    uint32_t kind = 0;    ///< who handles it (the engine or a network model)
    uint32_t payload = 0; ///< a rank, a transfer, a link...
};

class EventQueue
{
public:
    void push(double time, uint32_t kind, uint32_t payload)
    {
        const Item item{timeKey(time), uint64_t(kind) << 32 | payload};
        ++size_;
        ++pushed_;
        top_ = std::min(top_, time + 0.0);
        if (item.key < last_) {
            pushLate(item);
        } else if (head_ == buckets_[0].size()) { // nothing in the buckets: it is the earliest
            setLast(item.key);
            buckets_[0].push_back(item);
        } else {
            const unsigned b = bucketOf(item.key);
            buckets_[b].push_back(item);
            if (b) mask_ |= uint64_t(1) << (b - 1);
        }
    }
    bool empty() const { return size_ == 0; }
    /// The earliest event's time; infinity when the queue is empty.
    double topTime() const { return top_; }
    SimEvent pop()
    {
        --size_;
        if (!late_.empty()) {
            const SimEvent out = popLate();
            top_ = late_.empty() ? lastTime_ : toTime(late_.front().key);
            return out;
        }
        Bucket& first = buckets_[0];
        const Item item = first[head_];
        if (++head_ == first.size()) {
            first.clear();
            head_ = 0;
            if (mask_)
                refill();
            else
                lastTime_ = kNever; // nothing bucketed
        }
        top_ = lastTime_;
        return event(item);
    }
    /// The payload of the event `ahead` places behind the earliest if that is known without
    /// work and of kind `kind` (for prefetching what it will touch), else kNone.
    uint32_t peek(size_t ahead, uint32_t kind) const
    {
        const size_t i = head_ + ahead;
        if (!late_.empty() || i >= buckets_[0].size() || buckets_[0][i].event >> 32 != kind)
            return kNone;
        return uint32_t(buckets_[0][i].event);
    }
    static constexpr uint32_t kNone = 0xFFFFFFFFu;
    static constexpr double kNever = std::numeric_limits<double>::infinity();
    size_t size() const { return size_; }
    uint64_t pushed() const { return pushed_; }

private:
    struct Item
    {
        uint64_t key;   // timeKey
        uint64_t event; // kind << 32 | payload
    };
    struct LateItem
    {
        uint64_t key, seq, event;
    };

    static uint64_t timeKey(double time)
    {
        // A double's bits, sign bit flipped for positives and all bits for negatives, order as
        // the doubles do (+ 0.0 turns a -0.0 into +0.0 first).
        const uint64_t bits = std::bit_cast<uint64_t>(time + 0.0);
        return bits ^ (uint64_t(-int64_t(bits >> 63)) | (uint64_t(1) << 63));
    }
    static double toTime(uint64_t key)
    {
        return std::bit_cast<double>(key >> 63 ? key ^ (uint64_t(1) << 63) : ~key);
    }
    static SimEvent event(const Item& i)
    {
        return SimEvent{toTime(i.key), uint32_t(i.event >> 32), uint32_t(i.event)};
    }
    unsigned bucketOf(uint64_t key) const
    {
        return key == last_ ? 0u : 64u - unsigned(std::countl_zero(key ^ last_));
    }
    void setLast(uint64_t key)
    {
        last_ = key;
        lastTime_ = toTime(key);
    }
    /// Spreads the lowest non-empty bucket around its minimum, which becomes the earliest.
    void refill()
    {
        const unsigned b = unsigned(std::countr_zero(mask_)) + 1;
        mask_ &= mask_ - 1;
        Bucket& from = buckets_[b];
        uint64_t least = from.front().key;
        for (const Item& i : from)
            least = std::min(least, i.key);
        setLast(least);
        for (const Item& i : from) { // into buckets below b, all empty: order is kept
            const unsigned to = bucketOf(i.key);
            buckets_[to].push_back(i);
            if (to) mask_ |= uint64_t(1) << (to - 1);
        }
        from.clear();
        // Buckets keep their capacity for the next time round, unless together they hold
        // far more than the queue does (a million events once passed through them).
        if (from.capacity() > 65536) {
            size_t held = 0;
            for (const Bucket& bucket : buckets_)
                held += bucket.capacity();
            if (held > 4 * size_) Bucket().swap(from);
        }
    }
    static bool later(const LateItem& a, const LateItem& b)
    {
        return a.key != b.key ? a.key > b.key : a.seq > b.seq;
    }
    void pushLate(const Item& i)
    {
        late_.push_back(LateItem{i.key, pushed_, i.event});
        std::push_heap(late_.begin(), late_.end(), later);
    }
    SimEvent popLate()
    {
        std::pop_heap(late_.begin(), late_.end(), later);
        const LateItem i = late_.back();
        late_.pop_back();
        return event(Item{i.key, i.event});
    }

    using Bucket = std::vector<Item, HugePageAllocator<Item>>;
    std::array<Bucket, 65> buckets_;
    size_t head_ = 0;            // next to take in bucket 0
    uint64_t mask_ = 0;          // bit b-1 set: bucket b (1..64) is not empty
    uint64_t last_ = 0;          // the key of bucket 0 (the earliest bucketed event)
    double lastTime_ = kNever;   // and its time; kNever when nothing is bucketed
    double top_ = kNever;        // the earliest time of all
    std::vector<LateItem> late_; // earlier than last_: a heap, taken first
    size_t size_ = 0;
    uint64_t pushed_ = 0;
};

} // namespace rankscope::netsim
