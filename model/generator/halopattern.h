#pragma once
// Halo exchange on a non-periodic Cartesian grid: "stencil2d" (5-point, 4 face neighbours, grid
// from MPI_Dims_create) and "stencil3d" (26 neighbours: faces, edges, corners, LULESH-like, on a
// k x k x k grid). Per iteration and rank with k neighbours:
//   iteration { MPI_Irecv x k, pack, MPI_Isend x k, compute_interior,
//               MPI_Waitall (k MpiIrecv + k MpiIsendComplete), unpack, compute_boundary,
//               MPI_Allreduce (8 bytes) }
// which is 16 + 8k events. A message sent in direction d carries tag d.

#include "model/generator/generatorpattern.h"
#include "model/generator/processgrid.h"

#include <cstdint>
#include <vector>

namespace rankscope {

class HaloPattern : public GeneratorPattern
{
public:
    /// dimensions 2 (5-point) or 3 (26 neighbours; `ranks` must be a cube).
    HaloPattern(uint32_t ranks, int dimensions);

    std::vector<ComputeRegion> defaultRegions() const override;
    double defaultMessageBytes() const override;
    ScalingLaw defaultMessageLaw() const override { return ScalingLaw::InverseSqrtN; }
    uint64_t iterationEvents(uint32_t rank) const override;
    uint64_t iterationMessages() const override { return messagesPerIteration_; }
    uint64_t iterationCollectives() const override { return 1; }
    void prepare(GeneratorContext& ctx) override;
    void runIteration(GeneratorContext& ctx, uint32_t iteration) override;

    const ProcessGrid& grid() const { return grid_; }

private:
    struct Neighbour
    {
        uint32_t rank;
        uint32_t direction; ///< index into offsets_ of the neighbour as seen from this rank
    };

    /// Neighbours of `rank` on the grid, from its coordinates (no lists needed).
    uint32_t neighbourCount(uint32_t rank) const;

    int dimensions_;
    ProcessGrid grid_;
    uint64_t messagesPerIteration_ = 0; ///< neighbour pairs, counted without the lists
    std::vector<ProcessGrid::Coords> offsets_;
    std::vector<uint32_t> opposite_; ///< direction index of -offset
    // Built by prepare(), so that sizing and checking a run cost no memory per neighbour.
    std::vector<uint32_t> firstNeighbour_; ///< CSR: neighbours of r are [first[r], first[r+1])
    std::vector<Neighbour> neighbours_;
    std::vector<uint64_t> bytes_;   ///< message size per direction
    std::vector<int64_t> sendTime_; ///< [rank * directions + d]: this iteration's Isend
    RegionId irecv_, isend_, waitall_, allreduce_;
};

} // namespace rankscope
