#pragma once
// The phase boundaries of the grid collectives (gridschedule.h): every member of a collective
// instance reaches the boundary before any goes on, at the latest member's time. The boundary
// is a point of the algorithm's bookkeeping, not a message: it costs nothing.

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace rankscope::netsim {

class PhaseBarrier
{
public:
    /// `rank` reaches the boundary before round `round` of `instance` at `time`, one of
    /// `members`. False while others are missing (the rank waits); true for the last one:
    /// `released` then holds the ranks that waited and `at` when they all go on.
    bool arrive(uint32_t instance, uint32_t round, uint32_t members, uint32_t rank, double time,
                std::vector<uint32_t>& released, double& at);

private:
    struct Waiting
    {
        uint32_t arrived = 0;
        double latest = 0;
        std::vector<uint32_t> ranks;
    };
    std::unordered_map<uint64_t, Waiting> open_;
};

} // namespace rankscope::netsim
