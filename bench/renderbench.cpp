// bench/render: TimelineSummary build time and TimelineView frame times on 256-rank stencil2d
// traces of >= 2.5M and >= 25M events, and the worst GUI-thread stall while a trace is imported
// and summarised in the background. Targets: <= 16 ms per frame at every zoom whatever the
// event count; <= 50 ms worst timer lateness on the GUI thread.
//
// Usage: rankscope-bench-render [--data DIR] [--ranks N] [--frames F] [--no-stall]
// Traces are generated into DIR (default build/bench-data) on first use and reused.

#include "benchsupport.h"
#include "importers/otf2/otf2reader.h"
#include "importers/otf2/otf2writer.h"
#include "model/generator/tracegenerator.h"
#include "model/profile/timelinesummary.h"
#include "model/waits/waitstates.h"
#include "model/waits/waitsummary.h"
#include "views/timeline/timelineindex.h"
#include "views/timeline/timelineview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFutureWatcher>
#include <QImage>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace rankscope;
using namespace rankscope::bench;

namespace {

struct TraceFigures
{
    std::string name;
    uint64_t events = 0;
    double importSeconds = 0;
    double build1 = 0;
    double buildN = 0;
    double summaryMiB = 0;
    double indexSeconds =
        0;                  ///< TimelineIndex::build (in the app: the load job, off the GUI thread)
    double setTraceMs = 0;  ///< on the GUI thread, with the prebuilt index
    double sampleMs = 0;    // TimelineSummary::sample for every row and pixel, fully zoomed out
    double frameMs[3] = {}; // fit, 1 %, 0.01 %
    double waitFrameMs[3] = {}; // the same with the wait-state overlay
    double waitSummarySeconds = 0;
    double waitSummaryMiB = 0;
    size_t waits = 0;
    double nsPerPixel[3] = {};
};

/// Median time of `frames` renders of `view` into an image of its size.
double frameTime(rankscope::TimelineView& view, int frames)
{
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    view.render(&image); // warm-up (layout, fonts)
    std::vector<double> times;
    for (int i = 0; i < frames; ++i) {
        const auto t0 = Clock::now();
        view.render(&image);
        times.push_back(seconds(t0, Clock::now()) * 1e3);
    }
    return median(times);
}

TraceFigures measureTrace(const std::string& name, const std::string& anchor, int frames)
{
    TraceFigures f;
    f.name = name;
    Otf2ReadOptions opt;
    opt.threads = cores();
    auto t0 = Clock::now();
    auto trace = std::make_shared<const Trace>(readOtf2(anchor, opt));
    f.importSeconds = seconds(t0, Clock::now());
    f.events = trace->eventCount();

    std::vector<double> one, many;
    std::shared_ptr<const TimelineSummary> summary;
    for (int k = 0; k < 3; ++k) {
        t0 = Clock::now();
        TimelineSummary s = TimelineSummary::build(*trace);
        one.push_back(seconds(t0, Clock::now()));
        t0 = Clock::now();
        s = TimelineSummary::build(*trace, {}, cores());
        many.push_back(seconds(t0, Clock::now()));
        summary = std::make_shared<const TimelineSummary>(std::move(s));
    }
    f.build1 = median(one);
    f.buildN = median(many);
    f.summaryMiB = double(summary->memoryBytes()) / (1 << 20);

    {
        // The summary side of a zoomed-out frame: one sample() per row of 1600 pixels.
        std::vector<RegionId> row(1600);
        const double nsPerPixel = double(trace->duration()) / 1600;
        std::vector<double> times;
        for (int i = 0; i < frames; ++i) {
            t0 = Clock::now();
            for (int r = 0; r < 1000; ++r)
                summary->sample(RankId(uint32_t(r) % uint32_t(trace->rankCount())),
                                double(trace->beginTime()), nsPerPixel, row);
            times.push_back(seconds(t0, Clock::now()) * 1e3);
        }
        f.sampleMs = median(times);
    }

    rankscope::TimelineView view;
    view.resize(1600, 1000);
    view.show();
    QApplication::processEvents();
    t0 = Clock::now();
    const auto index = TimelineIndex::build(*trace);
    f.indexSeconds = seconds(t0, Clock::now());
    t0 = Clock::now();
    view.setTrace(trace, summary, index);
    f.setTraceMs = seconds(t0, Clock::now()) * 1e3;
    QApplication::processEvents();

    view.fitToWindow();
    const double begin = view.mapping().begin();
    const double end = view.mapping().end();
    const double middle = 0.5 * (begin + end);
    const double span = end - begin;
    const double fractions[3] = {1.0, 0.01, 0.0001};
    for (int z = 0; z < 3; ++z) {
        if (z == 0)
            view.fitToWindow();
        else
            view.setVisibleRange(middle - 0.5 * span * fractions[z],
                                 middle + 0.5 * span * fractions[z]);
        QApplication::processEvents();
        f.nsPerPixel[z] = view.mapping().nsPerPixel();
        f.frameMs[z] = frameTime(view, frames);
    }

    // The same zoom levels with the wait states drawn over the calls.
    auto waits = std::make_shared<const WaitStateAnalysis>(analyzeWaitStates(*trace));
    f.waits = waits->waits.size();
    t0 = Clock::now();
    auto waitSummary = std::make_shared<const WaitSummary>(
        WaitSummary::build(*waits, trace->rankCount(), trace->beginTime(), trace->endTime()));
    f.waitSummarySeconds = seconds(t0, Clock::now());
    f.waitSummaryMiB = double(waitSummary->memoryBytes()) / (1 << 20);
    view.setWaitStates(waits, waitSummary);
    for (int z = 0; z < 3; ++z) {
        if (z == 0)
            view.fitToWindow();
        else
            view.setVisibleRange(middle - 0.5 * span * fractions[z],
                                 middle + 0.5 * span * fractions[z]);
        QApplication::processEvents();
        f.waitFrameMs[z] = frameTime(view, frames);
    }
    return f;
}

/// Worst lateness of a 10 ms GUI-thread timer while `work` runs on QtConcurrent's pool.
template <class Work> double worstTimerLateness(Work work)
{
    constexpr int kIntervalMs = 10;
    QTimer timer;
    timer.setTimerType(Qt::PreciseTimer);
    timer.setInterval(kIntervalMs);
    QElapsedTimer since;
    double worst = 0;
    QObject::connect(&timer, &QTimer::timeout, [&] {
        worst = std::max(worst, double(since.nsecsElapsed()) / 1e6 - kIntervalMs);
        since.restart();
    });
    QEventLoop loop;
    QFutureWatcher<void> watcher;
    QObject::connect(&watcher, &QFutureWatcher<void>::finished, &loop, &QEventLoop::quit);
    since.start();
    timer.start();
    watcher.setFuture(QtConcurrent::run(work));
    loop.exec();
    timer.stop();
    watcher.future().waitForFinished(); // rethrows what the work threw
    return worst;
}

} // namespace

int main(int argc, char** argv)
{
    // The benchmark renders into images; it needs no display.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);

    std::string data = "build/bench-data";
    uint32_t ranks = 256;
    int frames = 30;
    bool stall = true;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--no-stall") {
            stall = false;
        } else if (i + 1 < argc && a == "--data") {
            data = argv[++i];
        } else if (i + 1 < argc && a == "--ranks") {
            ranks = uint32_t(std::stoul(argv[++i]));
        } else if (i + 1 < argc && a == "--frames") {
            frames = std::max(1, std::atoi(argv[++i]));
        } else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }

    try {
        const std::string rankTag = std::to_string(ranks);
        const std::string small =
            ensureStencilTrace(data + "/stencil2d-" + rankTag + "-2.5M", ranks, 2'500'000);
        const std::string large =
            ensureStencilTrace(data + "/stencil2d-" + rankTag, ranks, 25'000'000);

        std::vector<TraceFigures> figures;
        figures.push_back(measureTrace(">=2.5M", small, frames));
        figures.push_back(measureTrace(">=25M", large, frames));

        std::printf("\nTimelineSummary and TimelineView, %u ranks, %u cores, view 1600x1000\n",
                    ranks, cores());
        std::printf("%-7s %11s %9s %12s %12s %10s %9s %11s %12s\n", "trace", "events", "import s",
                    "build 1 thr", "build N thr", "summary", "index s", "setTrace", "sample 1000");
        for (const TraceFigures& f : figures)
            std::printf("%-7s %11llu %9.2f %10.3f s %10.3f s %7.1f MiB %9.3f %8.1f ms %9.2f ms\n",
                        f.name.c_str(), (unsigned long long)f.events, f.importSeconds, f.build1,
                        f.buildN, f.summaryMiB, f.indexSeconds, f.setTraceMs, f.sampleMs);
        std::printf("\nmedian frame time of %d renders (target <= 16 ms)\n", frames);
        std::printf("%-7s %22s %22s %22s\n", "trace", "fit (whole run)", "1% of the run",
                    "0.01% of the run");
        for (const TraceFigures& f : figures) {
            std::printf("%-7s", f.name.c_str());
            for (int z = 0; z < 3; ++z)
                std::printf(" %8.2f ms (%7.0f ns/px)", f.frameMs[z], f.nsPerPixel[z]);
            std::printf("\n");
        }

        std::printf("\nwith the wait-state overlay (summary built once after the analysis)\n");
        for (const TraceFigures& f : figures) {
            std::printf("%-7s", f.name.c_str());
            for (int z = 0; z < 3; ++z)
                std::printf(" %8.2f ms %13s", f.waitFrameMs[z], "");
            std::printf("\n        %zu waits, wait summary %.3f s, %.1f MiB\n", f.waits,
                        f.waitSummarySeconds, f.waitSummaryMiB);
        }

        if (stall) {
            const unsigned threads = cores();
            const double worst = worstTimerLateness([&large, threads] {
                Otf2ReadOptions opt;
                opt.threads = threads;
                const Trace t = readOtf2(large, opt);
                const TimelineSummary s = TimelineSummary::build(t, {}, threads);
                const auto idx = TimelineIndex::build(t); // all the app's load job does
            });
            std::printf(
                "\nGUI-thread stall during import + summary + index of the >=25M trace in the "
                "background (%u threads): worst 10 ms timer lateness %.1f ms "
                "(target <= 50 ms)\n",
                threads, worst);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench/render: %s\n", e.what());
        return 1;
    }
    return 0;
}
