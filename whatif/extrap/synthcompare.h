#pragma once
// Scale what-if, checked against a run at the target scale (ALGORITHMS.md §5): how closely the
// structure and the run time of a predicted trace match a measured trace of the same scale.
//
// Structure: messages and bytes per call site (point-to-point sends), collectives per
// communicator (instances per operation, communicators told apart by their size since the
// predicted trace holds MPI_COMM_WORLD only), partner sets per rank, events per rank (without
// the records of other communicators coming and going, which a predicted trace leaves out). Run
// time: the span from the end of MPI_Init to the end of MPI_Finalize (earliest end of MPI_Init over
// the ranks to the latest end of MPI_Finalize), the span `simulate` reports.

#include "model/trace/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rankscope::extrap {

/// One call site whose messages or bytes differ.
struct CallSiteDifference
{
    std::string callSite;
    uint64_t predictedMessages = 0, measuredMessages = 0;
    uint64_t predictedBytes = 0, measuredBytes = 0;
    bool operator==(const CallSiteDifference&) const = default;
};

struct StructureMatch
{
    /// The largest difference over call sites of their message count, in % of the measured
    /// count (a call site missing on one side counts 100 %); 0 means exact at every call site.
    double messagesPct = 0;
    double bytesPct = 0; ///< the same for the bytes sent per call site
    uint64_t predictedMessages = 0, measuredMessages = 0;
    uint64_t predictedBytes = 0, measuredBytes = 0;
    bool collectivesEqual = true; ///< the same instances per operation and communicator size
    uint64_t predictedCollectives = 0, measuredCollectives = 0;
    double partnersEqualRanksPct = 0; ///< ranks with the same set of partners (sent or received)
    /// Ranks with the same number of events on their MPI location, not counting creation and
    /// destruction records of communicators other than MPI_COMM_WORLD (a predicted trace has
    /// none).
    double eventsEqualRanksPct = 0;
    uint64_t predictedEvents = 0, measuredEvents = 0;
    std::vector<CallSiteDifference> differences; ///< call sites that differ, largest first
};

/// The run time on simulate's span (model/analysis/runspan.h: the last rank's end of MPI_Init to
/// the end of MPI_Finalize), ns. Nothing for a trace without events.
std::optional<int64_t> initToFinalizeNs(const Trace& trace);

/// Compares the structure of `predicted` with `measured`. Throws TraceError naming `measuredName`
/// when the rank counts differ.
StructureMatch compareStructure(const Trace& predicted, const Trace& measured,
                                const std::string& measuredName);

} // namespace rankscope::extrap
