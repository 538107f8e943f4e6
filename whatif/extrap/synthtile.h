#pragma once
// Trace synthesis when no rule carries the roles (ALGORITHMS.md §5): the largest input tiled
// onto the target's process grid, so a program whose per-rank calls depend on the scale in ways
// the rules cannot express (NPB MG: ranks whose coarse grid levels hold no points) still gets a
// predicted trace, with a warning saying how it was made, instead of a refusal.
//
// Method. The process grid is recovered from the communication graph at every input scale
// (synthgraph.h). The target's grid must have, in every dimension, a multiple of the largest
// input's ranks: rank c of the target then runs the calls of the input rank whose coordinates
// are c's modulo the input's dimensions (a covering of the torus), and each message goes to the
// rank at the grid offset the input's message had. One offset per message, used by both its
// ends, keeps every send paired with its receive. In a dimension of 2 ranks the offsets +1 and
// -1 name the same rank; when a pair of ranks exchanges messages of two or more tags there, they
// are told apart by tag (ascending tags alternate -1, +1, as a halo exchange's two directions
// do), otherwise the offset is taken as seen (0 -> 1 is +1).
// - Message sizes per call site follow a power law in the rank count fitted (log-log least
//   squares) to the mean size at the input scales; collective sizes stay as at the input.
// - Times: each rank's gaps are those of its input rank, scaled by one factor so that the
//   ranks' delta sums follow the timing extrapolation's S(r) at the target (in the order of the
//   input ranks' sums).
// - Refused: no grid whose dimensions divide the target's, communication on communicators other
//   than MPI_COMM_WORLD (or a duplicate of it), unmatched messages in the input.
// Call counts that change with the scale are those of the input (the warning says so).

#include "model/trace/trace.h"
#include "whatif/extrap/extrapolation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rankscope::extrap {

struct TiledDraft
{
    std::optional<Trace> draft; ///< the draft at the target (nothing when refused)
    std::string refusal;        ///< why the largest input cannot be tiled
    std::string placement;      ///< "3-D grid 4 x 4 x 2, tiled by the 16-rank run (4 x 2 x 2)"
    uint32_t sourceRanks = 0;
    uint64_t events = 0;
    /// Grown dimensions composed per dimension (synthcompose.h), one line each.
    std::vector<std::string> composed;
    /// Why a composition was tried and not used ("" when none was tried or it was used).
    std::string compositionFailure;
};

/// Tiles the largest of `traces` onto `target` ranks; `timing` (the extrapolation to the
/// target, may be null) sets the ranks' delta sums. `maxEvents` bounds the draft.
TiledDraft tileLargestInput(const std::vector<const Trace*>& traces, uint32_t target,
                            const ExtrapolationResult* timing, uint64_t maxEvents);

} // namespace rankscope::extrap
