#pragma once
// Trace synthesis on a process grid: an input with its grid and message offsets, the order in
// which a program visits the grid's dimensions, and the rule that carries message sizes to the
// target grid (synthcompose.h, synthtile.h).

#include "model/generator/processgrid.h"
#include "model/trace/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rankscope::extrap::synth {

/// An input with its process grid and every message's offset (receiver - sender) on it, +1 and
/// -1 in a dimension of 2 ranks told apart by tag (synthtile.h).
struct GridInput
{
    const Trace* trace = nullptr;
    std::vector<uint32_t> dims;
    std::vector<ProcessGrid::Coords> offsets; ///< per message id
    std::vector<std::string> sites;           ///< call site of each message's send
    /// Per message, the rank of its size among the distinct sizes its call site sends along its
    /// travel dimension, largest first (a multigrid's levels); at most 15.
    std::vector<uint8_t> levels;
    /// Per communicator, the mask of the grid dimensions its members share (0 for
    /// MPI_COMM_WORLD), -1 when it is no slab of the grid.
    std::vector<int> commMasks;
    /// The dimension a message travels along, -1 when none or more than one.
    int travelDim(uint32_t message) const;
};

/// Per dimension, the order in which `in`'s rank 0 first sends or receives along it (a
/// dimension it never uses comes after all others).
std::vector<int> dimensionOrder(const GridInput& in);

/// GridInput::levels of `in` (its offsets and sites set).
std::vector<uint8_t> sizeLevels(const GridInput& in);

/// Per call site: whether message sizes follow the local face of a block decomposition between
/// the two largest inputs: the product over the other dimensions f of a local extent
/// N_f (1 / p_f + g), where p_f is f's ranks and g the share of ghost cells the face carries in
/// f. A halo exchanged one dimension after another carries the ghost cells of the dimensions
/// exchanged before (NPB MG: 66 x 66 doubles along the last dimension of 64^3 points), so g is
/// learned twice per site, for dimensions the program visits before the message's and for those
/// after, from pairs of inputs differing in one dimension (0 where no pair shows it), per size
/// level (GridInput::levels: a coarse level's face carries the same ghost cells on fewer
/// points).
struct SizeRule
{
    struct Face
    {
        std::string site;
        std::vector<double> ghostBefore, ghostAfter; ///< per level (the last for deeper ones)
    };
    std::vector<uint32_t> targetDims;
    std::vector<int> order;      ///< per dimension, the order the program first visits it in
    std::vector<Face> faceSites; ///< sorted by site
    /// exponent of the power law in the rank count, per site (sorted by site)
    std::vector<std::pair<std::string, double>> powerLaw;
    /// Factor for a message of `site` from an input of `from` dims travelling along `fromDim`,
    /// travelling along `toDim` at the target.
    double factor(const std::string& site, const std::vector<uint32_t>& from, int fromDim,
                  int toDim, uint8_t level) const;
};
SizeRule sizeRule(const std::vector<GridInput>& inputs, const std::vector<uint32_t>& target);

} // namespace rankscope::extrap::synth
