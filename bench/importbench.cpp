// bench/import: import rate, resident bytes per event and the peak resident bytes per event
// during the import on a >= 25M-event, 256-rank trace, with the rate of a callback-only OTF2
// reader (the decoding floor) measured in the same run; then the same trace exported to each
// text format Rankscope reads (written once beside it: trace.paje, trace.prv with its .pcf and
// .row, trace.ti with its rank files) and the import rate of each on one thread, with the
// spread of the runs. The TI trace holds the trace's action program (computes are the gaps
// between MPI calls), so its import makes fewer events than the others.
//
// Usage: rankscope-bench-import [--trace DIR] [--ranks N] [--min-events E] [--repeat K]
//                               [--formats otf2,paje,prv,ti]
// The trace is generated (stencil2d) into DIR on first use and reused afterwards.

#include "benchsupport.h"
#include "importers/otf2/otf2reader.h"
#include "importers/paje/pajeexport.h"
#include "importers/paje/pajereader.h"
#include "importers/paraver/paraverexport.h"
#include "importers/paraver/paraverreader.h"
#include "importers/simgrid/simgridexport.h"
#include "importers/simgrid/tireader.h"
#include "otf2floorreader.h"
#include "whatif/netsim/actionbuilder.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <malloc.h> // malloc_trim: freed heap goes back to the OS before a baseline is taken
#include <string>
#include <sys/resource.h> // getrusage, for the minor page faults
#include <time.h>         // clock_gettime, for the CPU time
#include <unistd.h>       // sysconf, for the page size
#include <vector>

using namespace rankscope;
using namespace rankscope::bench;

namespace {

/// Resident set size of this process in bytes (Linux).
size_t residentBytes()
{
    std::ifstream statm("/proc/self/statm");
    size_t pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * size_t(sysconf(_SC_PAGESIZE));
}

/// CPU time this process has used (all its threads), in seconds: on a machine shared with
/// other work, the wall clock also counts the time the import waited for a core.
double cpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

/// Minor page faults of this process so far: each is a first touch of a fresh page, and their
/// cost varies twenty-fold between machines (about 2-6 us on the 2-core development virtual
/// machine, more on others), so the count says what an import's wall clock there cannot.
long minorFaults()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

/// Resets the peak after returning freed heap to the OS, so that the peak growth measured from
/// here is what the next piece of work needs, not what a previous one left cached in malloc.
size_t peakBaseline()
{
    malloc_trim(0);
    resetPeak();
    return peakResidentBytes();
}

} // namespace

int main(int argc, char** argv)
{
    BenchArgs args;
    if (!parseBenchArgs(argc, argv, args)) return 2;
    const std::string& dir = args.dir;
    const uint32_t ranks = args.ranks;
    const uint64_t minEvents = args.minEvents;
    const int repeat = args.repeat;
    const std::string anchor = dir + "/traces.otf2";

    try {
        ensureStencilTrace(dir, ranks, minEvents);

        const unsigned threads = cores();
        if (hasFormat(args.formats, "otf2")) {
            std::vector<double> floorTimes, importTimes, parallelTimes;
            uint64_t events = 0;
            for (int k = 0; k < repeat; ++k) {
                const auto t0 = Clock::now();
                const FloorResult f = readOtf2Floor(anchor);
                floorTimes.push_back(seconds(t0, Clock::now()));
                events = f.events;
            }
            size_t rssBefore = 0, rssAfter = 0, eventBytes = 0, allBytes = 0;
            size_t peakGrowth = 0, parallelPeakGrowth = 0;
            long faults = 0, parallelFaults = 0;
            uint64_t imported = 0;
            for (int k = 0; k < repeat; ++k) {
                Otf2ReadOptions opt;
                opt.threads = 1;
                const size_t peakBefore = peakBaseline();
                rssBefore = residentBytes();
                const long faultsBefore = minorFaults();
                const auto t0 = Clock::now();
                Trace t = readOtf2(anchor, opt);
                importTimes.push_back(seconds(t0, Clock::now()));
                faults = minorFaults() - faultsBefore;
                rssAfter = residentBytes();
                peakGrowth = std::max(peakGrowth, peakResidentBytes() - peakBefore);
                eventBytes = t.eventMemoryBytes();
                allBytes = t.memoryBytes();
                imported = t.eventCount();
            }
            for (int k = 0; k < repeat && threads > 1; ++k) {
                Otf2ReadOptions opt;
                opt.threads = threads;
                const size_t peakBefore = peakBaseline();
                const long faultsBefore = minorFaults();
                const auto t0 = Clock::now();
                Trace t = readOtf2(anchor, opt);
                parallelTimes.push_back(seconds(t0, Clock::now()));
                parallelFaults = minorFaults() - faultsBefore;
                parallelPeakGrowth = std::max(parallelPeakGrowth, peakResidentBytes() - peakBefore);
            }

            const double floorRate = double(events) / median(floorTimes);
            const double importRate = double(imported) / median(importTimes);
            std::printf("\ntrace: %s (%llu events, %u ranks)\n", anchor.c_str(),
                        (unsigned long long)imported, ranks);
            std::printf("decoding floor (callback-only OTF2 reader): %.2f s median of %d  -> %.2f "
                        "M events/s\n",
                        median(floorTimes), repeat, floorRate / 1e6);
            std::printf(
                "import, 1 thread:                           %.2f s median of %d  -> %.2f M "
                "events/s  (%.2fx the floor)\n",
                median(importTimes), repeat, importRate / 1e6, importRate / floorRate);
            if (!parallelTimes.empty()) {
                const double parRate = double(imported) / median(parallelTimes);
                std::printf(
                    "import, %u threads:                          %.2f s median of %d  -> %.2f "
                    "M events/s  (%.2fx the floor)\n",
                    threads, median(parallelTimes), repeat, parRate / 1e6, parRate / floorRate);
            }
            std::printf("resident bytes per event (event columns + derived tables): %.2f\n",
                        double(eventBytes) / double(imported));
            std::printf("resident bytes per event (whole trace incl. definitions):  %.2f\n",
                        double(allBytes) / double(imported));
            std::printf("process RSS growth during the last import per event:       %.2f\n",
                        (double(rssAfter) - double(rssBefore)) / double(imported));
            std::printf("peak resident bytes per event during the import, 1 thread:   %.2f (target "
                        "<= 16)\n",
                        double(peakGrowth) / double(imported));
            if (!parallelTimes.empty())
                std::printf("peak resident bytes per event during the import, %u threads:  %.2f\n",
                            threads, double(parallelPeakGrowth) / double(imported));
            std::printf("minor page faults during the last import, 1 thread: %ld", faults);
            if (!parallelTimes.empty()) std::printf("; %u threads: %ld", threads, parallelFaults);
            std::printf("\n");
            if (events != imported)
                std::printf("WARNING: floor saw %llu events, import %llu\n",
                            (unsigned long long)events, (unsigned long long)imported);
        }

        // The text formats: the same trace as Rankscope's Paje and Paraver exports (what
        // `rankscope-cli convert` writes; written once beside it), each read on one thread and
        // on every core (the reading pipelined with the parsing, the locations built and the
        // messages matched concurrently).
        const auto textFormat = [&](const char* label, const std::string& file, auto write,
                                    auto read, bool parallel) {
            if (!std::filesystem::exists(file)) {
                const auto t0 = Clock::now();
                write(readOtf2(anchor), file);
                std::printf("wrote %s in %.1f s\n", file.c_str(), seconds(t0, Clock::now()));
            }
            std::vector<unsigned> counts{1};
            if (parallel && threads > 1) counts.push_back(threads);
            for (const unsigned used : counts) {
                std::vector<double> times, cpuTimes;
                uint64_t n = 0;
                size_t peak = 0;
                for (int k = 0; k < repeat; ++k) {
                    const size_t peakBefore = peakBaseline();
                    const double c0 = cpuSeconds();
                    const auto t0 = Clock::now();
                    const Trace t = read(file, used);
                    times.push_back(seconds(t0, Clock::now()));
                    cpuTimes.push_back(cpuSeconds() - c0);
                    peak = std::max(peak, peakResidentBytes() - peakBefore);
                    n = t.eventCount();
                }
                const auto [lo, hi] = std::minmax_element(times.begin(), times.end());
                std::printf("%s import, %u thread%s (%s, %.0f MiB, %llu events): %.2f s median "
                            "of %d (%.2f-%.2f) -> %.2f M events/s (%.2f-%.2f; target >= 10); "
                            "peak %.1f bytes per event\n",
                            label, used, used == 1 ? "" : "s", file.c_str(),
                            double(std::filesystem::file_size(file)) / 1048576.0,
                            (unsigned long long)n, median(times), repeat, *lo, *hi,
                            double(n) / median(times) / 1e6, double(n) / *hi / 1e6,
                            double(n) / *lo / 1e6, double(peak) / double(n));
                const auto [cpuLo, cpuHi] = std::minmax_element(cpuTimes.begin(), cpuTimes.end());
                std::printf("  CPU time of the process (all its threads): %.2f s median "
                            "(%.2f-%.2f) -> %.2f M events/s per CPU second\n",
                            median(cpuTimes), *cpuLo, *cpuHi, double(n) / median(cpuTimes) / 1e6);
                std::fflush(stdout);
            }
        };
        if (hasFormat(args.formats, "paje"))
            textFormat(
                "Paje", dir + "/trace.paje",
                [](const Trace& t, const std::string& f) { writePajeTraceFile(t, f); },
                [](const std::string& f, unsigned used) {
                    return readPaje(f, PajeReadOptions{{}, used});
                },
                true);
        if (hasFormat(args.formats, "prv"))
            textFormat(
                "Paraver", dir + "/trace.prv",
                [](const Trace& t, const std::string& f) { writeParaverTrace(t, f); },
                [](const std::string& f, unsigned used) {
                    ParaverReadOptions o;
                    o.threads = used;
                    return readParaver(f, o);
                },
                true);
        if (hasFormat(args.formats, "ti"))
            textFormat(
                "SimGrid TI", dir + "/trace.ti",
                [](const Trace& t, const std::string& f) {
                    writeTiTrace(netsim::buildActions(t, 1.0), f);
                },
                [](const std::string& f, unsigned) { return readTi(f); }, false);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench/import: %s\n", e.what());
        return 1;
    }
    return 0;
}
