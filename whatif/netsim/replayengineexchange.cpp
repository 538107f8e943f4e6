// ReplayEngine: pairwise exchanges evaluated round by round (pairwiseexchange.h).

#include "whatif/netsim/pairwiseexchange.h"
#include "whatif/netsim/replayengine.h"

#include <algorithm>

namespace rankscope::netsim {

bool ReplayEngine::exchangesByRounds() const
{
    // The conditions of pairwiseexchange.h that the program and the machine decide (the
    // model decides its own in immediate()). Times below zero would read as "not yet" to the
    // message-by-message replay, and negative overheads would let the clock run ahead of a
    // rank.
    if (!(sendOverhead_ >= 0 && recvOverhead_ >= 0)) return false;
    const uint32_t n = program_.rankCount();
    std::vector<bool> taken(machine_.spec().nodes);
    for (uint32_t r = 0; r < n; ++r) {
        const uint32_t node = machine_.nodeOf(r);
        if (node >= taken.size() || taken[node]) return false; // a shared interface
        taken[node] = true;
        if (!(program_.startNs[r] >= 0)) return false;
    }
    for (const Action& a : program_.actions)
        if (a.kind == ActionKind::Compute && !(a.value >= 0)) return false;
    // A rendezvous transfer starts when its receiver posts, which may fall among the sender's
    // exchange messages in any order.
    for (const ProgramMessage& m : program_.messages)
        if (m.src != kNoRank && m.dst != kNoRank && double(m.bytes) > double(options_.eagerLimit))
            return false;
    return true;
}

bool ReplayEngine::exchange(uint32_t r, const Action& a, const CollectiveSchedule& schedule,
                            double& t)
{
    const uint32_t size = schedule.members();
    const uint32_t self = uint32_t(a.value);
    Entering& entering = entering_[a.ref];
    if (entering.times.empty()) entering.times.assign(size, 0.0);
    entering.times[self] = t;
    if (++entering.count < size) {
        ranks_[r].collPhase = kEntered; // sent on by the last member
        return false;
    }
    std::vector<double> times = std::move(entering.times);
    entering_.erase(a.ref);
    const std::vector<uint32_t>& world = program_.comms[program_.collectives[a.ref].comm];
    PairwiseExchange rounds(schedule, world, *immediate_, sendOverhead_, recvOverhead_,
                            options_.eagerLimit);
    // Progress is reported by messages here: at 1024 ranks a round is a thousand of them.
    uint64_t sinceReport = 0;
    for (uint32_t k = 0; k < schedule.roundCount(); ++k) {
        rounds.round(k, times);
        sinceReport += size;
        if (sinceReport >= (uint64_t(1) << 22)) {
            sinceReport = 0;
            if (!progress_.report(actionsDone_)) return false; // run() sees the cancellation
        }
    }
    transfers_ += uint64_t(size) * schedule.roundCount();
    // Every member heard from every other, so none leaves before this one entered (the
    // clock): the queue is never asked to go back.
    for (uint32_t m = 0; m < size; ++m) {
        if (m == self) continue;
        const uint32_t w = world.empty() ? m : world[m];
        ranks_[w].now = times[m];
        ranks_[w].collPhase = kExchanged;
        queue_.push(std::max(times[m], clock_), kResume, w);
    }
    t = times[self];
    return true;
}

} // namespace rankscope::netsim
