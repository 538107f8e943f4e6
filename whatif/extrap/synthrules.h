#pragma once
// Trace synthesis: how ranks are placed into roles and how partners follow from the rank and
// the scale (ALGORITHMS.md §5).
//
// A placement sorts the ranks of a scale into position classes: one class for all ranks, even
// and odd ranks, first / middle / last rank, or the position in a Cartesian grid of 2 or 3
// dimensions as MPI_Dims_create factors n, in the rank order and with the periodicity recovered
// from the communication graph (synthgraph.h) (per dimension: low edge, interior, high edge, or a
// dimension of size 1; every position of a periodic dimension is interior). Ranks of one class must
// run the same steps at every scale; then the class is a role, and the role of every rank at the
// target scale follows from its class there.
//
// A rank rule gives a partner (or a collective root) from the rank r and the scale n: a
// constant rank, a rank counted from the end (n - k), r + k, (r + k) mod n, or the neighbour at a
// fixed offset in the placement's grid (r +/- k * row length, in general). A rule is inferred
// per role and parameter from the first occurrence (every rule that explains it) and kept only
// while every further occurrence at every scale agrees.

#include "model/generator/processgrid.h"

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
    /// A grid placement's dimensions at scale n are MPI_Dims_create(n, dims) taken in the order
    /// `order` (row-major, the last dimension varying fastest; {1, 0} puts the largest factor
    /// fastest), bit d of `periodicMask` making dimension d periodic.
    explicit Placement(PlacementKind kind, std::array<uint8_t, 3> order = {0, 1, 2},
                       uint32_t periodicMask = 0)
        : kind_(kind), order_(order), periodic_(periodicMask)
    {
    }

    /// The placements without a grid, simplest first.
    static std::vector<Placement> candidates();

    /// The same placement with rank 0 in a class of its own (the root that reads the input and
    /// prints the results runs calls no other rank does).
    Placement withRootApart() const
    {
        Placement p = *this;
        p.rootApart_ = true;
        return p;
    }
    bool rootApart() const { return rootApart_; }
    /// The class of rank 0 when it is apart.
    static constexpr uint32_t kRootClass = 64;

    PlacementKind kind() const { return kind_; }
    const std::array<uint8_t, 3>& order() const { return order_; }
    uint32_t periodicMask() const { return periodic_; }
    /// The grid's dimensions at scale n (empty for placements without a grid).
    std::vector<uint32_t> dims(uint32_t n) const;
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
    std::string describeRanks(uint32_t n) const;

    PlacementKind kind_;
    std::array<uint8_t, 3> order_;
    uint32_t periodic_;
    bool rootApart_ = false;
};

enum class RuleKind : uint8_t
{
    Constant,
    FromEnd,
    Offset,
    Modulo,
    Grid,
    Xor,      ///< r XOR k (butterfly partners, k a power of 2)
    Transpose ///< the transpose partner in a 2-D grid (see transposeOf)
};

/// The transpose partner of r among n ranks, as in a 2-D process grid of a x a blocks of c ranks
/// (c the smallest divisor of n leaving a perfect square, a = sqrt(n / c)): r = (i a + j) c + b
/// maps to (j a + i) c + b. For n a power of 2 this is the row/column transpose of a grid whose
/// column count is the row count or twice it (NPB CG's exchange partner). Nothing when n has no
/// such factorisation with a >= 2.
std::optional<uint32_t> transposeOf(uint32_t r, uint32_t n);

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
