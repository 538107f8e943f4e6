#pragma once
// The pairwise-exchange alltoall (collectiveschedule.h: in round k member v sends to v + k + 1
// and receives from v - k - 1) replayed round by round over all members at once, for the
// replay engine on a model that knows each arrival as the transfer starts (ImmediateModel).
//
// Design note: message by message, the alltoall of P ranks is P (P - 1) transfers and about
// P^2 / 2 queue events, a million per call at 1024 ranks. With such a model, at most one rank
// per node and no transfer that starts later than its sender posted it for a reason outside
// the collective (a point-to-point rendezvous), a member's times depend only on the times at
// which the members entered: its sends use only its own node's interface, in its own order,
// and every wait ends at a time that the two ends' times determine. So once the last member
// has entered, the engine computes every member's exit here, with the arithmetic of the
// message-by-message replay (ReplayEngine::postSend, postRecv, delivered, waitSide), in the
// same order for every value: the results are the same to the bit.

#include "whatif/netsim/collectiveschedule.h"
#include "whatif/netsim/networkmodel.h"

#include <cstdint>
#include <vector>

namespace rankscope::netsim {

class PairwiseExchange
{
public:
    /// `schedule` is a pairwise exchange of P >= 2 members; `world` maps members to ranks
    /// (empty: member i is rank i). Messages up to `eagerLimit` bytes are eager, larger ones
    /// rendezvous, as in the engine.
    PairwiseExchange(const CollectiveSchedule& schedule, const std::vector<uint32_t>& world,
                     ImmediateModel& model, double sendOverheadNs, double recvOverheadNs,
                     uint64_t eagerLimit);

    /// Replays round `k` (rounds in order, from 0 to schedule.roundCount() - 1) on `t`, each
    /// member's time (by member index), which becomes the time it finished the round.
    void round(uint32_t k, std::vector<double>& t);

private:
    uint32_t rankOf(uint32_t member) const { return world_.empty() ? member : world_[member]; }

    const CollectiveSchedule& schedule_;
    const std::vector<uint32_t>& world_;
    ImmediateModel& model_;
    double sendOverhead_, recvOverhead_;
    uint64_t eagerLimit_;
    std::vector<double> ready_;   // per member: when its send and receive were posted
    std::vector<double> arrival_; // per member: when the message it sent arrived
    std::vector<char> eager_;     // per member: whether that message went eagerly
};

} // namespace rankscope::netsim
