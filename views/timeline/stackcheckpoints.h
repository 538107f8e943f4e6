#pragma once
// The open-region stack of a rank's main location at any event index, without scanning from
// the start of the trace.
//
// Design note: a zoomed-in timeline must know which regions are open at the window's first
// event. Scanning back "until the depth balances" does not bound the work (main() stays open the
// whole run, so the scan would reach event 0). Instead one pass at setTrace stores the stack every
// kStride events (a few region ids each, so memory is ~events / kStride x depth); the stack at
// index i is the checkpoint below i replayed over at most kStride - 1 events. The stack rules are
// MpiCallScanner's: a Leave closes the innermost open frame of its region and every frame above
// it; a Leave with no open frame of its region is ignored.

#include "model/trace/ids.h"

#include <cstdint>
#include <vector>

namespace rankscope {

class EventStream;
class Trace;

class StackCheckpoints
{
public:
    static constexpr uint32_t kStride = 256;

    struct Frame
    {
        RegionId region;
        uint32_t enterEvent = 0;
        bool operator==(const Frame&) const = default;
    };
    using Stack = std::vector<Frame>;

    /// One pass over every rank's main location.
    void build(const Trace& trace);
    void clear() { ranks_.clear(); }

    /// The stack after the events [0, index) of `rank`'s main location (reuses `out`).
    void stackAt(RankId rank, size_t index, Stack& out) const;

    /// Applies event `i` of `events` to `stack` (Enter pushes, Leave pops by the rules above).
    static void apply(const EventStream& events, size_t i, Stack& stack);

private:
    struct RankCheckpoints
    {
        const EventStream* events = nullptr;
        std::vector<uint32_t> offsets; ///< checkpoint c's frames: [offsets[c], offsets[c+1])
        std::vector<Frame> frames;
    };
    std::vector<RankCheckpoints> ranks_;
};

} // namespace rankscope
