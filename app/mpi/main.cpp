// rankscope-mpi: Rankscope's analysis of one OTF2 trace in parallel, under mpirun, for traces
// too large for one workstation. `analyse` prints the results the desktop commands print.

#include "app/mpi/parallelanalysis.h"
#include "app/report/analysisjson.h"
#include "model/trace/traceerror.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
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

/// Prints every process's blocks, phase times and peak memory (rank 0, to stderr).
void printTimings(const mpi::ParallelResult& r, MPI_Comm comm)
{
    int me = 0, size = 1;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &size);
    const double mine[8] = {double(r.firstRank), double(r.endRank), double(r.events),
                            r.times.read,        r.times.analysis,  r.times.communication,
                            r.times.merge,       peakRssBytes()};
    std::vector<double> all(me == 0 ? size_t(size) * 8 : 0);
    MPI_Gather(mine, 8, MPI_DOUBLE, all.data(), 8, MPI_DOUBLE, 0, comm);
    if (me != 0) return;
    std::fprintf(stderr, "%7s %13s %12s %9s %9s %9s %9s %11s\n", "process", "ranks", "events",
                 "read s", "analyse s", "comm s", "merge s", "peak RSS MB");
    for (int p = 0; p < size; ++p) {
        const double* v = all.data() + size_t(p) * 8;
        const std::string ranks =
            std::to_string(uint64_t(v[0])) + ".." + std::to_string(uint64_t(v[1]));
        std::fprintf(stderr, "%7d %13s %12.0f %9.3f %9.3f %9.3f %9.3f %11.1f\n", p, ranks.c_str(),
                     v[2], v[3], v[4], v[5], v[6], v[7] / 1e6);
    }
}

void printText(const mpi::ParallelResult& r)
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
}

int runAnalyse(const std::string& trace, bool json, bool timings)
{
    int me = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const mpi::ParallelResult r = mpi::analyseInParallel(trace, MPI_COMM_WORLD);
    if (timings) printTimings(r, MPI_COMM_WORLD);
    if (me != 0) return kOk;
    if (json) {
        nlohmann::ordered_json j;
        j["profile"] = profileJson(r.trace, r.profile);
        j["intervals"] = intervalsJson(r.trace.rankCount(), r.intervals);
        std::cout << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
                  << '\n';
    } else {
        printText(r);
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
    std::string trace;
    bool json = false;
    bool timings = false;
    CLI::App* analyse = app.add_subcommand(
        "analyse", "Profile and execution intervals of an OTF2 trace, each process reading a "
                   "block of its ranks");
    analyse->add_option("TRACE", trace, "The OTF2 anchor file (traces.otf2) or its folder")
        ->required();
    analyse->add_flag("--json", json,
                      "Print JSON: the keys of `rankscope-cli profile --json` and "
                      "`intervals --json`, under \"profile\" and \"intervals\"");
    analyse->add_flag("--timings", timings,
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
        code = runAnalyse(trace, json, timings);
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
