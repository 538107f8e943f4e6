#pragma once
// A collective algorithm as rounds of point-to-point messages (ALGORITHMS.md §8).
//
// In round k a member sends at most one message and receives at most one; a message sent in
// round k is received in round k (or in a later round the step names), so both ends name it by
// (sending round, sender). The grid algorithms (gridschedule.h) add phase boundaries. Rounds
// are computed arithmetically from (algorithm, P, root, member), never stored, so a
// million-rank allreduce costs no memory. Non-power-of-two counts use the usual extra rounds: with
// p' the largest power of two <= P and rem = P - p', the odd members below 2·rem first hand their
// data to the even one below them and get the result back at the end (MPICH's scheme, mirrored so
// that member 0 always takes part and can be a root).
//
// Sizes (the operation's M): bcast, reduce, allreduce and reduce-scatter move vectors of M
// bytes; allgather and gather collect M bytes in all (M/P per member); scatter distributes M;
// alltoall sends M from each member (M/P to each). Reductions cost no computation.

#include "whatif/netsim/collectivealgorithm.h"
#include "whatif/netsim/collectivestep.h"
#include "whatif/netsim/gridschedule.h"

#include <cstdint>
#include <optional>

namespace rankscope::netsim {

class CollectiveSchedule
{
public:
    /// `wideAreaStreams` is the grid algorithms' n (§8).
    CollectiveSchedule(CollKind kind, Algorithm algorithm, uint32_t members, uint32_t root,
                       double bytes, uint32_t wideAreaStreams = 1);

    uint32_t roundCount() const { return rounds_; }
    uint32_t members() const { return p_; }
    /// The algorithm the rounds follow (the one-cluster one a grid algorithm fell back to).
    Algorithm algorithm() const { return alg_; }
    /// True when all members must have finished round k-1 before any starts round k.
    bool phaseStart(uint32_t k) const { return grid_ && grid_->phaseStart(k); }
    /// What `member` does in round `k` (< roundCount()).
    CollectiveStep step(uint32_t member, uint32_t k) const
    {
        // The pairwise alltoall (the default) is P - 1 rounds of P messages, so a replay asks
        // this P^2 times: answered here, without a call.
        if (alg_ == Algorithm::Pairwise && member < p_) {
            const uint32_t v = wrap(member + p_ - root_);
            return CollectiveStep{fromRelative(wrap(v + k + 1)), block_,
                                  fromRelative(wrap(v + p_ - k - 1))};
        }
        return anyStep(member, k);
    }

private:
    CollectiveStep anyStep(uint32_t member, uint32_t k) const;
    CollectiveStep binomialBcast(uint32_t v, uint32_t k) const;
    /// The far-first binomial tree; sends `block` per member of the subtree, or `block` whole.
    CollectiveStep binomialScatter(uint32_t v, uint32_t k, double block, bool perMember) const;
    CollectiveStep binomialGather(uint32_t v, uint32_t k, double block, bool reduce) const;
    CollectiveStep binomialGatherAmong(uint32_t nr, uint32_t k, double block) const;
    CollectiveStep ring(uint32_t v, uint32_t k, double bytes) const;
    /// Recursive doubling / halving among p' members with the non-power-of-two rounds around.
    CollectiveStep powerOfTwo(uint32_t v, uint32_t k) const;
    CollectiveStep shift(uint32_t v, uint32_t k) const;
    CollectiveStep linear(uint32_t v, uint32_t k) const;
    /// x mod P for x < 2P: a compare instead of a division (step runs once per message end).
    uint32_t wrap(uint32_t x) const { return x >= p_ ? x - p_ : x; }
    uint32_t fromRelative(uint32_t v) const { return wrap(v + root_); }
    CollectiveStep absolute(CollectiveStep s) const;

    CollKind kind_;
    Algorithm alg_;
    uint32_t p_;
    uint32_t root_;
    double m_;
    double block_;      // m_ / P, the share of one member
    uint32_t log_ = 0;  // ceil(log2 P)
    uint32_t pow2_ = 1; // p'
    uint32_t plog_ = 0; // log2 p'
    uint32_t rem_ = 0;
    uint32_t rounds_ = 0;
    std::optional<GridSchedule> grid_;
};

} // namespace rankscope::netsim
