#include "app/mpi/parallelsummary.h"

#include "app/mpi/mpibytes.h"
#include "importers/rsum/resultsummary.h"
#include "model/support/bytecodec.h"
#include "model/trace/traceerror.h"

#include <algorithm>
#include <climits>
#include <tuple>

namespace rankscope::mpi {

namespace {

struct Pyramids
{
    TimelineSummary timeline;
    WaitSummary waits;
};

/// This process's ranks' pyramids on the whole run's geometry, at the stored resolution.
Pyramids localPyramids(const ParallelResult& r, const WaitStateAnalysis& local, MPI_Comm comm)
{
    const Trace& trace = r.trace;
    const bool any = trace.eventCount() > 0;
    int64_t begin = any ? trace.beginTime() : INT64_MAX;
    int64_t end = any ? trace.endTime() : INT64_MIN;
    MPI_Allreduce(MPI_IN_PLACE, &begin, 1, MPI_INT64_T, MPI_MIN, comm);
    MPI_Allreduce(MPI_IN_PLACE, &end, 1, MPI_INT64_T, MPI_MAX, comm);
    if (begin > end) begin = end = 0; // no events anywhere
    Pyramids p;
    const TimelineSummary timeline =
        TimelineSummary::buildRanks(trace, begin, end, r.firstRank, r.endRank);
    p.timeline = timeline.coarsened(storedLevelDrop(timeline.geometry(), trace.rankCount()));
    const WaitSummary waits = WaitSummary::build(local, trace.rankCount(), begin, end);
    p.waits = waits.coarsened(storedLevelDrop(waits.levels(), trace.rankCount()));
    return p;
}

} // namespace

void writeSummaryInParallel(const std::string& path, const std::string& source,
                            const ParallelResult& r, const ParallelWaits& waits,
                            const RootCauseReport& causes, MPI_Comm comm)
{
    const Trace& trace = r.trace;
    const Pyramids local = localPyramids(r, waits.local, comm);
    uint64_t events = trace.eventCount();
    MPI_Allreduce(MPI_IN_PLACE, &events, 1, MPI_UINT64_T, MPI_SUM, comm);

    // This process's part: its ranks' cells (the wait rows came with the wait totals).
    std::vector<char> mine;
    ByteWriter w(mine);
    // Each rank's cells travel compressed, as the file keeps them: rank 0 never holds the
    // pyramids whole.
    w.put(r.firstRank);
    w.put(r.endRank);
    for (uint32_t k = r.firstRank; k < r.endRank; ++k) {
        for (const PackedCells& p : {packCells(local.timeline.rankCells(RankId(k))),
                                     packCells(local.waits.rankCells(RankId(k)))}) {
            w.put(p.count);
            w.putList(p.bytes);
        }
    }
    const std::vector<char> all = gatherBytes(mine, comm);
    int me = 0;
    MPI_Comm_rank(comm, &me);
    if (me != 0) return;

    ResultSummary s;
    // The definitions are whole on every process; the summary only reads them.
    s.trace = std::shared_ptr<const Trace>(std::shared_ptr<const Trace>(), &trace);
    s.source = source;
    s.events = events;
    s.ranks = r.shares;
    s.waits = waits.merged;
    s.rootCauses = causes;
    const size_t ranks = trace.rankCount();
    s.packed.timelineLevels = local.timeline.geometry();
    s.packed.waitLevels = local.waits.levels();
    s.packed.timeline.resize(ranks);
    s.packed.waits.resize(ranks);
    ByteReader in(all.data(), all.size());
    while (!in.atEnd()) {
        const auto first = in.get<uint32_t>();
        const auto end = in.get<uint32_t>();
        if (first > end || end > ranks)
            throw TraceError("a process sent pyramids of unknown ranks");
        for (uint32_t k = first; k < end; ++k)
            for (PackedCells* p : {&s.packed.timeline[k], &s.packed.waits[k]}) {
                p->count = in.get<uint64_t>();
                p->bytes = in.getList<unsigned char>();
            }
    }
    writeResultSummary(path, s);
}

} // namespace rankscope::mpi
