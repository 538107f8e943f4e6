// bench/summary: the result summary (.rsum) of the 25M-event, 256-rank stencil2d trace: the time
// to analyse and write it, its size, and the time the GUI takes to open it (the loader's path,
// TraceLoader::loadSummaryNow, then the document with its timeline, profile and wait-state
// tables and one painted frame). Target: open in under 1 s.
//
// Usage: rankscope-bench-summary [--data DIR] [--repeat N]
// The trace is generated into DIR (default build/bench-data) on first use and reused.

#include "app/tracedocument.h"
#include "app/traceloader.h"
#include "benchsupport.h"
#include "importers/otf2/otf2reader.h"
#include "importers/rsum/resultsummary.h"

#include <QApplication>
#include <QImage>
#include <cstdio>
#include <filesystem>
#include <thread>

using namespace rankscope;
using namespace rankscope::bench;

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::string data = "build/bench-data";
    int repeat = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--data")
            data = argv[i + 1];
        else if (a == "--repeat")
            repeat = std::max(1, std::atoi(argv[i + 1]));
    }
    const std::string anchor = ensureStencilTrace(data + "/stencil2d-256", 256, 25'000'000);
    const std::string file = data + "/stencil2d-256.rsum";

    Otf2ReadOptions read;
    read.threads = cores();
    auto t0 = Clock::now();
    auto trace = std::make_shared<const Trace>(readOtf2(anchor, read));
    auto t1 = Clock::now();
    const ResultSummary s = summarizeWholeTrace(trace, anchor, {}, 1.0, cores());
    auto t2 = Clock::now();
    writeResultSummary(file, s);
    auto t3 = Clock::now();
    const uint64_t events = trace->eventCount();
    trace.reset();
    std::printf("trace: %llu events, %zu ranks\n", (unsigned long long)events, s.ranks.size());
    std::printf("write: read %.2f s, analyse %.2f s, write %.3f s; %.2f MB (%.2f bytes/event)\n",
                seconds(t0, t1), seconds(t1, t2), seconds(t2, t3),
                double(std::filesystem::file_size(file)) / 1e6,
                double(std::filesystem::file_size(file)) / double(events));

    std::vector<double> loads, shows;
    for (int k = 0; k < repeat; ++k) {
        const auto a = Clock::now();
        LoadOutcome out = TraceLoader::loadSummaryNow(QString::fromStdString(file), {});
        const auto b = Clock::now();
        if (!out.error.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(out.error));
            return 1;
        }
        // The document: timeline, profile, wait-state and root-cause tables; one frame painted.
        TraceDocument doc(out.loaded);
        doc.resize(1920, 1000);
        const QImage frame = doc.grab().toImage();
        const auto c = Clock::now();
        if (frame.isNull()) return 1;
        loads.push_back(seconds(a, b));
        shows.push_back(seconds(a, c));
    }
    std::printf("open (median of %d): load %.3f s, shown (document built, one 1920x1000 frame) "
                "%.3f s [%.3f-%.3f]; peak RSS %.0f MB\n",
                repeat, median(loads), median(shows), *std::min_element(shows.begin(), shows.end()),
                *std::max_element(shows.begin(), shows.end()), double(peakResidentBytes()) / 1e6);
    return 0;
}
