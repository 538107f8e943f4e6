#include "whatif/netsim/gridschedule.h"

#include <algorithm>

namespace rankscope::netsim {

GridSchedule::GridSchedule(Algorithm algorithm, uint32_t members, uint32_t root, double bytes,
                           uint32_t streams)
    : s_(members / 2), n_(std::clamp<uint32_t>(streams, 1, std::max<uint32_t>(1, members / 2))),
      rootCluster_(root < members ? root / s_ : 0), rootPos_(root < members ? root % s_ : 0),
      m_(bytes), piece_(bytes / s_)
{
    while ((uint64_t(1) << log_) < s_)
        ++log_;
    const uint32_t ring = s_ - 1;
    const uint32_t across = (s_ + n_ - 1) / n_;
    switch (algorithm) {
    case Algorithm::ExtendedVanDeGeijn: // scatter, counter_copy, allgather
        add(Phase::Scatter, false, ring);
        add(Phase::Counter, false, across);
        add(Phase::Ring, true, ring);
        break;
    case Algorithm::FarFirst: // the whole message across, then van de Geijn in each cluster
        add(Phase::Across, false, 1);
        add(Phase::Scatter, true, ring);
        add(Phase::Ring, true, ring);
        break;
    case Algorithm::ExtendedRabenseifner: // reduce-scatter, counter_reduce, allgather
        add(Phase::Ring, true, ring);
        add(Phase::Counter, true, across);
        add(Phase::Ring, true, ring);
        break;
    case Algorithm::TwoTier: // reduce (reduce-scatter + gather), exchange, bcast (van de Geijn)
        add(Phase::Ring, true, ring);
        add(Phase::Gather, true, log_);
        add(Phase::Across, true, 1);
        add(Phase::Scatter, true, ring);
        add(Phase::Ring, true, ring);
        break;
    default:
        break;
    }
}

void GridSchedule::add(Phase phase, bool bothClusters, uint32_t rounds)
{
    stages_[stageCount_++] = Stage{phase, bothClusters, rounds_, rounds};
    rounds_ += rounds;
}

bool GridSchedule::phaseStart(uint32_t k) const
{
    for (uint32_t i = 1; i < stageCount_; ++i)
        if (stages_[i].first == k) return true;
    return false;
}

uint32_t GridSchedule::member(uint32_t c, uint32_t j) const
{
    return ((c + rootCluster_) % 2) * s_ + (j + rootPos_) % s_;
}

CollectiveStep GridSchedule::step(uint32_t m, uint32_t k) const
{
    // Positions relative to the root: its cluster is 0 and it is position 0 there.
    const uint32_t c = (m / s_ + 2 - rootCluster_) % 2;
    const uint32_t j = (m % s_ + s_ - rootPos_) % s_;
    uint32_t i = 0;
    while (i + 1 < stageCount_ && k >= stages_[i + 1].first)
        ++i;
    CollectiveStep r = local(stages_[i], c, j, k - stages_[i].first);
    if (r.sendTo != kNoPeer) r.sendTo = member(r.sendTo / s_, r.sendTo % s_);
    if (r.recvFrom != kNoPeer) r.recvFrom = member(r.recvFrom / s_, r.recvFrom % s_);
    if (r.recvRound != kNoPeer) r.recvRound += stages_[i].first;
    return r;
}

CollectiveStep GridSchedule::local(const Stage& st, uint32_t c, uint32_t j, uint32_t k) const
{
    // Peers are returned as c·S + j (relative); the caller maps them back.
    CollectiveStep r;
    const uint32_t other = 1 - c;
    const bool active = st.bothClusters || c == 0;
    switch (st.phase) {
    case Phase::Scatter: // linear from position 0: round k serves position k + 1
        if (!active) break;
        if (j == 0) r = CollectiveStep{c * s_ + k + 1, piece_, kNoPeer};
        if (j == k + 1) r.recvFrom = c * s_;
        break;
    case Phase::Ring:
        r = CollectiveStep{c * s_ + (j + 1) % s_, piece_, c * s_ + (j + s_ - 1) % s_};
        break;
    case Phase::Gather: { // binomial towards position 0
        const uint32_t bit = 1u << k;
        if (j != 0 && (j & (2 * bit - 1)) == bit)
            r = CollectiveStep{c * s_ + j - bit, std::min<double>(bit, s_ - j) * piece_, kNoPeer};
        if (j % (2 * bit) == 0 && j + bit < s_) r.recvFrom = c * s_ + j + bit;
        break;
    }
    case Phase::Across: // position 0 sends the whole vector to its counterpart
        if (j != 0) break;
        if (active) r = CollectiveStep{other * s_, m_, kNoPeer};
        if (st.bothClusters || c == 1) r.recvFrom = other * s_;
        break;
    case Phase::Counter: {
        const uint32_t last = (s_ + n_ - 1) / n_ - 1;
        if (active) {
            if (j < n_) { // designated: piece j + k·n across, the next handed in meanwhile
                if (j + k * n_ < s_) r = CollectiveStep{other * s_ + j + k * n_, piece_, kNoPeer};
                if (j + (k + 1) * n_ < s_) r.recvFrom = c * s_ + j + (k + 1) * n_;
            } else if (k + 1 == j / n_) {
                r = CollectiveStep{c * s_ + j % n_, piece_, kNoPeer};
            }
        }
        if ((st.bothClusters || c == 1) && k == last) { // what the other cluster sent to me
            r.recvFrom = other * s_ + j % n_;
            r.recvRound = j / n_;
        }
        break;
    }
    }
    return r;
}

} // namespace rankscope::netsim
