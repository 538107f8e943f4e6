#pragma once
// What was odd about a trace while it was built: counts the user must see, never silent drops.

#include <cstdint>
#include <string>
#include <vector>

namespace rankscope {

struct TraceDiagnostics
{
    uint64_t unmatchedSends = 0;        ///< sends with no matching receive
    uint64_t unmatchedReceives = 0;     ///< receives with no matching send
    uint64_t cancelledRequests = 0;     ///< requests cancelled before completion
    uint64_t orphanRequestEvents = 0;   ///< completions/tests of requests never posted
    uint64_t incompleteCollectives = 0; ///< instances some member ranks never joined
    uint64_t unclosedRegions = 0;       ///< Enter with no Leave at the end of a location
    uint64_t unmatchedLeaves = 0;       ///< Leave with no open Enter of that region
    bool partial = false;               ///< built from an incomplete input (--allow-partial)
    std::vector<std::string> warnings;  ///< human-readable notes, one per distinct problem

    uint64_t unmatchedMessages() const { return unmatchedSends + unmatchedReceives; }
    bool operator==(const TraceDiagnostics&) const = default;
};

} // namespace rankscope
