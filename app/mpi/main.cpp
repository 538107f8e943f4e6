// rankscope-mpi: Rankscope's analysis of one OTF2 trace in parallel, under mpirun, for traces
// too large for one workstation. `analyse` prints the results the desktop commands print.

#include "app/mpi/parallelanalysis.h"
#include "app/mpi/parallelsummary.h"
#include "app/mpi/parallelwaits.h"
#include "app/report/analysisjson.h"
#include "importers/rsum/resultsummary.h"
#include "model/trace/traceerror.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <mpi.h>
#include <new>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace rankscope;

namespace {

constexpr int kOk = 0;
constexpr int kBadInput = 1;
constexpr int kBadUsage = 2;

/// Peak resident memory of this process, in bytes.
double peakRssBytes()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) * 1024.0; // Linux reports KiB
}

/// Wall-clock seconds of the wait-state and root-cause replays on one process.
struct ReplayTimes
{
    double waits = 0;     ///< exchanging partner facts, scanning, totals to rank 0
    double rootCause = 0; ///< hotspot intervals, exchanging them, costs to rank 0
    double summary = 0;   ///< pyramids, gathering them, writing the .rsum (-o)
};

/// Prints every process's blocks, phase times and peak memory (rank 0, to stderr).
void printTimings(const mpi::ParallelResult& r, const ReplayTimes& replay, MPI_Comm comm)
{
    int me = 0, size = 1;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &size);
    constexpr int kFields = 11;
    const double mine[kFields] = {double(r.firstRank), double(r.endRank), double(r.events),
                                  r.times.read,        r.times.analysis,  r.times.communication,
                                  r.times.merge,       replay.waits,      replay.rootCause,
                                  replay.summary,      peakRssBytes()};
    std::vector<double> all(me == 0 ? size_t(size) * kFields : 0);
    MPI_Gather(mine, kFields, MPI_DOUBLE, all.data(), kFields, MPI_DOUBLE, 0, comm);
    if (me != 0) return;
    std::fprintf(stderr, "%7s %13s %12s %9s %9s %9s %9s %9s %11s %9s %11s\n", "process", "ranks",
                 "events", "read s", "analyse s", "comm s", "merge s", "waits s", "rootcause s",
                 "rsum s", "peak RSS MB");
    for (int p = 0; p < size; ++p) {
        const double* v = all.data() + size_t(p) * kFields;
        const std::string ranks =
            std::to_string(uint64_t(v[0])) + ".." + std::to_string(uint64_t(v[1]));
        std::fprintf(stderr, "%7d %13s %12.0f %9.3f %9.3f %9.3f %9.3f %9.3f %11.3f %9.3f %11.1f\n",
                     p, ranks.c_str(), v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10] / 1e6);
    }
}

void printText(const mpi::ParallelResult& r, const WaitStateAnalysis& waits,
               const RootCauseReport& causes)
{
    const Trace& trace = r.trace;
    std::printf("%zu ranks\n", trace.rankCount());
    std::printf("%-40s %12s %14s %14s\n", "region (top 10 by exclusive time)", "calls",
                "inclusive ns", "exclusive ns");
    const std::vector<RegionId> order = regionsByExclusiveTime(trace, r.profile);
    for (size_t i = 0; i < order.size() && i < 10; ++i) {
        const RegionSummary& s = r.profile.regions[order[i].value];
        std::printf("%-40s %12llu %14lld %14lld\n", std::string(trace.regionName(order[i])).c_str(),
                    (unsigned long long)s.calls, (long long)s.inclusive, (long long)s.exclusive);
    }
    std::printf("%zu execution intervals; max over ranks of the delta-time sum S(r): %lld ns\n",
                r.intervals.intervals.size(), (long long)r.intervals.maxRankDeltaSum());
    std::printf("waiting: %lld ns (direct %lld, indirect %lld)\n", (long long)waits.totalNs,
                (long long)waits.directNs, (long long)waits.indirectNs);
    for (size_t p = 0; p < kWaitPatternCount; ++p)
        if (waits.byPattern[p] > 0)
            std::printf("  %-16s %14lld ns\n", std::string(waitPatternName(WaitPattern(p))).c_str(),
                        (long long)waits.byPattern[p]);
    std::printf("explained by hotspots: %lld ns\n", (long long)causes.explainedNs);
    for (size_t i = 0; i < causes.perFunction.size() && i < 5; ++i)
        std::printf("  balancing %s would remove up to %.1f%% of the waiting\n",
                    std::string(r.trace.regionName(causes.perFunction[i].function)).c_str(),
                    100.0 * causes.perFunction[i].shareOfWaiting);
}

struct AnalyseOptions
{
    std::string trace;
    std::string output; ///< the .rsum to write, if any
    bool json = false;
    bool timings = false;
    uint64_t eagerLimit = WaitStateOptions().eagerLimit;
    double hotspotThreshold = RootCauseOptions().hotspotThresholdPercent;
};

int runAnalyse(const AnalyseOptions& o)
{
    int me = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const mpi::ParallelResult r = mpi::analyseInParallel(o.trace, MPI_COMM_WORLD);

    ReplayTimes replay;
    double t0 = MPI_Wtime();
    const mpi::Part part{r.trace, r.blockStarts, me};
    WaitStateOptions waitOptions;
    waitOptions.eagerLimit = o.eagerLimit;
    const mpi::ParallelWaits waits =
        mpi::findWaitStatesInParallel(part, waitOptions, MPI_COMM_WORLD);
    double t1 = MPI_Wtime();
    replay.waits = t1 - t0;
    const RootCauseReport causes =
        mpi::findRootCausesInParallel(part, waits, r.profile, o.hotspotThreshold, MPI_COMM_WORLD);
    replay.rootCause = MPI_Wtime() - t1;
    if (!o.output.empty()) {
        t1 = MPI_Wtime();
        mpi::writeSummaryInParallel(o.output,
                                    std::filesystem::absolute(o.trace).lexically_normal().string(),
                                    r, waits, causes, MPI_COMM_WORLD);
        replay.summary = MPI_Wtime() - t1;
    }

    if (o.timings) printTimings(r, replay, MPI_COMM_WORLD);
    if (me != 0) return kOk;
    if (o.json) {
        nlohmann::ordered_json j;
        j["profile"] = profileJson(r.trace, r.profile);
        j["intervals"] = intervalsJson(r.trace.rankCount(), r.intervals);
        j["waitstates"] = waitStatesJson(waits.merged);
        j["rootcause"] = rootCauseJson(r.trace, waits.merged.callSites, causes);
        std::cout << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
                  << '\n';
    } else {
        printText(r, waits.merged, causes);
    }
    std::cout.flush();
    return std::ferror(stdout) ? kBadInput : kOk;
}

} // namespace

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int me = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);

    CLI::App app{"Rankscope's trace analysis in parallel with MPI: run under mpirun.\n"
                 "Exit codes: 0 success, 1 bad input, 2 bad usage."};
    app.set_version_flag("--version", RANKSCOPE_VERSION);
    app.require_subcommand(1);
    AnalyseOptions options;
    CLI::App* analyse = app.add_subcommand(
        "analyse", "Profile, execution intervals, wait states and their root causes of an OTF2 "
                   "trace, each process reading a block of its ranks");
    analyse->add_option("TRACE", options.trace, "The OTF2 anchor file (traces.otf2) or its folder")
        ->required();
    analyse->add_flag("--json", options.json,
                      "Print JSON: the keys of `rankscope-cli profile --json`, `intervals "
                      "--json`, `waitstates --json` and `rootcause --json`, under \"profile\", "
                      "\"intervals\", \"waitstates\" and \"rootcause\"");
    analyse
        ->add_option("--eager-limit", options.eagerLimit,
                     "Messages above BYTES use rendezvous: their send waits for the receiver")
        ->capture_default_str();
    analyse
        ->add_option("--hotspot-threshold", options.hotspotThreshold,
                     "A function is a hotspot when its exclusive time is at least PCT % of the "
                     "total (0 < PCT <= 100)")
        ->check(CLI::Range(1e-9, 100.0))
        ->capture_default_str();
    analyse
        ->add_option("-o,--output", options.output,
                     "Also write the result summary RESULT.rsum (profile, intervals, wait states, "
                     "root causes, timeline pyramids), which the GUI opens")
        ->check([](const std::string& p) {
            return isResultSummaryPath(p) ? std::string() : "must end in .rsum, got " + p;
        });
    analyse->add_flag("--timings", options.timings,
                      "Print each process's ranks, events, phase times (read, analyse, "
                      "communicate, merge) and peak memory to standard error");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // Every process parses the same arguments; one of them speaks.
        int code = kOk;
        if (me == 0)
            code = app.exit(e) == 0 ? kOk : kBadUsage;
        else
            code = e.get_exit_code() == 0 ? kOk : kBadUsage;
        MPI_Finalize();
        return code;
    }

    int code = kOk;
    try {
        code = runAnalyse(options);
    } catch (const std::exception& e) {
        // The other processes may wait in a collective (opening the event files, the gather):
        // only an abort ends them.
        const bool memory = dynamic_cast<const std::bad_alloc*>(&e) != nullptr;
        std::fprintf(stderr, "rankscope-mpi: error (process %d): %s\n", me,
                     memory ? "out of memory" : e.what());
        std::fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, kBadInput);
        return kBadInput;
    }
    MPI_Finalize();
    return code;
}
