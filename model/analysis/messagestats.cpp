#include "model/analysis/messagestats.h"

#include "model/trace/callrecords.h"
#include "model/trace/trace.h"

#include <algorithm>
#include <bit>

namespace rankscope {

uint32_t Log2Histogram::binOf(int64_t v)
{
    return v <= 0 ? 0 : uint32_t(std::bit_width(uint64_t(v)));
}

void Log2Histogram::add(int64_t v)
{
    const uint32_t k = binOf(v);
    if (counts.size() <= k) counts.resize(k + 1, 0);
    ++counts[k];
}

uint64_t Log2Histogram::total() const
{
    uint64_t n = 0;
    for (uint64_t c : counts)
        n += c;
    return n;
}

namespace {

void addMessage(MessageGroup& g, uint64_t bytes, int64_t transfer)
{
    if (g.count == 0 || transfer > g.maxNs) g.maxNs = transfer;
    ++g.count;
    g.bytes += bytes;
    g.totalNs += transfer;
    g.size.add(int64_t(bytes));
    g.time.add(transfer);
    if (bytes > 0 && transfer > 0) g.bandwidth.add(int64_t(double(bytes) * 1e9 / double(transfer)));
}

void sortGroups(std::vector<MessageGroup>& groups)
{
    std::erase_if(groups, [](const MessageGroup& g) { return g.count == 0; });
    std::sort(groups.begin(), groups.end(), [](const MessageGroup& a, const MessageGroup& b) {
        return a.count != b.count ? a.count > b.count : a.name < b.name;
    });
}

} // namespace

MessageStatistics computeMessageStatistics(const Trace& trace, const ProgressCallback& progress)
{
    MessageStatistics result;
    result.all.name = "all";
    const auto& messages = trace.messages();

    // The call site of each message's send call.
    CallSiteTable sites;
    ProgressReporter reporter(progress, trace.rankCount() + 1);
    const std::vector<uint32_t> site = sendCallSites(trace, sites, [&](uint32_t r) {
        result.cancelled = !reporter.update(r);
        return !result.cancelled;
    });
    if (result.cancelled) return result;

    std::vector<MessageGroup> bySite(sites.size() + 1);
    for (size_t s = 0; s < sites.size(); ++s)
        bySite[s].name = std::string(sites.name(CallSiteId(uint32_t(s))));
    bySite.back().name = "(unknown call site)";
    std::vector<MessageGroup> byComm(trace.communicators().size() + 1);
    for (size_t c = 0; c < trace.communicators().size(); ++c) {
        const StringId name = trace.communicators()[c].name;
        const std::string_view text = name.valid() ? trace.str(name) : std::string_view();
        byComm[c].name = text.empty() ? "communicator " + std::to_string(c) : std::string(text);
    }
    byComm.back().name = "(unknown communicator)";

    for (size_t i = 0; i < messages.size(); ++i) {
        const Message& m = messages[i];
        if (!m.matched()) {
            ++result.unmatched;
            continue;
        }
        const int64_t sent = trace.events(m.sendLocation).time(m.sendEvent);
        const int64_t transfer = trace.events(m.recvLocation).time(m.recvEvent) - sent;
        addMessage(result.all, m.bytes, transfer);
        addMessage(bySite[site[i] == kNoCallSite ? sites.size() : site[i]], m.bytes, transfer);
        addMessage(byComm[m.comm.valid() ? m.comm.value : byComm.size() - 1], m.bytes, transfer);
    }
    sortGroups(bySite);
    sortGroups(byComm);
    result.byCallSite = std::move(bySite);
    result.byCommunicator = std::move(byComm);
    reporter.report(trace.rankCount() + 1);
    return result;
}

} // namespace rankscope
