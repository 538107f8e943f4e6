#pragma once
// The grid collectives of ALGORITHMS.md §8: two clusters joined by a wide-area link.
//
// Design note: the members form two equal halves, [0, S) and [S, 2S), taken to be the two
// clusters (block mapping of a world communicator on a two-cluster machine). Each algorithm is
// a list of phases run one after the other, with a boundary between phases (every member has
// finished the phase before any starts the next; the boundary itself costs nothing). Without
// the boundaries the phases overlap and finish faster than the sum of the §8 terms. Inside a
// cluster, of S members, a piece is M/S: scatter is linear from the phase's source, allgather
// and reduce-scatter are rings, gather is binomial; each costs (S-1)/S·M/B without latency,
// which is what the formulas' "M/B" stands for. Across: the n designated members (positions
// 0..n-1) of a sending cluster send ceil(S/n) pieces each, back to back, while the others hand
// their pieces to them (member j to j mod n, one round ahead); every counterpart posts its
// receive in the phase's last round, so no one waits for the wide-area latency mid-phase.

#include "whatif/netsim/collectivealgorithm.h"
#include "whatif/netsim/collectivestep.h"

#include <array>
#include <cstdint>

namespace rankscope::netsim {

class GridSchedule
{
public:
    /// `members` must be even; `streams` is n, the node pairs using the wide-area link at once.
    GridSchedule(Algorithm algorithm, uint32_t members, uint32_t root, double bytes,
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
        Gather,
        Counter,
        Across
    };
    struct Stage
    {
        Phase phase = Phase::Ring;
        bool bothClusters = true; ///< else only the root's cluster (sends)
        uint32_t first = 0;
        uint32_t rounds = 0;
    };
    void add(Phase phase, bool bothClusters, uint32_t rounds);
    CollectiveStep local(const Stage& s, uint32_t c, uint32_t j, uint32_t k) const;
    uint32_t member(uint32_t c, uint32_t j) const;

    uint32_t s_;
    uint32_t n_;
    uint32_t rootCluster_, rootPos_;
    double m_, piece_;
    uint32_t log_ = 0; // ceil(log2 S)
    std::array<Stage, 5> stages_{};
    uint32_t stageCount_ = 0;
    uint32_t rounds_ = 0;
};

} // namespace rankscope::netsim
