#pragma once
// Trace synthesis, step 3 (ALGORITHMS.md §5): the draft trace at the target scale. Every rank
// runs its role's steps (loop count from the plan), partners and roots come from the role's
// rules, sizes from the fitted series, and the gaps between MPI calls are the sampled delta
// times, with the user regions and records of each gap placed where they sat in the inputs.
// MPI calls take no time in the draft (their events are 1 ns apart, so every event keeps its
// order); replaying the draft on a network (netsim::simulate with buildTrace) gives them their
// durations and the whole trace its timestamps.

#include "model/support/progressreporter.h"
#include "model/trace/trace.h"
#include "whatif/extrap/synthplan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rankscope::extrap {

/// Point-to-point calls a draft leaves without their message because the partner's role makes
/// no matching call (roles carried without a rule, synthplan.h): per channel (sender, receiver,
/// tag) the first min(sends, receives) pair up, the rest are written as calls without a message
/// (an MPI_Irecv's request is cancelled).
struct DroppedMessages
{
    uint64_t sends = 0, receives = 0;
    std::vector<std::string> callSites; ///< where, in order of first occurrence
};

/// Builds the draft trace of `plan` (which must have no refusals). Throws TraceError when
/// cancelled through `progress`. With `unpaired`, sends and receives that find no partner are
/// left out as described above and counted there (two passes).
Trace buildDraftTrace(const synth::SynthesisPlan& plan, uint64_t seed,
                      const ProgressCallback& progress = {}, DroppedMessages* unpaired = nullptr);

} // namespace rankscope::extrap
