#pragma once
// Ping-pong between the ranks of each pair (2k, 2k+1), blocking MPI_Send/MPI_Recv:
//   even rank: iteration { prepare, MPI_Send (tag 1), MPI_Recv (tag 2), compute }
//   odd rank:  iteration { MPI_Recv (tag 1), compute, prepare, MPI_Send (tag 2) }
// 12 events per rank and iteration; one message each way per pair and iteration.

#include "model/generator/generatorpattern.h"

namespace rankscope {

class PingPongPattern : public GeneratorPattern
{
public:
    /// `ranks` must be even (every rank needs a partner).
    explicit PingPongPattern(uint32_t ranks);

    std::vector<ComputeRegion> defaultRegions() const override;
    double defaultMessageBytes() const override { return 65536.0; }
    ScalingLaw defaultMessageLaw() const override { return ScalingLaw::Constant; }
    uint64_t iterationEvents(uint32_t) const override { return 12; }
    uint64_t iterationMessages() const override { return ranks_; }
    uint64_t iterationCollectives() const override { return 0; }
    void prepare(GeneratorContext& ctx) override;
    void runIteration(GeneratorContext& ctx, uint32_t iteration) override;

private:
    uint32_t ranks_;
    uint64_t bytes_ = 0;
    RegionId send_, recv_;
};

} // namespace rankscope
