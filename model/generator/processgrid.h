#pragma once
// A Cartesian process grid as MPI_Cart_create builds it: row-major rank order (the last
// dimension varies fastest), each dimension periodic or not (non-periodic by default). Used by
// the stencil generators and their tests, and by trace synthesis.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rankscope {

class ProcessGrid
{
public:
    static constexpr size_t kMaxDims = 3;
    using Coords = std::array<int64_t, kMaxDims>;

    /// Balanced factorisation of `n` into `ndims` (1..3) factors in non-increasing order, as
    /// MPI_Dims_create does: the largest factor is as small as possible, then the smallest
    /// as large as possible (12, 2 -> 4x3; 16, 3 -> 4x2x2; 7, 2 -> 7x1).
    static std::vector<uint32_t> dimsCreate(uint32_t n, uint32_t ndims);

    /// `dims` has 1..3 entries, each >= 1; bit d of `periodicMask` makes dimension d periodic.
    explicit ProcessGrid(std::vector<uint32_t> dims, uint32_t periodicMask = 0);

    const std::vector<uint32_t>& dims() const { return dims_; }
    uint32_t size() const { return size_; }
    bool periodic(size_t d) const { return (periodic_ >> d) & 1u; }
    /// Coordinates of `rank` (unused dimensions are 0).
    Coords coords(uint32_t rank) const;
    /// The rank at coords(rank) + offset (wrapped in periodic dimensions), or -1 when that falls
    /// outside the grid.
    int64_t neighbour(uint32_t rank, const Coords& offset) const;
    /// The direction from rank `from` to rank `to`: per dimension the sign of the shortest
    /// offset (wrapped in periodic dimensions), as a number in base 3 (digit 0 the same
    /// coordinate, 1 ahead, 2 behind), dimension 0 the lowest digit. Both ranks < size().
    uint32_t direction(uint32_t from, uint32_t to) const;

private:
    std::vector<uint32_t> dims_;
    uint32_t size_ = 1;
    uint32_t periodic_ = 0;
};

} // namespace rankscope
