#include "model/profile/tracesummary.h"

#include "model/matching/mpicallscanner.h"

#include <vector>

namespace rankscope {

TraceSummary summarizeTrace(const Trace& trace)
{
    TraceSummary s;
    s.ranks = trace.rankCount();
    s.locations = trace.locations().size();
    s.events = trace.eventCount();
    s.durationNs = trace.duration();
    s.regions = trace.regions().size();

    std::vector<uint64_t> perRegion(trace.regions().size(), 0);
    for (uint32_t r = 0; r < trace.rankCount(); ++r) {
        if (!trace.rank(RankId(r)).mainLocation.valid()) continue;
        MpiCallScanner scanner(trace, RankId(r));
        CallRecord call;
        while (scanner.next(call))
            ++perRegion[call.region.value];
    }
    for (size_t i = 0; i < perRegion.size(); ++i)
        if (perRegion[i] > 0)
            s.mpiCalls[std::string(trace.regionName(RegionId(uint32_t(i))))] += perRegion[i];

    for (const Message& m : trace.messages()) {
        if (m.matched()) {
            ++s.messages;
            s.bytesSent += m.bytes;
        }
    }
    s.unmatchedSends = trace.diagnostics().unmatchedSends;
    s.unmatchedReceives = trace.diagnostics().unmatchedReceives;
    s.collectives = trace.collectives().size();
    s.incompleteCollectives = trace.diagnostics().incompleteCollectives;
    return s;
}

} // namespace rankscope
