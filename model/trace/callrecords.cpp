#include "model/trace/callrecords.h"

#include "model/matching/mpicallscanner.h"
#include "model/trace/callsiteresolver.h"
#include "model/trace/trace.h"

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

std::vector<uint32_t> sendCallSites(const Trace& trace, CallSiteTable& callSites,
                                    const std::function<bool(uint32_t)>& beforeRank)
{
    std::vector<uint32_t> site(trace.messages().size(), kNoCallSite);
    for (uint32_t r = 0; r < trace.rankCount(); ++r) {
        if (beforeRank && !beforeRank(r)) break;
        const RankId rank(r);
        const LocationId main = trace.rank(rank).mainLocation;
        const RankCallRecords records = mpiCallRecords(trace, rank, callSites);
        for (const CallRecord& call : records.calls) {
            for (const CallPayload& p : records.payloadOf(call)) {
                if (p.kind != EventKind::MpiSend && p.kind != EventKind::MpiIsend) continue;
                const MessageId id = p.message();
                if (!id.valid()) continue;
                const Message& m = trace.message(id);
                if (m.sendLocation == main && m.sendEvent == p.event && call.callSite.valid())
                    site[id.value] = call.callSite.value;
            }
        }
    }
    return site;
}

} // namespace rankscope
