#pragma once
// Shared machinery of the trace generator: definitions, per-rank clocks, compute regions with
// imbalance and noise, the MPI_Init/MPI_Finalize frame, and collectives. Patterns call these
// building blocks phase by phase over all ranks, so cross-rank dependencies (a receive waits for
// its send, a collective for its last member) are resolved with plain arrays of times and no
// per-event allocation. Each location still receives its events in time order.

#include "model/generator/generatorrandom.h"
#include "model/generator/tracegenerator.h"
#include "model/trace/tracebuilder.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace rankscope {

class GeneratorPattern;

class GeneratorContext
{
public:
    /// `options` must be resolved (regions and message size filled in) and outlive the context.
    GeneratorContext(const GeneratorOptions& options, const GeneratorShape& shape);

    TraceBuilder& builder() { return builder_; }
    const GeneratorOptions& options() const { return options_; }
    uint32_t ranks() const { return options_.ranks; }
    LocationId location(uint32_t rank) const { return LocationId(rank); }
    CommId world() const { return world_; }
    GeneratorRandom& random() { return random_; }

    /// Defines an MPI region (paradigm MPI); call from GeneratorPattern::prepare.
    RegionId addMpiRegion(std::string_view name, RegionRole role);

    int64_t now(uint32_t rank) const { return now_[rank]; }
    void setNow(uint32_t rank, int64_t t) { now_[rank] = t; }
    /// Duration of an MPI call's own work, and half of it (entry to record, record to exit).
    int64_t callNs() const { return callNs_; }
    int64_t halfCallNs() const { return callNs_ / 2; }
    /// latency + bytes / bandwidth, in ns.
    int64_t transferNs(uint64_t bytes) const;
    /// Message size for this run: messageBytes * messageLaw(n), as resolved for the pattern.
    double messageBytes() const { return messageBytes_; }
    /// g(n) * noise and g(n) * imbalance: the relative spreads at this scale.
    double noiseSpread() const { return noiseSpread_; }
    double imbalanceFactor(uint32_t rank) const { return imbalance_[rank]; }

    /// Enter and Leave of compute region `slot` (index into the run's regions) at now(rank).
    void compute(uint32_t rank, size_t slot);
    void enterIteration(uint32_t rank);
    void leaveIteration(uint32_t rank);

    /// One collective over MPI_COMM_WORLD on every rank: Enter + CollectiveBegin at now(r);
    /// all end at max_r now(r) + costNs. `bytes(r)` returns {sent, received} of rank r.
    template <class BytesFn>
    void collective(RegionId region, CollectiveOp op, uint32_t root, int64_t costNs,
                    BytesFn&& bytes);

    void prologue();
    void epilogue();
    /// Runs the pattern over all iterations with progress and cancellation; then finishes.
    Trace run(GeneratorPattern& pattern, const std::function<bool(double)>& progress);

private:
    /// Emits Enter + CollectiveBegin on every rank and returns the time all may end.
    int64_t collectiveEnterAll(RegionId region, int64_t costNs);

    const GeneratorOptions& options_;
    TraceBuilder builder_;
    GeneratorRandom random_;
    CommId world_;
    RegionId main_, iteration_, init_, finalize_;
    std::vector<RegionId> computeRegions_;
    std::vector<double> computeMeanNs_; ///< c * law(n) per compute region
    std::vector<double> imbalance_;     ///< per-rank factor 1 + imbalance * g(n) * u_r
    std::vector<int64_t> now_;
    StringId programName_;
    double noiseSpread_ = 0;
    double messageBytes_ = 0;
    int64_t callNs_ = 0;
};

template <class BytesFn>
void GeneratorContext::collective(RegionId region, CollectiveOp op, uint32_t root, int64_t costNs,
                                  BytesFn&& bytes)
{
    const int64_t end = collectiveEnterAll(region, costNs);
    for (uint32_t r = 0; r < ranks(); ++r) {
        const auto [sent, received] = bytes(r);
        builder_.collectiveEnd(location(r), end, op, world_, root, sent, received);
        builder_.leave(location(r), end + halfCallNs(), region);
        now_[r] = end + halfCallNs();
    }
}

} // namespace rankscope
