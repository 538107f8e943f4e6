#include "app/mpi/parallelanalysis.h"

#include "app/mpi/mpibytes.h"
#include "importers/otf2/otf2reader.h"
#include "model/analysis/rankshare.h"
#include "model/analysis/runspan.h"
#include "model/support/rankblocks.h"
#include "model/trace/mpilifecycle.h"
#include "model/trace/traceerror.h"

#include <otf2/otf2.h>
// OTF2's MPI collectives are header-only (static functions); MPI 3 provides the fixed-width
// datatypes they need.
#include <otf2/OTF2_MPI_Collectives.h>

namespace rankscope::mpi {

ParallelResult analyseInParallel(const std::string& path, MPI_Comm comm)
{
    int me = 0, size = 1;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &size);
    ParallelResult result;

    double t0 = MPI_Wtime();
    Otf2ReadOptions read;
    read.threads = 1;
    read.selectRanks = [&](const std::vector<uint64_t>& eventsPerRank) {
        result.blockStarts = rankBlockStarts(eventsPerRank, uint32_t(size));
        result.firstRank = result.blockStarts[size_t(me)];
        result.endRank = result.blockStarts[size_t(me) + 1];
        std::vector<bool> mine(eventsPerRank.size(), false);
        for (uint32_t r = result.firstRank; r < result.endRank; ++r) {
            mine[r] = true;
            result.events += eventsPerRank[r];
        }
        return mine;
    };
    read.setCollectiveCallbacks = [comm](OTF2_Reader* reader) {
        return int(OTF2_MPI_Reader_SetCollectiveCallbacks(reader, comm));
    };
    result.trace = readOtf2(path, read);
    double t1 = MPI_Wtime();
    result.times.read = t1 - t0;

    // The desktop's per-rank analyses, on this process's ranks only.
    const Trace& trace = result.trace;
    const MpiLifecycle life = MpiLifecycle::of(trace);
    std::vector<char> mine;
    for (uint32_t r = result.firstRank; r < result.endRank; ++r) {
        RankShare share;
        share.profile = computeRankProfile(trace, RankId(r));
        share.intervals = computeRankIntervals(trace, RankId(r));
        share.span = rankSpan(trace, life, RankId(r));
        encodeShare(share, mine);
    }
    t0 = MPI_Wtime();
    result.times.analysis = t0 - t1;

    const std::vector<char> all = gatherBytes(mine, comm);
    t1 = MPI_Wtime();
    result.times.communication = t1 - t0;
    if (me != 0) return result;

    result.shares = decodeShares(all.data(), all.size());
    std::vector<RankShare> shares = result.shares;
    if (shares.size() != trace.rankCount())
        throw TraceError(path + ": the processes analysed " + std::to_string(shares.size()) +
                         " ranks of " + std::to_string(trace.rankCount()));
    std::vector<RankProfile> profiles;
    std::vector<RankIntervals> intervals;
    std::vector<RankSpan> spans(trace.rankCount());
    profiles.reserve(shares.size());
    intervals.reserve(shares.size());
    for (RankShare& s : shares) {
        if (s.profile.rank.value >= spans.size())
            throw TraceError(path + ": a process sent results for an unknown rank");
        spans[s.profile.rank.value] = s.span;
        profiles.push_back(std::move(s.profile));
        intervals.push_back(std::move(s.intervals));
    }
    result.profile =
        mergeRankProfiles(trace, std::move(profiles), combineRankSpans(std::move(spans)));
    result.intervals = mergeRankIntervals(trace.rankCount(), intervals);
    result.times.merge = MPI_Wtime() - t1;
    return result;
}

} // namespace rankscope::mpi
