#include "model/trace/callrecords.h"

#include "model/matching/mpicallscanner.h"
#include "model/trace/callsiteresolver.h"

#include <algorithm>

namespace rankscope {

size_t RankCallRecords::unclosedCount() const
{
    return size_t(
        std::count_if(calls.begin(), calls.end(), [](const CallRecord& c) { return !c.closed; }));
}

RankCallRecords mpiCallRecords(const Trace& trace, RankId rank, CallSiteTable& callSites)
{
    RankCallRecords result;
    result.rank = rank;
    CallSiteResolver resolver(trace, callSites);
    MpiCallScanner scanner(trace, rank, &resolver);
    CallRecord call;
    while (scanner.next(call, &result.payload))
        result.calls.push_back(call);
    return result;
}

} // namespace rankscope
