#pragma once
// Trace synthesis: the process grid recovered from the communication graph (ALGORITHMS.md §5),
// not guessed from the factorisation of the rank count.
//
// For 2 and 3 dimensions and every order of MPI_Dims_create's factors (which dimension varies
// fastest in the rank numbering), a grid explains a point-to-point edge r -> p when every
// coordinate of p is within 1 of r's, or at the far end of a dimension of more than 2 ranks (a
// periodic wrap, which makes that dimension periodic). A grid is a candidate when it explains
// edges at every input scale with the same rule (the same order, periodic in the same
// dimensions); candidates come best first by the share of edges explained at the worst scale.
// Edges no grid explains (transposes, butterflies) are left to the rank rules.

#include "model/trace/trace.h"
#include "whatif/extrap/synthrules.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace rankscope::extrap::synth {

using Edge = std::pair<uint32_t, uint32_t>;

/// The distinct (sender, receiver) pairs of a trace's point-to-point messages, sender != receiver.
std::vector<Edge> communicationEdges(const Trace& trace);

/// The share (0..1) of `edges` among n ranks that `placement`'s grid explains; 1 when there are
/// no edges. `wraps` gets bit d set when an explained edge wraps around dimension d.
double explainedShare(const Placement& placement, uint32_t n, const std::vector<Edge>& edges,
                      uint32_t* wraps = nullptr);

/// Grid placements the graphs at scales `scales` (one edge list per scale) support, best first,
/// at most `limit` of them; when no grid explains any edge at every scale (a program of
/// collectives only, say), the identity-order non-periodic 2-D and 3-D grids.
std::vector<Placement> gridPlacements(const std::vector<std::vector<Edge>>& edges,
                                      const std::vector<uint32_t>& scales, size_t limit = 4);

} // namespace rankscope::extrap::synth
