#pragma once
// The headline numbers of a trace (what `rankscope-cli info` prints and a status bar shows).

#include "model/trace/trace.h"

#include <cstdint>
#include <map>
#include <string>

namespace rankscope {

struct TraceSummary
{
    uint64_t ranks = 0;
    uint64_t locations = 0;
    uint64_t events = 0;
    int64_t durationNs = 0;
    uint64_t regions = 0;                     ///< region definitions
    std::map<std::string, uint64_t> mpiCalls; ///< MPI function -> outermost calls, all ranks
    uint64_t messages = 0;                    ///< matched point-to-point messages
    uint64_t unmatchedSends = 0;
    uint64_t unmatchedReceives = 0;
    uint64_t collectives = 0; ///< collective instances
    uint64_t incompleteCollectives = 0;
    uint64_t bytesSent = 0; ///< point-to-point payload of matched messages

    uint64_t unmatchedMessages() const { return unmatchedSends + unmatchedReceives; }
    bool operator==(const TraceSummary&) const = default;
};

/// One pass over every rank's MPI calls plus the message and collective tables.
TraceSummary summarizeTrace(const Trace& trace);

} // namespace rankscope
