#include "model/analysis/rankshare.h"

#include "model/support/bytecodec.h"

#include <stdexcept>
#include <string>

namespace rankscope {

namespace {

void putStats(ByteWriter& w, const DeltaStats& d)
{
    w.put(d.occurrences);
    w.put(d.total);
    w.put(d.min);
    w.put(d.max);
}

DeltaStats getStats(ByteReader& r)
{
    DeltaStats d;
    d.occurrences = r.get<uint64_t>();
    d.total = r.get<int64_t>();
    d.min = r.get<int64_t>();
    d.max = r.get<int64_t>();
    return d;
}

/// A count of items that take at least `bytes` each, refused (as data ending early) when the
/// bytes left cannot hold them: a damaged count must not allocate.
uint64_t count(ByteReader& r, size_t bytes)
{
    const auto n = r.get<uint64_t>();
    if (n > r.left() / bytes)
        throw std::runtime_error("a count of " + std::to_string(n) +
                                 " items runs past the data (truncated or damaged)");
    return n;
}

} // namespace

void encodeShare(const RankShare& share, std::vector<char>& out)
{
    ByteWriter w(out);
    const RankProfile& p = share.profile;
    w.put(p.rank.value);
    w.put<uint64_t>(p.regions.size());
    for (const RegionTimes& t : p.regions) {
        w.put(t.calls);
        w.put(t.inclusive);
        w.put(t.exclusive);
    }
    w.put(p.mpiTime);
    w.put(p.mpiCalls);
    w.put(p.unclosedRegions);
    w.put<uint8_t>(p.cancelled);

    const RankIntervals& iv = share.intervals;
    w.put(iv.rank.value);
    w.put<uint64_t>(iv.callSites.size());
    for (const std::string& name : iv.callSites.names())
        w.putString(name);
    w.put<uint64_t>(iv.intervals.size());
    for (const RankIntervals::Interval& i : iv.intervals) {
        w.put(i.from.value);
        w.put(i.to.value);
        putStats(w, i.stats);
    }
    w.put(iv.deltaSum);
    w.put<uint8_t>(iv.cancelled);

    const RankSpan& s = share.span;
    w.put(s.firstEventNs);
    w.put(s.initEndNs);
    w.put(s.finalizeEnterNs);
    w.put(s.endNs);
    w.put<uint8_t>(s.finalized);
    w.put(s.mpiNs);
    w.put<uint8_t>(s.hasEvents);
}

std::vector<RankShare> decodeShares(const char* bytes, size_t size)
{
    ByteReader r(bytes, size);
    std::vector<RankShare> shares;
    while (!r.atEnd()) {
        RankShare share;
        RankProfile& p = share.profile;
        p.rank = RankId(r.get<uint32_t>());
        p.regions.resize(count(r, 24)); // calls, inclusive, exclusive
        for (RegionTimes& t : p.regions) {
            t.calls = r.get<uint64_t>();
            t.inclusive = r.get<int64_t>();
            t.exclusive = r.get<int64_t>();
        }
        p.mpiTime = r.get<int64_t>();
        p.mpiCalls = r.get<uint64_t>();
        p.unclosedRegions = r.get<uint64_t>();
        p.cancelled = r.get<uint8_t>() != 0;

        RankIntervals& iv = share.intervals;
        iv.rank = RankId(r.get<uint32_t>());
        const uint64_t sites = count(r, 8); // each name at least its length
        for (uint64_t k = 0; k < sites; ++k)
            if (iv.callSites.intern(r.getString()).value != k) // same names, same order: same ids
                throw std::runtime_error("call site " + std::to_string(k) + " is listed twice");
        iv.intervals.resize(count(r, 40)); // from, to, four statistics
        for (RankIntervals::Interval& i : iv.intervals) {
            i.from = CallSiteId(r.get<uint32_t>());
            i.to = CallSiteId(r.get<uint32_t>());
            i.stats = getStats(r);
            if (i.from.value >= sites || i.to.value >= sites)
                throw std::runtime_error("a process's results name an unknown call site");
        }
        iv.deltaSum = r.get<int64_t>();
        iv.cancelled = r.get<uint8_t>() != 0;

        RankSpan& s = share.span;
        s.firstEventNs = r.get<int64_t>();
        s.initEndNs = r.get<int64_t>();
        s.finalizeEnterNs = r.get<int64_t>();
        s.endNs = r.get<int64_t>();
        s.finalized = r.get<uint8_t>() != 0;
        s.mpiNs = r.get<int64_t>();
        s.hasEvents = r.get<uint8_t>() != 0;
        shares.push_back(std::move(share));
    }
    return shares;
}

} // namespace rankscope
