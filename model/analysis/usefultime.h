#pragma once
// Useful time per rank (the POP metrics' U(r)): the time a rank spends outside MPI inside the
// run span (runspan.h: from the last rank's end of MPI_Init to the end of MPI_Finalize).
//
// U(r) = (end of rank r - start of the span) - the part of rank r's outermost MPI calls that
// lies inside [start of the span, end of rank r]. A rank's end is the leave of its MPI_Finalize
// (or its last event); what follows it up to the end of the span is idle, not useful. Calls are
// clipped to the span, so the MPI_Init of a rank that left it early adds nothing and the time it
// computed before the span began is not counted.

#include "model/analysis/runspan.h"

#include <cstdint>
#include <vector>

namespace rankscope {

class Trace;

struct UsefulTime
{
    RunSpan span;
    std::vector<int64_t> perRank; ///< U(r), ns; 0 for a rank without events
    bool operator==(const UsefulTime&) const = default;
};

/// The run span of `trace` and every rank's useful time in it (one pass over its MPI calls).
UsefulTime usefulTime(const Trace& trace);

} // namespace rankscope
