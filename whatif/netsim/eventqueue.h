#pragma once
// The simulator's one event queue (ALGORITHMS.md §7.2): earliest time first, ties in insertion
// order (a sequence number), so every run processes events in exactly the same order.
//
// A 4-ary heap: half the levels of a binary heap, and the four children of a node share a
// cache line or two, which matters once a million ranks wait in it.

#include <bit>
#include <cstdint>
#include <vector>

namespace rankscope::netsim {

struct SimEvent
{
    double time = 0;
    uint64_t seq = 0;
    uint32_t kind = 0;    ///< who handles it (the engine or a network model)
    uint32_t payload = 0; ///< a rank, a transfer, a link...
};

class EventQueue
{
public:
    void push(double time, uint32_t kind, uint32_t payload)
    {
        // + 0.0 turns a -0.0 into +0.0, which the bit-pattern order needs.
        const SimEvent e{time + 0.0, seq_++, kind, payload};
        size_t i = heap_.size();
        heap_.push_back(e);
        while (i > 0) {
            const size_t parent = (i - 1) / 4;
            if (!before(e, heap_[parent])) break;
            heap_[i] = heap_[parent];
            i = parent;
        }
        heap_[i] = e;
    }
    bool empty() const { return heap_.empty(); }
    const SimEvent& top() const { return heap_.front(); }
    SimEvent pop()
    {
        const SimEvent out = heap_.front();
        const SimEvent last = heap_.back();
        heap_.pop_back();
        const size_t n = heap_.size();
        if (n == 0) return out;
        size_t i = 0;
        for (;;) {
            const size_t first = 4 * i + 1;
            if (first >= n) break;
            size_t best = first;
            const size_t end = first + 4 < n ? first + 4 : n;
            for (size_t c = first + 1; c < end; ++c)
                if (before(heap_[c], heap_[best])) best = c;
            if (!before(heap_[best], last)) break;
            heap_[i] = heap_[best];
            i = best;
        }
        heap_[i] = last;
        return out;
    }
    size_t size() const { return heap_.size(); }
    uint64_t pushed() const { return seq_; }

private:
    __extension__ using Key = unsigned __int128;
    static bool before(const SimEvent& a, const SimEvent& b)
    {
        // (time, seq) compared as one 128-bit number: no hard-to-predict branch on ties.
        return key(a) < key(b);
    }
    static Key key(const SimEvent& e)
    {
        // A double's bits, sign bit flipped for positives and all bits for negatives, order
        // as the doubles do (-0.0 was made +0.0 on the way in).
        const uint64_t bits = std::bit_cast<uint64_t>(e.time);
        const uint64_t ordered = bits ^ (uint64_t(-int64_t(bits >> 63)) | (uint64_t(1) << 63));
        return Key(ordered) << 64 | e.seq;
    }
    std::vector<SimEvent> heap_;
    uint64_t seq_ = 0;
};

} // namespace rankscope::netsim
