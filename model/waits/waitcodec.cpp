#include "model/waits/waitcodec.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace rankscope {

namespace {

void checkPattern(WaitPattern p)
{
    if (size_t(p) >= kWaitPatternCount) throw std::runtime_error("unknown wait pattern");
}

void putRow(ByteWriter& w, const WaitRow& x)
{
    w.put(uint8_t(x.pattern));
    w.put(x.callSite.value);
    w.put(x.rank.value);
    w.put(x.waitNs);
    w.put(x.indirectNs);
    w.put(x.wrongOrderNs);
    w.put(x.longestNs);
    w.put(x.occurrences);
}

WaitRow getRow(ByteReader& r)
{
    WaitRow x;
    x.pattern = WaitPattern(r.get<uint8_t>());
    x.callSite = CallSiteId(r.get<uint32_t>());
    x.rank = RankId(r.get<uint32_t>());
    x.waitNs = r.get<int64_t>();
    x.indirectNs = r.get<int64_t>();
    x.wrongOrderNs = r.get<int64_t>();
    x.longestNs = r.get<int64_t>();
    x.occurrences = r.get<uint64_t>();
    return x;
}

} // namespace

void encodeWaitTotals(const WaitStateAnalysis& a, const std::vector<WaitRow>& rows,
                      uint32_t firstRank, uint32_t endRank, ByteWriter& w)
{
    w.put<uint64_t>(a.callSites.size());
    for (const std::string& name : a.callSites.names())
        w.putString(name);
    w.put(a.byPattern);
    w.put(a.totalNs);
    w.put(a.directNs);
    w.put(a.indirectNs);
    w.put(a.wrongOrderNs);
    w.put(firstRank);
    w.putList(std::vector<int64_t>(a.byRank.begin() + firstRank, a.byRank.begin() + endRank));
    w.putRecords(a.byCallSite, [&](const CallSiteWait& c) {
        w.put(c.callSite.value);
        w.put(uint8_t(c.pattern));
        w.put(c.waitNs);
        w.put(c.occurrences);
    });
    w.putRecords(rows, [&](const WaitRow& x) { putRow(w, x); });
}

WaitStateAnalysis decodeWaitTotals(ByteReader& r, size_t ranks)
{
    WaitStateAnalysis a;
    const auto sites = r.get<uint64_t>();
    for (uint64_t k = 0; k < sites; ++k)
        if (a.callSites.intern(r.getString()).value != k)
            throw std::runtime_error("call site " + std::to_string(k) + " is listed twice");
    a.byPattern = r.get<decltype(a.byPattern)>();
    a.totalNs = r.get<int64_t>();
    a.directNs = r.get<int64_t>();
    a.indirectNs = r.get<int64_t>();
    a.wrongOrderNs = r.get<decltype(a.wrongOrderNs)>();
    const auto first = r.get<uint32_t>();
    const std::vector<int64_t> byRank = r.getList<int64_t>();
    if (uint64_t(first) + byRank.size() > ranks)
        throw std::runtime_error("waiting per rank for unknown ranks");
    a.byRank.assign(ranks, 0);
    std::copy(byRank.begin(), byRank.end(), a.byRank.begin() + first);
    a.byCallSite = r.getRecords<CallSiteWait>(21, [&] {
        CallSiteWait c;
        c.callSite = CallSiteId(r.get<uint32_t>());
        c.pattern = WaitPattern(r.get<uint8_t>());
        c.waitNs = r.get<int64_t>();
        c.occurrences = r.get<uint64_t>();
        return c;
    });
    for (const CallSiteWait& c : a.byCallSite) {
        checkPattern(c.pattern);
        if (c.callSite.value >= sites) throw std::runtime_error("unknown call site");
    }
    a.rows = r.getRecords<WaitRow>(49, [&] { return getRow(r); });
    for (const WaitRow& row : a.rows) {
        checkPattern(row.pattern);
        if (row.callSite.value >= sites || row.rank.value >= ranks)
            throw std::runtime_error("a wait row names an unknown call site or rank");
    }
    return a;
}

} // namespace rankscope
