#include "whatif/netsim/collectiveschedule.h"

#include <algorithm>

namespace rankscope::netsim {

namespace {

uint32_t lowestBit(uint32_t v)
{
    return uint32_t(__builtin_ctz(v));
}

} // namespace

CollectiveSchedule::CollectiveSchedule(CollKind kind, Algorithm algorithm, uint32_t members,
                                       uint32_t root, double bytes, uint32_t wideAreaStreams)
    : kind_(kind), alg_(algorithm), p_(members), root_(root < members ? root : 0), m_(bytes),
      block_(bytes / members)
{
    using A = Algorithm;
    if (isGridAlgorithm(alg_)) {
        if (p_ >= 2 && p_ % 2 == 0) {
            grid_.emplace(kind_, alg_, p_, root_, m_, wideAreaStreams);
            rounds_ = grid_->roundCount();
            return;
        }
        // No two equal clusters: the one-cluster algorithm the grid one extends.
        alg_ = kind_ == CollKind::Bcast ? A::VanDeGeijn
               : kind_ == CollKind::Allreduce || kind_ == CollKind::Reduce
                   ? A::Rabenseifner
                   : defaultAlgorithm(kind_);
    }
    while ((uint64_t(1) << log_) < p_)
        ++log_;
    while (uint64_t(pow2_) * 2 <= p_) {
        pow2_ *= 2;
        ++plog_;
    }
    rem_ = p_ - pow2_;
    if (p_ <= 1) {
        rounds_ = 0;
        return;
    }
    switch (alg_) {
    case A::Binomial:
        rounds_ = log_;
        break;
    case A::Linear:
        rounds_ = kind_ == CollKind::Barrier ? 2 * (p_ - 1) : p_ - 1;
        break;
    case A::VanDeGeijn:
        rounds_ = log_ + p_ - 1; // binomial scatter, then a ring allgather
        break;
    case A::Ring:
        rounds_ = kind_ == CollKind::Allreduce ? 2 * (p_ - 1) : p_ - 1;
        break;
    case A::Pairwise:
        rounds_ = p_ - 1;
        break;
    case A::Bruck:
    case A::Dissemination:
        rounds_ = log_;
        break;
    case A::RecursiveDoubling:
    case A::RecursiveHalving:
        rounds_ = plog_ + 2;
        break;
    case A::Hybrid: // far-first binomial bcast; recursive-doubling allgather
        rounds_ = kind_ == CollKind::Bcast ? log_ : plog_ + 2;
        break;
    case A::Rabenseifner:
        rounds_ = kind_ == CollKind::Reduce ? 1 + 2 * plog_ : 2 * plog_ + 2;
        break;
    default:
        break; // the grid algorithms, handled above
    }
}

CollectiveStep CollectiveSchedule::absolute(CollectiveStep s) const
{
    if (s.sendTo != kNoPeer) s.sendTo = fromRelative(s.sendTo);
    if (s.recvFrom != kNoPeer) s.recvFrom = fromRelative(s.recvFrom);
    return s;
}

CollectiveStep CollectiveSchedule::anyStep(uint32_t member, uint32_t k) const
{
    if (grid_) return grid_->step(member, k);
    // The index relative to the root (members are below P; anything else as before).
    const uint32_t v = member < p_ ? wrap(member + p_ - root_) : (member + p_ - root_) % p_;
    const double block = block_;
    using A = Algorithm;
    switch (alg_) {
    case A::Binomial:
        if (kind_ == CollKind::Bcast) return absolute(binomialBcast(v, k));
        if (kind_ == CollKind::Scatter) return absolute(binomialScatter(v, k, block, true));
        return absolute(binomialGather(v, k, block, kind_ == CollKind::Reduce));
    case A::Linear:
        return absolute(linear(v, k));
    case A::VanDeGeijn:
        if (k < log_) return absolute(binomialScatter(v, k, block, true));
        return absolute(ring(v, k - log_, block));
    case A::Ring:
        return absolute(ring(v, k,
                             kind_ == CollKind::Allgather || kind_ == CollKind::Allreduce ||
                                     kind_ == CollKind::ReduceScatter
                                 ? block
                                 : m_));
    case A::Pairwise:
    case A::Bruck:
    case A::Dissemination:
        return absolute(shift(v, k));
    case A::Hybrid: {
        // §9: the bcast tree sends to the farthest members first (the steps that cross
        // sub-clusters, on the switched network), then ever nearer ones (inside a sub-cluster,
        // on the direct network); recursive doubling already goes from near partners with
        // little data to far ones with much. Placement::Hybrid lets the machine put each step
        // by sub-cluster and hop count, not by the size threshold meant for point-to-point.
        CollectiveStep s =
            kind_ == CollKind::Bcast ? binomialScatter(v, k, m_, false) : powerOfTwo(v, k);
        s.placement = Placement::Hybrid;
        return absolute(s);
    }
    case A::RecursiveDoubling:
    case A::RecursiveHalving:
    case A::Rabenseifner:
        if (kind_ == CollKind::Reduce && alg_ == A::Rabenseifner && k > plog_) {
            // Rabenseifner's reduce: reduce-scatter, then a binomial gather of the M/p' blocks
            // among the p' remaining members (new index = member's place among them).
            const uint32_t nr = v < 2 * rem_ ? (v % 2 ? kNoPeer : v / 2) : v - rem_;
            if (nr == kNoPeer) return {};
            CollectiveStep s = binomialGatherAmong(nr, k - plog_ - 1, m_ / pow2_);
            auto back = [&](uint32_t n) { return n < rem_ ? 2 * n : n + rem_; };
            if (s.sendTo != kNoPeer) s.sendTo = back(s.sendTo);
            if (s.recvFrom != kNoPeer) s.recvFrom = back(s.recvFrom);
            return absolute(s);
        }
        return absolute(powerOfTwo(v, k));
    default:
        break;
    }
    return {};
}

CollectiveStep CollectiveSchedule::binomialBcast(uint32_t v, uint32_t k) const
{
    // Round k: members below 2^k pass the data on to v + 2^k.
    CollectiveStep s;
    const uint32_t bit = 1u << k;
    if (v < bit && v + bit < p_) {
        s.sendTo = v + bit;
        s.sendBytes = m_;
    }
    if (v >= bit && v < 2 * bit) s.recvFrom = v - bit;
    return s;
}

CollectiveStep CollectiveSchedule::binomialScatter(uint32_t v, uint32_t k, double block,
                                                   bool perMember) const
{
    // The gather tree run backwards: round k handles bit log-1-k; a member sends its upper
    // subtree's blocks, [v + 2^b, v + 2^(b+1)) clipped to P (or `block` whole, for a bcast).
    CollectiveStep s;
    const uint32_t b = log_ - 1 - k;
    const uint32_t bit = 1u << b;
    if (v % (2 * bit) == 0 && v + bit < p_) {
        s.sendTo = v + bit;
        s.sendBytes = perMember ? std::min<double>(bit, p_ - v - bit) * block : block;
    }
    if (v != 0 && lowestBit(v) == b) s.recvFrom = v - bit;
    return s;
}

CollectiveStep CollectiveSchedule::binomialGather(uint32_t v, uint32_t k, double block,
                                                  bool reduce) const
{
    // Round k: a member whose lowest set bit is k sends to v - 2^k: its subtree [v, v + 2^k)
    // for a gather, the whole vector for a reduce.
    CollectiveStep s;
    const uint32_t bit = 1u << k;
    if (v != 0 && lowestBit(v) == k) {
        s.sendTo = v - bit;
        s.sendBytes = reduce ? m_ : std::min<double>(bit, p_ - v) * block;
    }
    if (v % (2 * bit) == 0 && v + bit < p_) s.recvFrom = v + bit;
    return s;
}

CollectiveStep CollectiveSchedule::binomialGatherAmong(uint32_t nr, uint32_t k, double block) const
{
    CollectiveStep s;
    const uint32_t bit = 1u << k;
    if (nr != 0 && lowestBit(nr) == k) {
        s.sendTo = nr - bit;
        s.sendBytes = std::min<double>(bit, pow2_ - nr) * block;
    }
    if (nr % (2 * bit) == 0 && nr + bit < pow2_) s.recvFrom = nr + bit;
    return s;
}

CollectiveStep CollectiveSchedule::ring(uint32_t v, uint32_t, double bytes) const
{
    return CollectiveStep{wrap(v + 1), bytes, wrap(v + p_ - 1)};
}

CollectiveStep CollectiveSchedule::shift(uint32_t v, uint32_t k) const
{
    const double block = block_;
    if (alg_ == Algorithm::Pairwise) // k < P - 1
        return CollectiveStep{wrap(v + k + 1), block, wrap(v + p_ - k - 1)};
    const uint32_t d = (1u << k) % p_;
    if (alg_ == Algorithm::Dissemination) return CollectiveStep{wrap(v + d), 0.0, wrap(v + p_ - d)};
    if (kind_ == CollKind::Allgather) // Bruck allgather: blocks gathered so far, clipped
        return CollectiveStep{wrap(v + p_ - d), std::min<double>(d, p_ - d) * block, wrap(v + d)};
    // Bruck alltoall: the blocks whose index has bit k set travel 2^k further. Of the indices
    // 0 .. P-1, each whole period of 2^(k+1) has 2^k such, the partial one the part above 2^k.
    const uint64_t half = uint64_t(1) << k, period = 2 * half, tail = p_ % period;
    const uint32_t moved = uint32_t(p_ / period * half + (tail > half ? tail - half : 0));
    return CollectiveStep{wrap(v + d), moved * block, wrap(v + p_ - d)};
}

CollectiveStep CollectiveSchedule::linear(uint32_t v, uint32_t k) const
{
    // Round k: the root and member k + 1. Gather and the barrier's first half go inwards.
    CollectiveStep s;
    const bool barrier = kind_ == CollKind::Barrier;
    const bool inwards =
        kind_ == CollKind::Gather || kind_ == CollKind::Reduce || (barrier && k < p_ - 1);
    const uint32_t peer = (barrier && k >= p_ - 1 ? k - (p_ - 1) : k) + 1;
    const double bytes = barrier                                                 ? 0.0
                         : kind_ == CollKind::Bcast || kind_ == CollKind::Reduce ? m_
                                                                                 : block_;
    if (inwards) {
        if (v == peer) s = CollectiveStep{0, bytes, kNoPeer};
        if (v == 0) s.recvFrom = peer;
    } else {
        if (v == 0) s = CollectiveStep{peer, bytes, kNoPeer};
        if (v == peer) s.recvFrom = 0;
    }
    return s;
}

} // namespace rankscope::netsim

namespace rankscope::netsim {

CollectiveStep CollectiveSchedule::powerOfTwo(uint32_t v, uint32_t k) const
{
    CollectiveStep s;
    const bool gatherData = kind_ == CollKind::Allgather;
    const double block = block_;
    if (k == 0) { // the odd members below 2·rem hand over their data
        if (v < 2 * rem_ && v % 2 == 1) s = CollectiveStep{v - 1, gatherData ? block : m_, kNoPeer};
        if (v < 2 * rem_ && v % 2 == 0) s.recvFrom = v + 1;
        return s;
    }
    if (k == rounds_ - 1) { // and get the result back
        const double bytes = kind_ == CollKind::ReduceScatter ? block : m_;
        if (v < 2 * rem_ && v % 2 == 0) s = CollectiveStep{v + 1, bytes, kNoPeer};
        if (v < 2 * rem_ && v % 2 == 1) s.recvFrom = v - 1;
        return s;
    }
    if (v < 2 * rem_ && v % 2 == 1) return s;
    const uint32_t nr = v < 2 * rem_ ? v / 2 : v - rem_;
    auto back = [&](uint32_t n) { return n < rem_ ? 2 * n : n + rem_; };
    const uint32_t j = k - 1;
    uint32_t partner = 0;
    double bytes = 0;
    const bool halving =
        alg_ == Algorithm::RecursiveHalving || (alg_ == Algorithm::Rabenseifner && j < plog_);
    if (halving) { // reduce-scatter: halve the vector each round, partners far to near
        partner = nr ^ (1u << (plog_ - 1 - j));
        bytes = m_ / double(uint64_t(1) << (j + 1));
    } else if (alg_ == Algorithm::Rabenseifner || gatherData) { // allgather: double the data
        const uint32_t g = alg_ == Algorithm::Rabenseifner ? j - plog_ : j;
        partner = nr ^ (1u << g);
        bytes = m_ * double(uint64_t(1) << g) / pow2_;
    } else { // recursive-doubling allreduce: the whole vector every round
        partner = nr ^ (1u << j);
        bytes = m_;
    }
    return CollectiveStep{back(partner), bytes, back(partner)};
}

} // namespace rankscope::netsim
