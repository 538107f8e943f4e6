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

namespace rankscope::extrap {

/// Builds the draft trace of `plan` (which must have no refusals). Throws TraceError when
/// cancelled through `progress`.
Trace buildDraftTrace(const synth::SynthesisPlan& plan, uint64_t seed,
                      const ProgressCallback& progress = {});

} // namespace rankscope::extrap
