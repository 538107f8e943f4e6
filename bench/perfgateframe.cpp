// The performance gate's GUI case (perfgate.h): timeline frames, zoomed out and at 1 % of the
// run, against a reference paint of the same image size.

#include "benchsupport.h"
#include "importers/otf2/otf2reader.h"
#include "model/profile/timelinesummary.h"
#include "perfgate.h"
#include "views/timeline/timelineindex.h"
#include "views/timeline/timelineview.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <cstdio>
#include <memory>

namespace rankscope::bench {

namespace {

constexpr int kWidth = 1600, kHeight = 1000;

/// Seconds of a fixed paint: 1000 rows of 200 coloured spans and 2000 lines, what a dense
/// timeline frame draws, into an image of the view's size.
double referencePaintSeconds(QImage& image)
{
    static const QColor colors[8] = {Qt::red,  Qt::green,   Qt::blue,      Qt::cyan,
                                     Qt::gray, Qt::magenta, Qt::darkGreen, Qt::darkBlue};
    const auto t0 = Clock::now();
    QPainter p(&image);
    p.fillRect(image.rect(), Qt::white);
    for (int row = 0; row < kHeight; ++row)
        for (int s = 0; s < 200; ++s)
            p.fillRect(s * 8, row, 7, 1, colors[(row + s) % 8]);
    p.setPen(Qt::black);
    for (int l = 0; l < 2000; ++l)
        p.drawLine((l * 37) % kWidth, (l * 11) % kHeight, (l * 53) % kWidth,
                   (l * 29 + 400) % kHeight);
    p.end();
    return seconds(t0, Clock::now());
}

} // namespace

std::vector<GateRatio> measureFrameRatios(const GateOptions& o)
{
    std::printf("perf-gate: timeline frames against the reference paint ...\n");
    std::fflush(stdout);
    const std::string anchor = ensureStencilTrace(o.data + "/gate-stencil2d-64", 64, 4'000'000);
    Otf2ReadOptions opt;
    opt.threads = cores();
    auto trace = std::make_shared<const Trace>(readOtf2(anchor, opt));
    auto summary = std::make_shared<const TimelineSummary>(TimelineSummary::build(*trace));
    const auto index = TimelineIndex::build(*trace);

    TimelineView view;
    view.resize(kWidth, kHeight);
    view.show();
    QApplication::processEvents();
    view.setTrace(trace, summary, index);
    QApplication::processEvents();

    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    QImage reference(view.size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<GateRatio> out;
    for (const double fraction : {1.0, 0.01}) {
        view.fitToWindow();
        if (fraction < 1) {
            const double begin = view.mapping().begin(), end = view.mapping().end();
            const double middle = 0.5 * (begin + end), span = end - begin;
            view.setVisibleRange(middle - 0.5 * span * fraction, middle + 0.5 * span * fraction);
        }
        QApplication::processEvents();
        view.render(&image); // warm-up (layout, fonts)
        referencePaintSeconds(reference);
        GateRatio r;
        r.name = fraction == 1.0 ? "frame_fit_over_paint" : "frame_zoom_over_paint";
        char what[160];
        std::snprintf(what, sizeof what,
                      "timeline frame %dx%d, %s, %llu events / the reference paint", kWidth,
                      kHeight, fraction == 1.0 ? "whole run" : "1 % of the run",
                      (unsigned long long)trace->eventCount());
        r.what = what;
        for (int k = 0; k < std::max(1, o.repeat); ++k) {
            // Several frames per sample: one frame is a few milliseconds.
            double ref = 0, frame = 0;
            for (int f = 0; f < 5; ++f) {
                ref += referencePaintSeconds(reference);
                const auto t0 = Clock::now();
                view.render(&image);
                frame += seconds(t0, Clock::now());
            }
            r.samples.push_back(frame > 0 ? ref / frame : 0);
        }
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace rankscope::bench
