// The backward replay of rankscope-mpi analyse: root causes of the waits found by
// findWaitStatesInParallel (the design is in parallelwaits.h).
//
// The desktop sweeps both synchronisation points of every wait in one time order; a rank's
// cursor only ever sees that rank's points, in that order restricted to the rank: (time, side,
// wait index). So each process runs the cursors of its own ranks over their points, the waiting
// side's from its own waits and the cause side's sent by the waiting rank's process, with the
// global wait index (waits numbered by rank, then begin, as in the desktop's analysis). Memory:
// one hotspot interval per chargeable wait of the process, kept until its cause side is known.

#include "app/mpi/mpibytes.h"
#include "app/mpi/parallelwaits.h"
#include "model/support/bytecodec.h"
#include "model/trace/traceerror.h"
#include "model/waits/rootcausecursor.h"

#include <algorithm>
#include <span>
#include <string>
#include <tuple>

namespace rankscope::mpi {

namespace {

constexpr uint8_t kWaitingSide = 0; // at WaitState::begin, on the waiting rank
constexpr uint8_t kCauseSide = 1;   // at WaitState::end, on the cause rank

struct Point
{
    int64_t time = 0;
    uint8_t side = kWaitingSide;
    uint64_t wait = 0;   ///< global wait index
    uint32_t rank = 0;   ///< whose cursor
    uint32_t source = 0; ///< the process holding the wait

    auto key() const { return std::tie(rank, time, side, wait); }
};

struct Cost
{
    uint32_t rank = 0;
    uint32_t hotspot = 0;
    int64_t cost = 0;
};

std::vector<RegionId> agreeOnHotspots(const Part& part, const Profile& profile, double threshold,
                                      MPI_Comm comm)
{
    std::vector<uint32_t> ids;
    if (part.process == 0) {
        std::vector<int64_t> exclusive(part.trace.regions().size(), 0);
        for (size_t g = 0; g < exclusive.size() && g < profile.regions.size(); ++g)
            exclusive[g] = profile.regions[g].exclusive;
        for (RegionId h : hotspotsOf(part.trace, exclusive, threshold))
            ids.push_back(h.value);
    }
    uint64_t count = ids.size();
    MPI_Bcast(&count, 1, MPI_UINT64_T, 0, comm);
    ids.resize(count);
    MPI_Bcast(ids.data(), int(count), MPI_UINT32_T, 0, comm);
    std::vector<RegionId> hotspots;
    for (uint32_t id : ids)
        hotspots.push_back(RegionId(id));
    return hotspots;
}

} // namespace

RootCauseReport findRootCausesInParallel(const Part& part, const ParallelWaits& waits,
                                         const Profile& profile, double hotspotThresholdPercent,
                                         MPI_Comm comm)
{
    const Trace& trace = part.trace;
    const size_t rankCount = trace.rankCount();
    int processes = 1;
    MPI_Comm_size(comm, &processes);
    RootCauseReport report;
    report.hotspots = agreeOnHotspots(part, profile, hotspotThresholdPercent, comm);
    const size_t hotspots = report.hotspots.size();
    std::vector<uint32_t> hotspotOf(trace.regions().size(), RootCauseCursor::kNotHotspot);
    for (uint32_t h = 0; h < hotspots; ++h)
        hotspotOf[report.hotspots[h].value] = h;

    const std::vector<WaitState>& mine = waits.local.waits;
    uint64_t count = mine.size(), offset = 0;
    MPI_Exscan(&count, &offset, 1, MPI_UINT64_T, MPI_SUM, comm);
    if (part.process == 0) offset = 0; // MPI_Exscan leaves rank 0's result undefined

    // Both points of every chargeable wait; cause points of ranks held elsewhere travel.
    std::vector<Point> points;
    std::vector<std::vector<Point>> away(static_cast<size_t>(processes));
    for (size_t j = 0; j < mine.size(); ++j) {
        const WaitState& w = mine[j];
        if (!chargeableWait(w, rankCount)) continue;
        const uint32_t source = uint32_t(part.process);
        points.push_back({w.begin, kWaitingSide, offset + j, w.rank.value, source});
        const Point cause{w.end, kCauseSide, offset + j, w.cause.value, source};
        if (part.holds(w.cause))
            points.push_back(cause);
        else
            away[size_t(part.ownerOf(w.cause))].push_back(cause);
    }
    std::vector<std::vector<char>> bytes(away.size());
    for (size_t p = 0; p < away.size(); ++p)
        if (!away[p].empty()) ByteWriter(bytes[p]).putList(away[p]);
    const Received in = exchangeBytes(bytes, comm);
    for (size_t p = 0; p + 1 < in.from.size(); ++p) {
        ByteReader r(in.bytes.data() + in.from[p], in.from[p + 1] - in.from[p]);
        if (r.atEnd()) continue;
        for (const Point& q : r.getList<Point>()) {
            if (!part.holds(RankId(q.rank)))
                throw TraceError("a process sent a synchronisation point of rank " +
                                 std::to_string(q.rank) + ", which another process holds");
            points.push_back(q);
        }
    }
    std::sort(points.begin(), points.end(),
              [](const Point& a, const Point& b) { return a.key() < b.key(); });

    // Each held rank's cursor over its points, in the desktop's order.
    std::vector<int64_t> waiting(mine.size() * hotspots, 0), cause(mine.size() * hotspots, 0);
    std::vector<std::vector<int64_t>> back(
        static_cast<size_t>(processes)); // (wait, interval...) records
    for (size_t i = 0; i < points.size();) {
        const uint32_t rank = points[i].rank;
        RootCauseCursor cursor(trace.rankEvents(RankId(rank)), &hotspotOf, hotspots);
        for (; i < points.size() && points[i].rank == rank; ++i) {
            const Point& q = points[i];
            const std::vector<int64_t>& interval = cursor.intervalUntil(q.time);
            if (q.source == uint32_t(part.process)) {
                std::vector<int64_t>& to = q.side == kWaitingSide ? waiting : cause;
                std::copy(interval.begin(), interval.end(),
                          to.begin() + ptrdiff_t((q.wait - offset) * hotspots));
            } else {
                std::vector<int64_t>& to = back[q.source];
                to.push_back(int64_t(q.wait));
                to.insert(to.end(), interval.begin(), interval.end());
            }
        }
    }
    points.clear();
    std::vector<std::vector<char>> backBytes(back.size());
    for (size_t p = 0; p < back.size(); ++p)
        if (!back[p].empty()) ByteWriter(backBytes[p]).putList(back[p]);
    const Received intervals = exchangeBytes(backBytes, comm);
    for (size_t p = 0; p + 1 < intervals.from.size(); ++p) {
        ByteReader r(intervals.bytes.data() + intervals.from[p],
                     intervals.from[p + 1] - intervals.from[p]);
        if (r.atEnd()) continue;
        const std::vector<int64_t> records = r.getList<int64_t>();
        for (size_t k = 0; k + hotspots < records.size(); k += hotspots + 1) {
            const uint64_t j = uint64_t(records[k]) - offset;
            if (j >= mine.size()) throw TraceError("a process sent an interval of an unknown wait");
            std::copy(records.begin() + ptrdiff_t(k + 1),
                      records.begin() + ptrdiff_t(k + 1 + hotspots),
                      cause.begin() + ptrdiff_t(j * hotspots));
        }
    }

    // Charge this process's waits.
    std::vector<Cost> costs;
    std::map<std::pair<uint32_t, uint32_t>, int64_t> siteCost; // (local call site, hotspot)
    std::vector<int64_t> rankCost;                             // (cause, hotspot), sparse below
    std::map<std::pair<uint32_t, uint32_t>, int64_t> byCause;
    int64_t explained = 0;
    std::vector<int64_t> sigma, parts;
    for (size_t j = 0; j < mine.size() && hotspots > 0; ++j) {
        const WaitState& w = mine[j];
        if (!chargeableWait(w, rankCount)) continue;
        const std::span<const int64_t> c(cause.data() + j * hotspots, hotspots);
        const std::span<const int64_t> p(waiting.data() + j * hotspots, hotspots);
        if (!chargeWait(c, p, w.duration(), sigma, parts)) continue;
        explained += w.duration();
        for (uint32_t h = 0; h < hotspots; ++h) {
            if (parts[h] == 0) continue;
            byCause[{w.cause.value, h}] += parts[h];
            siteCost[{w.callSite.value, h}] += parts[h];
        }
    }

    std::vector<char> share;
    ByteWriter out(share);
    out.put(explained);
    for (const auto& [key, cost] : byCause)
        costs.push_back({key.first, key.second, cost});
    out.putList(costs);
    out.put<uint64_t>(siteCost.size());
    for (const auto& [key, cost] : siteCost) {
        out.putString(std::string(waits.local.callSites.name(CallSiteId(key.first))));
        out.put(key.second);
        out.put(cost);
    }
    const std::vector<char> all = gatherBytes(share, comm);
    if (part.process != 0) return RootCauseReport();

    const WaitStateAnalysis& merged = waits.merged;
    report.totalWaitNs = merged.totalNs;
    std::map<uint32_t, int64_t> waitAtCallSite;
    for (const CallSiteWait& s : merged.byCallSite)
        waitAtCallSite[s.callSite.value] += s.waitNs;
    rankCost.assign(rankCount * hotspots, 0);
    std::map<std::pair<uint32_t, uint32_t>, int64_t> sites;
    ByteReader r(all.data(), all.size());
    while (!r.atEnd()) {
        report.explainedNs += r.get<int64_t>();
        for (const Cost& k : r.getList<Cost>()) {
            if (k.rank >= rankCount || k.hotspot >= hotspots)
                throw TraceError("a process charged an unknown rank or hotspot");
            rankCost[size_t(k.rank) * hotspots + k.hotspot] += k.cost;
        }
        const uint64_t n = r.get<uint64_t>();
        for (uint64_t k = 0; k < n; ++k) {
            const std::string name = r.getString();
            const auto h = r.get<uint32_t>();
            const auto cost = r.get<int64_t>();
            const CallSiteId id = merged.callSites.find(name);
            if (!id.valid() || h >= hotspots)
                throw TraceError("a process charged an unknown call site or hotspot");
            sites[{id.value, h}] += cost;
        }
    }
    finishRootCauseReport(report, rankCost, sites, waitAtCallSite);
    return report;
}

} // namespace rankscope::mpi
