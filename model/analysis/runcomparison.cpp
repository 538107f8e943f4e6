#include "model/analysis/runcomparison.h"

#include "model/analysis/runspan.h"
#include "model/deltas/deltascanner.h"
#include "model/trace/callsiteresolver.h"
#include "model/trace/mpilifecycle.h"
#include "model/trace/trace.h"

namespace rankscope {

std::optional<double> ComparisonRow::percent() const
{
    if (a == 0) return std::nullopt;
    return 100.0 * (b - a) / a;
}

RunFigures runFigures(const Trace& trace, const WaitStateAnalysis& waits)
{
    RunFigures f;
    const RunSpan span = runSpan(trace);
    f.runNs = span.duration();
    for (const RankSpan& r : span.ranks)
        f.mpiNs += r.mpiNs;
    const MpiLifecycle life = MpiLifecycle::of(trace);
    for (uint32_t r = 0; r < trace.rankCount(); ++r) {
        CallSiteTable sites;
        CallSiteResolver resolver(trace, sites);
        DeltaScanner scanner(trace, RankId(r), resolver, life);
        DeltaTime d;
        while (scanner.next(d))
            f.computeNs += d.delta();
    }
    f.waitNs = waits.totalNs;
    f.waitByPattern = waits.byPattern;
    return f;
}

std::vector<ComparisonRow> comparisonRows(const RunFigures& a, const RunFigures& b)
{
    std::vector<ComparisonRow> rows = {
        {"run", "Run time", double(a.runNs), double(b.runNs)},
        {"mpi", "MPI time (sum over ranks)", double(a.mpiNs), double(b.mpiNs)},
        {"computation", "Computation time (sum over ranks)", double(a.computeNs),
         double(b.computeNs)},
        {"wait", "Wait time (all patterns)", double(a.waitNs), double(b.waitNs)},
    };
    for (size_t k = 0; k < kWaitPatternCount; ++k) {
        const double x = double(a.waitByPattern[k]), y = double(b.waitByPattern[k]);
        if (x == 0 && y == 0) continue;
        rows.push_back({"wait_" + std::string(waitPatternKey(WaitPattern(k))),
                        "Wait: " + std::string(waitPatternName(WaitPattern(k))), x, y});
    }
    return rows;
}

} // namespace rankscope
