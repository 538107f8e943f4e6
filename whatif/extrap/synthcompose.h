#pragma once
// Trace synthesis: ranks composed per grid dimension (ALGORITHMS.md §5, "roles that compose"),
// for programs whose calls depend on a rank's position in a dimension in ways no rule in the
// rank count expresses (NPB MG: in a dimension of 4 ranks, those at even coordinates hold no
// points of the coarsest grid level, skip its exchanges and are sent its data later).
//
// Method. The target's grid has a dimension d of more ranks than the largest input (size s ->
// t). Two inputs A and B whose grids differ only in one dimension e, of s ranks in A and t in
// B, show what growing a dimension from s to t does to a rank: the edit script turning A's rank
// at B's rank's position modulo A's grid into B's rank (calls deleted, calls inserted, partner
// offsets changed along e) is its per-dimension role. A target rank starts as the largest
// input's rank at its grid position modulo that input's grid (the tiling of synthtile.h) and
// gets, for each grown dimension d, the edit of the B rank whose coordinate along e is the
// target rank's coordinate along d, moved from dimension e to d:
// - partner offsets along e become offsets along d; message tags of dimension e become those
//   of dimension d (the k-th tag of one dimension maps to the k-th of the other, ascending, as
//   the input shows them occurring equally often);
// - a call of A's rank whose e-offset changed is found along d as the call with the mapped tag
//   at the same occurrence; deleted calls are deleted at the same place;
// - inserted calls go where they went in B, after the insertions of dimensions the program
//   visits earlier (the order in which a rank's first calls travel along each dimension).
// Sequences are aligned on their event keys (region entered or left, MPI call kind and tag)
// with a shortest edit script (synthalign.h). A composition whose regions do not nest, or
// whose messages do not pair up, is not used (the caller tiles instead).

#include "model/generator/processgrid.h"
#include "model/trace/trace.h"
#include "whatif/extrap/synthsizes.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rankscope::extrap::synth {

/// One event of a synthesised rank: an event of an input, with the tag, partner offset and
/// size factor it has at the target.
struct DraftEvent
{
    uint16_t input = 0; ///< index into the inputs
    uint8_t copy = 0;   ///< 0 for the base, 1 + d for calls of the edit of grown dimension d
    uint32_t location = 0;
    uint32_t event = 0;
    int32_t tag = 0;
    ProcessGrid::Coords offset{}; ///< at the target grid
    double bytesFactor = 1.0;
};

/// How a dimension of the target gets its ranks' roles: from the two inputs whose grids differ
/// in one dimension only.
struct GrownDim
{
    uint32_t dim = 0;   ///< the target's dimension
    size_t small = 0;   ///< index of input A
    size_t large = 0;   ///< index of input B
    uint32_t donor = 0; ///< the dimension e in which A and B differ
};

/// The grown dimensions of `target` over the largest input `base` (index into `inputs`, which
/// are sorted by rank count): dimensions where the target has more ranks than the base, each
/// with the largest pair of inputs differing in that size in one dimension only. Dimensions
/// without such a pair are not listed.
std::vector<GrownDim> grownDimensions(const std::vector<GridInput>& inputs, size_t base,
                                      const std::vector<uint32_t>& target);

/// Composed ranks by the input ranks they are made of (target ranks made of the same ones get
/// the same events: offsets are relative).
using ComposeCache = std::map<std::vector<uint32_t>, std::vector<DraftEvent>>;

/// The events of target rank `rank` (coordinates on the target grid `target`): the base input's
/// rank at its position modulo the base grid, with the edits of `grown`. Empty with `why` set
/// when the composition fails.
std::vector<DraftEvent> composeRank(const std::vector<GridInput>& inputs, size_t base,
                                    const std::vector<GrownDim>& grown, const SizeRule& sizes,
                                    const ProcessGrid& target, uint32_t rank, std::string& why,
                                    ComposeCache* cache = nullptr);

/// The base input's rank whose calls target rank `rank` starts from.
uint32_t baseRankOf(const GridInput& base, const ProcessGrid& target, uint32_t rank);

} // namespace rankscope::extrap::synth
