#pragma once
// The grid collectives of ALGORITHMS.md §8: two clusters joined by a wide-area link.
//
// Design note: the members form two equal halves, [0, S) and [S, 2S), taken to be the two
// clusters (block mapping of a world communicator on a two-cluster machine); P = 2S. Each
// algorithm is a list of phases run one after the other, with a boundary between phases (every
// member has finished the phase before any starts the next; the boundary itself costs nothing).
// Without the boundaries the phases overlap and finish faster than the sum of the §8 terms. A
// phase runs in the root's ("near") cluster, the far one or both, and moves units of its own
// size. Inside a cluster, of S members: scatter is linear from the phase's source, allgather
// and reduce-scatter are rings, alltoall is pairwise exchange, gather is binomial; each costs
// (S-1)·unit/B without latency, i.e. (S-1)/S·M/B for a unit of M/S, which is what the
// formulas' "M/B" stands for. Across, either position 0 sends one message to its counterpart
// (L + M/B for a whole vector), or the counter phase runs: streams 0..n-1 of a sending cluster
// each send their group's pieces (stream g: positions g, g+n, g+2n, ...), its own first, then
// the others, handed in one round ahead, back to back: L + ceil(S/n)·unit/B. The piece of a
// group's i-th member goes to the (last-i)-th of the same group over there, so a stream's own
// piece goes to a non-stream and two streams exchange only in their final round; non-streams
// post their receive at once, streams after their last send. With rendezvous messages no
// stream thus waits for one still sending (pairing counterparts, both directions at once
// deadlocked). Which member gets which piece only relabels the vector's segments.
//
// Costs without intra-cluster latency and overheads, with M/nB short for ceil(S/n)·M/(S·B)
// (equal when n divides S); sizes as in collectiveschedule.h:
// - scatter (M distributed): the root sends the far half (M/2) to its counterpart, then both
//   scatter blocks of M/P linearly: L + M/2B + (S-1)/S·M/2B = L + (P-1)/P·M/B. This is §8's
//   L + M/B read as above for a scatter over all P: the root's NIC pushes out all but its block.
// - gather (M collected): the mirror, binomial gathers of M/P blocks, then the far gatherer
//   sends its half to the root: L + (P-1)/P·M/B.
// - allgather (M collected): each member's M/P block to its counterpart (counter phase, both
//   ways), then a ring of (own, counterpart's) pairs: L + M/2nB + (S-1)/S·M/B. Only the half
//   a cluster lacks crosses, so the wide-area term is half §8's M/nB (which would move all M).
// - reduce-scatter (M vectors): ring reduce-scatter of M/S pieces, then counterparts trade the
//   halves of their piece the other keeps (M/P): L + M/2nB + (S-1)/S·M/B, as allgather.
// - reduce, extended_rabenseifner: ring reduce-scatter, the far pieces across (counter phase,
//   one way), binomial gather to the root: L + M/nB + M/B + M/B, as §8.
// - reduce, twotier: reduce (reduce-scatter + gather) in each cluster, the far result to the
//   root: L + M/B + M/B + M/B, as §8.
// - alltoall (M from each member): each member's parcel for the far cluster (M/2) goes to its
//   counterpart through the counter phase, then a pairwise exchange inside each cluster hands
//   out (own block, relayed block), M/S a round: L + ceil(S/n)·M/2B + (S-1)/S·M/B. §8's L + M/B
//   has no wide-area volume: each direction carries S·M/2 bytes, so n streams need at least
//   S·M/2nB (2M/B for S = 4, n = 1), whatever the schedule.

#include "whatif/netsim/collectivealgorithm.h"
#include "whatif/netsim/collectivestep.h"

#include <array>
#include <cstdint>

namespace rankscope::netsim {

class GridSchedule
{
public:
    /// `members` must be even; `streams` is n, the node pairs using the wide-area link at once.
    GridSchedule(CollKind kind, Algorithm algorithm, uint32_t members, uint32_t root, double bytes,
                 uint32_t streams);

    uint32_t roundCount() const { return rounds_; }
    /// True when round `k` begins a phase after the first (all must have finished the last).
    bool phaseStart(uint32_t k) const;
    CollectiveStep step(uint32_t member, uint32_t k) const;

private:
    enum class Phase : uint8_t
    {
        Scatter,
        Ring,
        Pairwise,
        Gather,
        Counter,
        Across
    };
    /// Which clusters run a phase (for the phases across: which send).
    enum Clusters : uint8_t
    {
        kNear = 1, ///< the root's
        kFar = 2,
        kBoth = 3
    };
    struct Stage
    {
        Phase phase = Phase::Ring;
        uint8_t clusters = kBoth;
        uint32_t first = 0;
        uint32_t rounds = 0;
        double unit = 0; ///< bytes of a piece (of the message, for Across)
    };
    void plan(CollKind kind, Algorithm algorithm);
    void planGrid(CollKind kind);
    void add(Phase phase, uint8_t clusters, double unit);
    CollectiveStep local(const Stage& s, uint32_t c, uint32_t j, uint32_t k) const;
    CollectiveStep counter(const Stage& s, uint32_t c, uint32_t j, uint32_t k) const;
    uint32_t member(uint32_t c, uint32_t j) const;
    static bool runs(const Stage& s, uint32_t c) { return (s.clusters >> c) & 1u; }

    uint32_t s_;
    uint32_t n_;
    uint32_t rootCluster_, rootPos_;
    double m_;
    uint32_t log_ = 0; // ceil(log2 S)
    std::array<Stage, 5> stages_{};
    uint32_t stageCount_ = 0;
    uint32_t rounds_ = 0;
};

} // namespace rankscope::netsim
