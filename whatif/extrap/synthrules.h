#pragma once
// Trace synthesis: how ranks are placed into roles and how partners follow from the rank and
// the scale (ALGORITHMS.md §5).
//
// A placement sorts the ranks of a scale into position classes: one class for all ranks, even
// and odd ranks, first / middle / last rank, or the position in a Cartesian grid of 2 or 3
// dimensions as MPI_Dims_create factors n (per dimension: low edge, interior, high edge, or a
// dimension of size 1). Ranks of one class must run the same steps at every scale; then the
// class is a role, and the role of every rank at the target scale follows from its class there.
//
// A rank rule gives a partner (or a collective root) from the rank r and the scale n: a
// constant rank, a rank counted from the end (n - k), r + k, (r + k) mod n, or the neighbour at a
// fixed offset in the placement's grid (r +/- k * row length, in general). A rule is inferred
// per role and parameter from the first occurrence (every rule that explains it) and kept only
// while every further occurrence at every scale agrees.

#include "model/processgrid.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rankscope::extrap::synth {

enum class PlacementKind : uint8_t
{
    Uniform,
    Parity,
    Ends,
    Grid2,
    Grid3
};

class Placement
{
public:
    explicit Placement(PlacementKind kind) : kind_(kind) {}

    /// The placements tried, simplest first.
    static std::vector<Placement> candidates();

    PlacementKind kind() const { return kind_; }
    int gridDims() const
    {
        return kind_ == PlacementKind::Grid2 ? 2 : kind_ == PlacementKind::Grid3 ? 3 : 0;
    }
    /// The grid at scale n (for grid placements; throws TraceError when n cannot be factored).
    std::optional<ProcessGrid> grid(uint32_t n) const;
    /// Class of rank r at scale n; `grid` is grid(n) for grid placements.
    uint32_t classOf(uint32_t r, uint32_t n, const ProcessGrid* grid) const;
    /// "all ranks", "even ranks", "grid low/inner"...
    std::string className(uint32_t cls) const;
    /// "one role for all ranks", "2-D grid 16 x 16"...
    std::string describe(uint32_t n) const;

    bool operator==(const Placement&) const = default;

private:
    PlacementKind kind_;
};

enum class RuleKind : uint8_t
{
    Constant,
    FromEnd,
    Offset,
    Modulo,
    Grid
};

struct RankRule
{
    RuleKind kind = RuleKind::Constant;
    int64_t k = 0;                       ///< the constant, offset or distance from the end
    ProcessGrid::Coords offset{0, 0, 0}; ///< Grid: the neighbour's offset in grid coordinates

    /// The partner of rank r at scale n, or nothing when it falls outside 0..n-1.
    std::optional<uint32_t> evaluate(uint32_t r, uint32_t n, const ProcessGrid* grid) const;
    /// "0", "n-1", "r+1", "(r-1) mod n", "grid(+1,0)".
    std::string text() const;
    bool operator==(const RankRule&) const = default;
};

/// Every rule that maps r to partner p at scale n, in order of preference.
std::vector<RankRule> rulesFor(uint32_t r, uint32_t p, uint32_t n, const ProcessGrid* grid);

} // namespace rankscope::extrap::synth
