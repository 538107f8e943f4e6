#include "whatif/netsim/gridschedule.h"

#include <algorithm>

namespace rankscope::netsim {

GridSchedule::GridSchedule(CollKind kind, Algorithm algorithm, uint32_t members, uint32_t root,
                           double bytes, uint32_t streams)
    : s_(members / 2), n_(std::clamp<uint32_t>(streams, 1, std::max<uint32_t>(1, members / 2))),
      rootCluster_(root < members ? root / s_ : 0), rootPos_(root < members ? root % s_ : 0),
      m_(bytes)
{
    while ((uint64_t(1) << log_) < s_)
        ++log_;
    plan(kind, algorithm);
}

void GridSchedule::plan(CollKind kind, Algorithm algorithm)
{
    const double piece = m_ / s_;
    const bool reduce = kind == CollKind::Reduce;
    switch (algorithm) {
    case Algorithm::ExtendedVanDeGeijn: // scatter, counter_copy, allgather
        add(Phase::Scatter, kNear, piece);
        add(Phase::Counter, kNear, piece);
        add(Phase::Ring, kBoth, piece);
        break;
    case Algorithm::FarFirst: // the whole message across, then van de Geijn in each cluster
        add(Phase::Across, kNear, m_);
        add(Phase::Scatter, kBoth, piece);
        add(Phase::Ring, kBoth, piece);
        break;
    case Algorithm::ExtendedRabenseifner:
        // Reduce-scatter, counter_reduce; then allgather, or for a reduce only the far pieces
        // cross and the root's cluster gathers them.
        add(Phase::Ring, kBoth, piece);
        add(Phase::Counter, reduce ? kFar : kBoth, piece);
        if (reduce)
            add(Phase::Gather, kNear, piece);
        else
            add(Phase::Ring, kBoth, piece);
        break;
    case Algorithm::TwoTier: // reduce (reduce-scatter + gather), exchange, bcast (van de Geijn)
        add(Phase::Ring, kBoth, piece);
        add(Phase::Gather, kBoth, piece);
        add(Phase::Across, reduce ? kFar : kBoth, m_);
        if (reduce) break;
        add(Phase::Scatter, kBoth, piece);
        add(Phase::Ring, kBoth, piece);
        break;
    case Algorithm::Grid:
        planGrid(kind);
        break;
    default:
        break;
    }
}

void GridSchedule::planGrid(CollKind kind)
{
    const double block = m_ / (2 * s_); // M/P: one member's share
    switch (kind) {
    case CollKind::Scatter: // the far half across first, then a scatter in each cluster
        add(Phase::Across, kNear, m_ / 2);
        add(Phase::Scatter, kBoth, block);
        break;
    case CollKind::Gather: // the mirror: a gather in each cluster, then the far half across
        add(Phase::Gather, kBoth, block);
        add(Phase::Across, kFar, m_ / 2);
        break;
    case CollKind::Allgather: // blocks to counterparts, then a ring of (own, counterpart's)
        add(Phase::Counter, kBoth, block);
        add(Phase::Ring, kBoth, 2 * block);
        break;
    case CollKind::ReduceScatter: // reduce-scatter of pieces; each keeps half, trades half
        add(Phase::Ring, kBoth, 2 * block);
        add(Phase::Counter, kBoth, block);
        break;
    case CollKind::Alltoall: // parcels for the far cluster across, then handed out there
        add(Phase::Counter, kBoth, m_ / 2);
        add(Phase::Pairwise, kBoth, 2 * block);
        break;
    default:
        break;
    }
}

void GridSchedule::add(Phase phase, uint8_t clusters, double unit)
{
    uint32_t rounds = s_ - 1; // Scatter, Ring, Pairwise
    if (phase == Phase::Gather) rounds = log_;
    if (phase == Phase::Counter) rounds = (s_ + n_ - 1) / n_;
    if (phase == Phase::Across) rounds = 1;
    stages_[stageCount_++] = Stage{phase, clusters, rounds_, rounds, unit};
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
    if (st.phase == Phase::Counter) return counter(st, c, j, k);
    if (st.phase == Phase::Across) { // position 0 sends the message to its counterpart
        if (j != 0) return r;
        if (runs(st, c)) r = CollectiveStep{other * s_, st.unit, kNoPeer};
        if (runs(st, other)) r.recvFrom = other * s_;
        return r;
    }
    if (!runs(st, c)) return r;
    switch (st.phase) {
    case Phase::Scatter: // linear from position 0: round k serves position k + 1
        if (j == 0) r = CollectiveStep{c * s_ + k + 1, st.unit, kNoPeer};
        if (j == k + 1) r.recvFrom = c * s_;
        break;
    case Phase::Ring:
        r = CollectiveStep{c * s_ + (j + 1) % s_, st.unit, c * s_ + (j + s_ - 1) % s_};
        break;
    case Phase::Pairwise: // round k: k + 1 places on, and from as far back
        r = CollectiveStep{c * s_ + (j + k + 1) % s_, st.unit, c * s_ + (j + s_ - k - 1) % s_};
        break;
    case Phase::Gather: { // binomial towards position 0
        const uint32_t bit = 1u << k;
        if (j != 0 && (j & (2 * bit - 1)) == bit)
            r = CollectiveStep{c * s_ + j - bit, std::min<double>(bit, s_ - j) * st.unit, kNoPeer};
        if (j % (2 * bit) == 0 && j + bit < s_) r.recvFrom = c * s_ + j + bit;
        break;
    }
    default:
        break;
    }
    return r;
}

CollectiveStep GridSchedule::counter(const Stage& st, uint32_t c, uint32_t j, uint32_t k) const
{
    // Stream g carries the group g, g + n, g + 2n, ...; j is its i-th member.
    CollectiveStep r;
    const uint32_t other = 1 - c;
    const uint32_t g = j % n_, i = j / n_;
    const uint32_t last = (s_ - 1 - g) / n_; // the group's last place: the stream's last round
    if (runs(st, c)) {
        if (i == 0) { // the stream: place k's piece across (its own first), k + 1's handed in
            if (k <= last) {
                r = CollectiveStep{other * s_ + g + (last - k) * n_, st.unit, kNoPeer};
                // The pieces leave back to back: each waits for the wide area's latency only
                // once the next one is under way (a blocking send of a rendezvous piece would
                // wait for it to arrive before handing in the next).
                r.detached = true;
            }
            if (k < last) r.recvFrom = c * s_ + g + (k + 1) * n_;
        } else if (k + 1 == i) {
            r = CollectiveStep{c * s_ + g, st.unit, kNoPeer};
        }
    }
    // My piece from over there: the group's (last - i)-th, sent in round last - i. A stream
    // takes it after its last send; the others in their hand-in round, i.e. at once.
    if (runs(st, other) && k == (i == 0 ? last : i - 1)) {
        r.recvFrom = other * s_ + g;
        r.recvRound = last - i;
    }
    return r;
}

} // namespace rankscope::netsim
