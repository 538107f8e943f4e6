#include "whatif/extrap/synthcompare.h"

#include "model/analysis/runspan.h"
#include "model/trace/callrecords.h"
#include "model/trace/mpilifecycle.h"
#include "model/trace/traceerror.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace rankscope::extrap {

namespace {

struct SiteTotals
{
    uint64_t messages = 0, bytes = 0;
};

struct Summary
{
    std::map<std::string, SiteTotals> sites;
    std::map<std::pair<size_t, uint8_t>, uint64_t> collectives; // (comm size, op) -> instances
    std::vector<std::set<uint32_t>> partners;
    std::vector<uint64_t> events;
    uint64_t messages = 0, bytes = 0, collectiveCount = 0, eventCount = 0;
};

Summary summarise(const Trace& t)
{
    Summary s;
    CallSiteTable table;
    for (uint32_t r = 0; r < t.rankCount(); ++r) {
        const RankCallRecords rec = mpiCallRecords(t, RankId(r), table);
        for (const CallRecord& c : rec.calls) {
            for (const CallPayload& p : rec.payloadOf(c)) {
                if (p.kind != EventKind::MpiSend && p.kind != EventKind::MpiIsend) continue;
                SiteTotals& site =
                    s.sites[c.callSite.valid() ? std::string(table.name(c.callSite)) : "(unknown)"];
                site.messages += 1;
                site.bytes += t.message(p.message()).bytes;
            }
        }
    }
    s.partners.resize(t.rankCount());
    for (const Message& m : t.messages()) {
        const uint32_t a = t.messageSender(m).value, b = t.messageReceiver(m).value;
        s.partners[a].insert(b);
        s.partners[b].insert(a);
        s.messages += 1;
        s.bytes += m.bytes;
    }
    for (const CollectiveInstance& c : t.collectives()) {
        const size_t size = c.comm.valid() ? t.communicator(c.comm).members.size() : 0;
        ++s.collectives[{size, uint8_t(c.op)}];
        ++s.collectiveCount;
    }
    for (uint32_t r = 0; r < t.rankCount(); ++r) {
        // Creation and destruction records of communicators other than MPI_COMM_WORLD are not
        // counted: a predicted trace defines MPI_COMM_WORLD only and leaves them out.
        const EventStream& ev = t.rankEvents(RankId(r));
        uint64_t n = ev.size();
        for (uint32_t i = 0; i < ev.size(); ++i) {
            if (ev.kind(i) != EventKind::Misc) continue;
            const MiscEvent& m = t.miscEvents()[ev.ref(i)];
            if ((m.kind == MiscKind::CommCreate || m.kind == MiscKind::CommDestroy) &&
                CommId(m.detail) != t.worldCommunicator())
                --n;
        }
        s.events.push_back(n);
        s.eventCount += n;
    }
    return s;
}

double pctOff(uint64_t predicted, uint64_t measured)
{
    if (predicted == measured) return 0;
    if (measured == 0) return 100;
    return 100.0 * std::abs(double(predicted) - double(measured)) / double(measured);
}

} // namespace

std::optional<int64_t> initToFinalizeNs(const Trace& t)
{
    // The span `simulate` compares on (model/analysis/runspan.h): the same rule for both commands.
    if (t.eventCount() == 0) return std::nullopt;
    return runSpan(t).duration();
}

StructureMatch compareStructure(const Trace& predicted, const Trace& measured,
                                const std::string& measuredName)
{
    if (predicted.rankCount() != measured.rankCount())
        throw TraceError(measuredName + " holds " + std::to_string(measured.rankCount()) +
                         " ranks, the predicted trace " + std::to_string(predicted.rankCount()) +
                         ": --measured must be a run at the target scale");
    const Summary p = summarise(predicted), m = summarise(measured);
    StructureMatch out;
    std::set<std::string> names;
    for (const auto& [name, _] : p.sites)
        names.insert(name);
    for (const auto& [name, _] : m.sites)
        names.insert(name);
    for (const std::string& name : names) {
        const auto pi = p.sites.find(name), mi = m.sites.find(name);
        const SiteTotals a = pi == p.sites.end() ? SiteTotals{} : pi->second;
        const SiteTotals b = mi == m.sites.end() ? SiteTotals{} : mi->second;
        out.messagesPct = std::max(out.messagesPct, pctOff(a.messages, b.messages));
        out.bytesPct = std::max(out.bytesPct, pctOff(a.bytes, b.bytes));
        if (a.messages != b.messages || a.bytes != b.bytes)
            out.differences.push_back({name, a.messages, b.messages, a.bytes, b.bytes});
    }
    std::stable_sort(out.differences.begin(), out.differences.end(),
                     [](const CallSiteDifference& x, const CallSiteDifference& y) {
                         return std::max(pctOff(x.predictedMessages, x.measuredMessages),
                                         pctOff(x.predictedBytes, x.measuredBytes)) >
                                std::max(pctOff(y.predictedMessages, y.measuredMessages),
                                         pctOff(y.predictedBytes, y.measuredBytes));
                     });
    out.predictedMessages = p.messages;
    out.measuredMessages = m.messages;
    out.predictedBytes = p.bytes;
    out.measuredBytes = m.bytes;
    out.collectivesEqual = p.collectives == m.collectives;
    out.predictedCollectives = p.collectiveCount;
    out.measuredCollectives = m.collectiveCount;
    const size_t n = measured.rankCount();
    size_t samePartners = 0, sameEvents = 0;
    for (size_t r = 0; r < n; ++r) {
        samePartners += p.partners[r] == m.partners[r] ? 1 : 0;
        sameEvents += p.events[r] == m.events[r] ? 1 : 0;
    }
    out.partnersEqualRanksPct = n ? 100.0 * double(samePartners) / double(n) : 100.0;
    out.eventsEqualRanksPct = n ? 100.0 * double(sameEvents) / double(n) : 100.0;
    out.predictedEvents = p.eventCount;
    out.measuredEvents = m.eventCount;
    return out;
}

} // namespace rankscope::extrap
