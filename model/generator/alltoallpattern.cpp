#include "model/generator/alltoallpattern.h"

#include "model/generator/generatorcontext.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace rankscope {

namespace {

enum Slot : size_t
{
    LocalSort,
    BucketCount,
    Merge
};

} // namespace

std::vector<ComputeRegion> AlltoallPattern::defaultRegions() const
{
    // Strong scaling of a fixed key set: sorting and merging the local keys shrink with 1/n,
    // counting keys into n buckets grows with n.
    return {{"local_sort", 60e6, ScalingLaw::InverseN},
            {"bucket_count", 2e3, ScalingLaw::LinearN},
            {"merge", 20e6, ScalingLaw::InverseN}};
}

void AlltoallPattern::prepare(GeneratorContext& ctx)
{
    allreduce_ = ctx.addMpiRegion("MPI_Allreduce", RegionRole::MpiCollective);
    alltoall_ = ctx.addMpiRegion("MPI_Alltoall", RegionRole::MpiCollective);
    alltoallv_ = ctx.addMpiRegion("MPI_Alltoallv", RegionRole::MpiCollective);
    sent_.assign(ranks_, 0);
}

void AlltoallPattern::runIteration(GeneratorContext& ctx, uint32_t)
{
    const uint64_t n = ranks_;
    const int64_t latency = ctx.transferNs(0);
    for (uint32_t r = 0; r < n; ++r) {
        ctx.enterIteration(r);
        ctx.compute(r, LocalSort);
    }

    const auto steps = static_cast<int64_t>(std::bit_width(ranks_ - 1u));
    ctx.collective(allreduce_, CollectiveOp::Allreduce, kNoRoot, steps * ctx.transferNs(16),
                   [](uint32_t) {
                       return std::pair<uint64_t, uint64_t>{16, 16};
                   });
    for (uint32_t r = 0; r < n; ++r)
        ctx.compute(r, BucketCount);

    // Pairwise exchange: n-1 rounds, each paying the latency.
    const uint64_t counts = 8 * n;
    ctx.collective(alltoall_, CollectiveOp::Alltoall, kNoRoot,
                   int64_t(n - 1) * latency + (ctx.transferNs(counts) - latency), [&](uint32_t) {
                       return std::pair<uint64_t, uint64_t>{counts, counts};
                   });

    // The keys: each rank's share varies with its imbalance and per-iteration noise.
    uint64_t total = 0, largest = 0;
    for (uint32_t r = 0; r < n; ++r) {
        const double noise = std::max(0.0, 1.0 + ctx.noiseSpread() * ctx.random().normal());
        sent_[r] = static_cast<uint64_t>(
            std::llround(std::max(0.0, ctx.messageBytes()) * ctx.imbalanceFactor(r) * noise));
        total += sent_[r];
        largest = std::max(largest, sent_[r]);
    }
    const uint64_t share = total / n, extra = total % n;
    auto received = [&](uint32_t r) { return share + (r < extra ? 1 : 0); };
    largest = std::max(largest, received(0));
    ctx.collective(alltoallv_, CollectiveOp::Alltoallv, kNoRoot,
                   int64_t(n - 1) * latency + (ctx.transferNs(largest) - latency), [&](uint32_t r) {
                       return std::pair<uint64_t, uint64_t>{sent_[r], received(r)};
                   });

    for (uint32_t r = 0; r < n; ++r) {
        ctx.compute(r, Merge);
        ctx.leaveIteration(r);
    }
}

} // namespace rankscope
