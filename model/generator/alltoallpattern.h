#pragma once
// Bucket sort, the all-to-all pattern: every iteration on every rank
//   iteration { local_sort, MPI_Allreduce (key range, 16 bytes), bucket_count,
//               MPI_Alltoall (one 8-byte count per rank), MPI_Alltoallv (the keys), merge }
// which is 20 events. Keys sent by rank r: messageBytes * law(n), scaled by r's imbalance and
// per-iteration noise; received: the total spread evenly (sums of sent and received agree).

#include "model/generator/generatorpattern.h"

#include <vector>

namespace rankscope {

class AlltoallPattern : public GeneratorPattern
{
public:
    explicit AlltoallPattern(uint32_t ranks) : ranks_(ranks) {}

    std::vector<ComputeRegion> defaultRegions() const override;
    double defaultMessageBytes() const override { return 64.0 * 1024 * 1024; }
    ScalingLaw defaultMessageLaw() const override { return ScalingLaw::InverseN; }
    uint64_t iterationEvents(uint32_t) const override { return 20; }
    uint64_t iterationMessages() const override { return 0; }
    uint64_t iterationCollectives() const override { return 3; }
    void prepare(GeneratorContext& ctx) override;
    void runIteration(GeneratorContext& ctx, uint32_t iteration) override;

private:
    uint32_t ranks_;
    std::vector<uint64_t> sent_; ///< Alltoallv bytes per rank, refilled each iteration
    RegionId allreduce_, alltoall_, alltoallv_;
};

} // namespace rankscope
