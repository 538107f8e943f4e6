#pragma once
// The simulator's one event queue (ALGORITHMS.md §7.2): earliest time first, ties in insertion
// order (a sequence number), so every run processes events in exactly the same order.

#include <cstdint>
#include <queue>
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
        heap_.push(SimEvent{time, seq_++, kind, payload});
    }
    bool empty() const { return heap_.empty(); }
    const SimEvent& top() const { return heap_.top(); }
    SimEvent pop()
    {
        SimEvent e = heap_.top();
        heap_.pop();
        return e;
    }
    size_t size() const { return heap_.size(); }
    uint64_t pushed() const { return seq_; }

private:
    struct Later
    {
        bool operator()(const SimEvent& a, const SimEvent& b) const
        {
            return a.time != b.time ? a.time > b.time : a.seq > b.seq;
        }
    };
    std::priority_queue<SimEvent, std::vector<SimEvent>, Later> heap_;
    uint64_t seq_ = 0;
};

} // namespace rankscope::netsim
