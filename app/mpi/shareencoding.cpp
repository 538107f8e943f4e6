#include "app/mpi/shareencoding.h"

#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace rankscope::mpi {

namespace {

class Writer
{
public:
    explicit Writer(std::vector<char>& out) : out_(out) {}

    template <class T> void put(T v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        const size_t at = out_.size();
        out_.resize(at + sizeof v);
        std::memcpy(out_.data() + at, &v, sizeof v);
    }
    void put(const std::string& s)
    {
        put<uint64_t>(s.size());
        out_.insert(out_.end(), s.begin(), s.end());
    }
    void put(const DeltaStats& d)
    {
        put(d.occurrences);
        put(d.total);
        put(d.min);
        put(d.max);
    }

private:
    std::vector<char>& out_;
};

class Reader
{
public:
    Reader(const char* bytes, size_t size) : p_(bytes), end_(bytes + size) {}

    bool atEnd() const { return p_ == end_; }
    template <class T> T get()
    {
        T v;
        need(sizeof v);
        std::memcpy(&v, p_, sizeof v);
        p_ += sizeof v;
        return v;
    }
    std::string getString()
    {
        const uint64_t n = get<uint64_t>();
        need(n);
        std::string s(p_, n);
        p_ += n;
        return s;
    }
    DeltaStats getStats()
    {
        DeltaStats d;
        d.occurrences = get<uint64_t>();
        d.total = get<int64_t>();
        d.min = get<int64_t>();
        d.max = get<int64_t>();
        return d;
    }

private:
    void need(uint64_t n) const
    {
        if (n > uint64_t(end_ - p_))
            throw std::runtime_error("a process's results end early (truncated message)");
    }
    const char* p_;
    const char* end_;
};

} // namespace

void encodeShare(const RankShare& share, std::vector<char>& out)
{
    Writer w(out);
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
        w.put(name);
    w.put<uint64_t>(iv.intervals.size());
    for (const RankIntervals::Interval& i : iv.intervals) {
        w.put(i.from.value);
        w.put(i.to.value);
        w.put(i.stats);
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
    Reader r(bytes, size);
    std::vector<RankShare> shares;
    while (!r.atEnd()) {
        RankShare share;
        RankProfile& p = share.profile;
        p.rank = RankId(r.get<uint32_t>());
        p.regions.resize(r.get<uint64_t>());
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
        const uint64_t sites = r.get<uint64_t>();
        for (uint64_t k = 0; k < sites; ++k)
            iv.callSites.intern(r.getString()); // same names in the same order: same ids
        iv.intervals.resize(r.get<uint64_t>());
        for (RankIntervals::Interval& i : iv.intervals) {
            i.from = CallSiteId(r.get<uint32_t>());
            i.to = CallSiteId(r.get<uint32_t>());
            i.stats = r.getStats();
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

} // namespace rankscope::mpi
