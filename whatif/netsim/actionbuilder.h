#pragma once
// Turns a trace into the simulator's action lists (ALGORITHMS.md §7.1).
//
// Compute actions are the gaps between a rank's MPI calls (times the CPU factor), from its
// first event to its last. The span rule (model/analysis/runspan.h) bounds that: a rank that calls
// MPI_Init starts at the end of the last rank's MPI_Init (all leave it together, as MPI_Init
// synchronises in practice), and a rank ends with its MPI_Finalize (simulate() adds the
// measured cost of MPI_Finalize after the last rank entered it: it synchronises too). Within one
// MPI call every send and receive the call starts is posted first, then the call waits for what it
// completed, in the trace's order: so MPI_Sendrecv exchanges do not deadlock under rendezvous, and
// MPI_Waitall waits for each request in turn. Messages keep the trace's matching (MPI rules were
// applied at import). Unmatched sends and receives complete locally. A collective instance some
// members never joined is replayed as a call without communication (the others would otherwise wait
// forever).

#include "model/trace/trace.h"
#include "whatif/netsim/actionprogram.h"

#include <cstdint>
#include <vector>

namespace rankscope::netsim {

/// Where an event of a rank's main location sits in its action list (for the output trace).
struct ActionAnchor
{
    uint32_t event = 0;  ///< index in the rank's main event stream
    uint64_t action = 0; ///< index into ActionProgram::actions
};

/// Builds the action program of `trace`; fills `anchors` (per rank) when given.
ActionProgram buildActions(const Trace& trace, double cpuFactor,
                           std::vector<std::vector<ActionAnchor>>* anchors = nullptr);

} // namespace rankscope::netsim
