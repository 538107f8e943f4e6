#include "model/generator/halopattern.h"

#include "model/generator/generatorcontext.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

namespace rankscope {

namespace {

// Compute slots, in the order of defaultRegions().
enum Slot : size_t
{
    Pack,
    Interior,
    Unpack,
    Boundary
};

ProcessGrid makeGrid(uint32_t ranks, int dimensions)
{
    if (dimensions == 2) return ProcessGrid(ProcessGrid::dimsCreate(ranks, 2));
    auto k = static_cast<uint32_t>(std::llround(std::cbrt(static_cast<double>(ranks))));
    if (uint64_t(k) * k * k != ranks)
        throw TraceError("pattern stencil3d needs a cube number of ranks (1, 8, 27, 64, 125...); " +
                         std::to_string(ranks) + " is not a cube");
    return ProcessGrid({k, k, k});
}

} // namespace

HaloPattern::HaloPattern(uint32_t ranks, int dimensions)
    : dimensions_(dimensions), grid_(makeGrid(ranks, dimensions))
{
    if (dimensions == 2) {
        offsets_ = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}};
    } else {
        for (int64_t x = -1; x <= 1; ++x)
            for (int64_t y = -1; y <= 1; ++y)
                for (int64_t z = -1; z <= 1; ++z)
                    if (x != 0 || y != 0 || z != 0) offsets_.push_back({x, y, z});
    }
    for (const auto& o : offsets_) {
        const ProcessGrid::Coords back{-o[0], -o[1], -o[2]};
        opposite_.push_back(static_cast<uint32_t>(
            std::find(offsets_.begin(), offsets_.end(), back) - offsets_.begin()));
    }
    // Messages per iteration: each offset o connects the ranks whose coordinate x_d + o_d stays
    // inside every (non-periodic) dimension, prod_d (n_d - |o_d|) of them. Counted here so the
    // generator's size checks need no neighbour lists (built in prepare()).
    const auto& dims = grid_.dims();
    for (const auto& o : offsets_) {
        uint64_t pairs = 1;
        for (size_t d = 0; d < ProcessGrid::kMaxDims; ++d) {
            const uint64_t n = d < dims.size() ? dims[d] : 1;
            const uint64_t step = static_cast<uint64_t>(o[d] < 0 ? -o[d] : o[d]);
            pairs *= n > step ? n - step : 0;
        }
        messagesPerIteration_ += pairs;
    }
}

uint32_t HaloPattern::neighbourCount(uint32_t rank) const
{
    // Per dimension the moves that stay inside: -1 unless at the start, +1 unless at the end.
    const ProcessGrid::Coords c = grid_.coords(rank);
    const auto& dims = grid_.dims();
    uint32_t sum = 0, product = 1;
    for (size_t d = 0; d < dims.size(); ++d) {
        const uint32_t moves = (c[d] > 0 ? 1u : 0u) + (c[d] + 1 < int64_t(dims[d]) ? 1u : 0u);
        sum += moves;
        product *= moves + 1;
    }
    // 2D: the four face neighbours, one move in one dimension; 3D: every combination of moves
    // (staying put included) but staying put in all three.
    return dimensions_ == 2 ? sum : product - 1;
}

std::vector<ComputeRegion> HaloPattern::defaultRegions() const
{
    // Strong scaling of a fixed global grid: the interior shrinks with the volume per rank
    // (1/n), the boundary work and the halo packing with the surface (1/sqrt(n) in 2D; the same
    // law stands in for 3D's n^(-2/3), which the law set lacks).
    return {{"pack", 400e3, ScalingLaw::InverseSqrtN},
            {"compute_interior", 80e6, ScalingLaw::InverseN},
            {"unpack", 400e3, ScalingLaw::InverseSqrtN},
            {"compute_boundary", 4e6, ScalingLaw::InverseSqrtN}};
}

double HaloPattern::defaultMessageBytes() const
{
    // One face of doubles: 8192 values in 2D (a 8192^2 grid), 256^2 values in 3D (a 256^3 grid).
    return dimensions_ == 2 ? 65536.0 : 524288.0;
}

uint64_t HaloPattern::iterationEvents(uint32_t rank) const
{
    return 16 + 8 * uint64_t(neighbourCount(rank));
}

void HaloPattern::prepare(GeneratorContext& ctx)
{
    const uint32_t ranks = grid_.size();
    firstNeighbour_.reserve(size_t(ranks) + 1);
    neighbours_.reserve(messagesPerIteration_);
    for (uint32_t r = 0; r < ranks; ++r) {
        firstNeighbour_.push_back(static_cast<uint32_t>(neighbours_.size()));
        for (uint32_t d = 0; d < offsets_.size(); ++d)
            if (const int64_t n = grid_.neighbour(r, offsets_[d]); n >= 0)
                neighbours_.push_back({static_cast<uint32_t>(n), d});
    }
    firstNeighbour_.push_back(static_cast<uint32_t>(neighbours_.size()));

    irecv_ = ctx.addMpiRegion("MPI_Irecv", RegionRole::MpiPointToPoint);
    isend_ = ctx.addMpiRegion("MPI_Isend", RegionRole::MpiPointToPoint);
    waitall_ = ctx.addMpiRegion("MPI_Waitall", RegionRole::MpiOther);
    allreduce_ = ctx.addMpiRegion("MPI_Allreduce", RegionRole::MpiCollective);

    // A face is s x s doubles with s^2 = face bytes / 8; an edge is s doubles, a corner one.
    const double face = std::max(0.0, ctx.messageBytes());
    const double edge = 8.0 * std::sqrt(face / 8.0);
    for (const auto& o : offsets_) {
        const int nonzero = (o[0] != 0) + (o[1] != 0) + (o[2] != 0);
        const double b = nonzero == 1 ? face : nonzero == 2 ? std::max(8.0, edge) : 8.0;
        bytes_.push_back(static_cast<uint64_t>(std::llround(b)));
    }
    sendTime_.assign(size_t(ctx.ranks()) * offsets_.size(), 0);
}

void HaloPattern::runIteration(GeneratorContext& ctx, uint32_t iteration)
{
    TraceBuilder& b = ctx.builder();
    const size_t directions = offsets_.size();
    const int64_t half = ctx.halfCallNs(), call = ctx.callNs();
    // Request ids grow over the run, as Score-P's do: receives then sends of this iteration.
    const uint64_t requestBase = uint64_t(iteration) * 2 * directions + 1;

    // Phase 1: post receives, pack, send, compute the interior (no dependency on other ranks).
    for (uint32_t r = 0; r < ctx.ranks(); ++r) {
        const LocationId loc = ctx.location(r);
        ctx.enterIteration(r);
        int64_t t = ctx.now(r);
        for (uint32_t i = firstNeighbour_[r]; i < firstNeighbour_[r + 1]; ++i) {
            b.enter(loc, t, irecv_);
            b.irecvRequest(loc, t + half, requestBase + neighbours_[i].direction);
            b.leave(loc, t + call, irecv_);
            t += call;
        }
        ctx.setNow(r, t);
        ctx.compute(r, Pack);
        t = ctx.now(r);
        for (uint32_t i = firstNeighbour_[r]; i < firstNeighbour_[r + 1]; ++i) {
            const Neighbour& n = neighbours_[i];
            b.enter(loc, t, isend_);
            b.isend(loc, t + half, n.rank, ctx.world(), static_cast<int32_t>(n.direction),
                    bytes_[n.direction], requestBase + directions + n.direction);
            sendTime_[r * directions + n.direction] = t + half;
            b.leave(loc, t + call, isend_);
            t += call;
        }
        ctx.setNow(r, t);
        ctx.compute(r, Interior);
    }

    // Phase 2: wait for all halos (each arrives after its send plus the transfer), unpack,
    // compute the boundary.
    for (uint32_t r = 0; r < ctx.ranks(); ++r) {
        const LocationId loc = ctx.location(r);
        const int64_t enter = ctx.now(r);
        int64_t done = enter + half;
        for (uint32_t i = firstNeighbour_[r]; i < firstNeighbour_[r + 1]; ++i) {
            const Neighbour& n = neighbours_[i];
            const int64_t sent = sendTime_[n.rank * directions + opposite_[n.direction]];
            done = std::max(done, sent + ctx.transferNs(bytes_[n.direction]));
        }
        b.enter(loc, enter, waitall_);
        for (uint32_t i = firstNeighbour_[r]; i < firstNeighbour_[r + 1]; ++i) {
            const Neighbour& n = neighbours_[i];
            b.irecv(loc, done, n.rank, ctx.world(), static_cast<int32_t>(opposite_[n.direction]),
                    bytes_[n.direction], requestBase + n.direction);
        }
        for (uint32_t i = firstNeighbour_[r]; i < firstNeighbour_[r + 1]; ++i)
            b.isendComplete(loc, done, requestBase + directions + neighbours_[i].direction);
        b.leave(loc, done + half, waitall_);
        ctx.setNow(r, done + half);
        ctx.compute(r, Unpack);
        ctx.compute(r, Boundary);
    }

    // Phase 3: the global residual (one double), a recursive-doubling allreduce.
    const auto steps = static_cast<int64_t>(std::bit_width(ctx.ranks() - 1u));
    ctx.collective(allreduce_, CollectiveOp::Allreduce, kNoRoot, steps * ctx.transferNs(8),
                   [](uint32_t) {
                       return std::pair<uint64_t, uint64_t>{8, 8};
                   });
    for (uint32_t r = 0; r < ctx.ranks(); ++r)
        ctx.leaveIteration(r);
}

} // namespace rankscope
