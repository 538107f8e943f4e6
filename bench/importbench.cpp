// bench/import: import rate, resident bytes per event and the peak resident bytes per event
// during the import on a >= 25M-event, 256-rank trace, with the rate of a callback-only OTF2
// reader (the decoding floor) measured in the same run; then the same trace exported as Paje
// (written once beside it, trace.paje) and its import rate.
//
// Usage: rankscope-bench-import [--trace DIR] [--ranks N] [--min-events E] [--repeat K]
// The trace is generated (stencil2d) into DIR on first use and reused afterwards.

#include "benchsupport.h"
#include "importers/otf2/otf2reader.h"
#include "importers/paje/pajeexport.h"
#include "importers/paje/pajereader.h"
#include "otf2floorreader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <malloc.h> // malloc_trim: freed heap goes back to the OS before a baseline is taken
#include <string>
#include <unistd.h> // sysconf, for the page size
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
        uint64_t imported = 0;
        for (int k = 0; k < repeat; ++k) {
            Otf2ReadOptions opt;
            opt.threads = 1;
            const size_t peakBefore = peakBaseline();
            rssBefore = residentBytes();
            const auto t0 = Clock::now();
            Trace t = readOtf2(anchor, opt);
            importTimes.push_back(seconds(t0, Clock::now()));
            rssAfter = residentBytes();
            peakGrowth = std::max(peakGrowth, peakResidentBytes() - peakBefore);
            eventBytes = t.eventMemoryBytes();
            allBytes = t.memoryBytes();
            imported = t.eventCount();
        }
        const unsigned threads = cores();
        for (int k = 0; k < repeat && threads > 1; ++k) {
            Otf2ReadOptions opt;
            opt.threads = threads;
            const size_t peakBefore = peakBaseline();
            const auto t0 = Clock::now();
            Trace t = readOtf2(anchor, opt);
            parallelTimes.push_back(seconds(t0, Clock::now()));
            parallelPeakGrowth = std::max(parallelPeakGrowth, peakResidentBytes() - peakBefore);
        }

        const double floorRate = double(events) / median(floorTimes);
        const double importRate = double(imported) / median(importTimes);
        std::printf("\ntrace: %s (%llu events, %u ranks)\n", anchor.c_str(),
                    (unsigned long long)imported, ranks);
        std::printf(
            "decoding floor (callback-only OTF2 reader): %.2f s median of %d  -> %.2f M events/s\n",
            median(floorTimes), repeat, floorRate / 1e6);
        std::printf("import, 1 thread:                           %.2f s median of %d  -> %.2f M "
                    "events/s  (%.2fx the floor)\n",
                    median(importTimes), repeat, importRate / 1e6, importRate / floorRate);
        if (!parallelTimes.empty()) {
            const double parRate = double(imported) / median(parallelTimes);
            std::printf("import, %u threads:                          %.2f s median of %d  -> %.2f "
                        "M events/s  (%.2fx the floor)\n",
                        threads, median(parallelTimes), repeat, parRate / 1e6, parRate / floorRate);
        }
        std::printf("resident bytes per event (event columns + derived tables): %.2f\n",
                    double(eventBytes) / double(imported));
        std::printf("resident bytes per event (whole trace incl. definitions):  %.2f\n",
                    double(allBytes) / double(imported));
        std::printf("process RSS growth during the last import per event:       %.2f\n",
                    (double(rssAfter) - double(rssBefore)) / double(imported));
        std::printf(
            "peak resident bytes per event during the import, 1 thread:   %.2f (target <= 16)\n",
            double(peakGrowth) / double(imported));
        if (!parallelTimes.empty())
            std::printf("peak resident bytes per event during the import, %u threads:  %.2f\n",
                        threads, double(parallelPeakGrowth) / double(imported));
        if (events != imported)
            std::printf("WARNING: floor saw %llu events, import %llu\n", (unsigned long long)events,
                        (unsigned long long)imported);

        // Paje: the same trace as Rankscope's Paje export, read back.
        const std::string paje = dir + "/trace.paje";
        if (!std::filesystem::exists(paje)) writePajeTraceFile(readOtf2(anchor), paje);
        std::vector<double> pajeTimes;
        uint64_t pajeEvents = 0;
        for (int k = 0; k < repeat; ++k) {
            const auto t0 = Clock::now();
            const Trace t = readPaje(paje, PajeReadOptions{{}, threads});
            pajeTimes.push_back(seconds(t0, Clock::now()));
            pajeEvents = t.eventCount();
        }
        std::printf("Paje import (%s, %.0f MiB, %u threads matching): %.2f s median of %d -> %.2f "
                    "M events/s (target >= 10)\n",
                    paje.c_str(), double(std::filesystem::file_size(paje)) / 1048576.0, threads,
                    median(pajeTimes), repeat, double(pajeEvents) / median(pajeTimes) / 1e6);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench/import: %s\n", e.what());
        return 1;
    }
    return 0;
}
