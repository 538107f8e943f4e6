// The overview strip above the timeline: per column the share of ranks in MPI and computing,
// and clicking / dragging moves the timeline's window. Expected values from the hand-built run.
#include "model/profile/timelinesummary.h"
#include "testsupport/handtrace.h"
#include "views/timeline/overviewstrip.h"
#include "views/timeline/timelineview.h"

#include <QSignalSpy>
#include <QTest>

using namespace rankscope;
using rankscope::test::HandTrace;

namespace {

/// A trace on an 800 x 300 timeline with its 800 x 30 overview strip.
struct Shown
{
    explicit Shown(Trace t)
        : trace(std::make_shared<const Trace>(std::move(t))),
          summary(std::make_shared<const TimelineSummary>(TimelineSummary::build(*trace))),
          strip(&view)
    {
        view.resize(800, 300);
        view.setTrace(trace, summary);
        strip.resize(800, 30);
        strip.setTrace(trace, summary);
    }
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const TimelineSummary> summary;
    TimelineView view;
    OverviewStrip strip;
};

} // namespace

class TestOverviewStrip : public QObject
{
    Q_OBJECT

private slots:
    void sharesAndWindow()
    {
        // Rank 0: MPI_Recv over [0, 500), work over [500, 1000); rank 1: work over [0, 1000).
        HandTrace h;
        const LocationId r0 = h.addRank(), r1 = h.addRank();
        const RegionId work = h.user("work");
        const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
        h.call(r0, recv, 0, 500);
        h.call(r0, work, 500, 1000);
        h.call(r1, work, 0, 1000);
        Shown shown(h.finish());
        TimelineView& view = shown.view;
        OverviewStrip& strip = shown.strip;

        const QRect plot = view.plotArea();
        const auto& mpi = strip.mpiShare();
        const auto& compute = strip.computeShare();
        QCOMPARE(int(mpi.size()), plot.width());
        // Columns well inside the first half: one rank of two in MPI, one computing; in the
        // second half both compute.
        const size_t w = mpi.size();
        for (size_t x : {w / 10, w / 4, 2 * w / 5}) {
            QCOMPARE(mpi[x], 0.5f);
            QCOMPARE(compute[x], 0.5f);
        }
        for (size_t x : {3 * w / 5, 3 * w / 4, 9 * w / 10}) {
            QCOMPARE(mpi[x], 0.0f);
            QCOMPARE(compute[x], 1.0f);
        }

        // The window [0, 100) covers the first tenth of the strip.
        view.setVisibleRange(0, 100);
        auto [a, b] = strip.windowPixels();
        QCOMPARE(a, plot.left());
        QVERIFY(std::abs(b - (plot.left() + plot.width() / 10)) <= 1);

        // A click at 750 ns centres the window there, keeping its 100 ns span.
        const double nsPerPixel = 1000.0 / plot.width();
        const int x750 = plot.left() + int(std::lround(750 / nsPerPixel));
        QTest::mouseClick(&strip, Qt::LeftButton, {}, QPoint(x750, 15));
        QVERIFY(std::abs(view.mapping().begin() - 700) <= nsPerPixel);
        QVERIFY(std::abs(view.mapping().span() - 100) < 1e-6);

        // Grabbing the window and dragging it 100 ns to the right pans by 100 ns.
        const double before = view.mapping().begin();
        const int dx = int(std::lround(100 / nsPerPixel));
        QTest::mousePress(&strip, Qt::LeftButton, {}, QPoint(x750, 15));
        QTest::mouseMove(&strip, QPoint(x750 + dx, 15));
        QTest::mouseRelease(&strip, Qt::LeftButton, {}, QPoint(x750 + dx, 15));
        QVERIFY(std::abs(view.mapping().begin() - (before + 100)) <= nsPerPixel);
    }

    void marksShowBookmarks()
    {
        // One rank working over [0, 1000); bookmarks [200, 400), [900, 901) and the whole run.
        HandTrace h;
        const LocationId r0 = h.addRank();
        h.call(r0, h.user("work"), 0, 1000);
        Shown shown(h.finish());
        TimelineView& view = shown.view;
        OverviewStrip& strip = shown.strip;
        strip.setMarks({{"setup", 200, 400}, {"spike", 900, 901}, {"whole run", 0, 1000}});

        // x = left + t / 1000 * width, rounded; a 1 ns mark still gets 3 px.
        const QRect plot = view.plotArea();
        const auto px = [&](double t) {
            return plot.left() + int(std::lround(t / 1000.0 * plot.width()));
        };
        QCOMPARE(strip.markPixels(0), std::make_pair(px(200), px(400)));
        QCOMPARE(strip.markPixels(1), std::make_pair(px(900), px(900) + 2));
        QCOMPARE(strip.markAt(px(300)), 0);
        QCOMPARE(strip.markAt(px(901) + 1), 1);
        // Where marks overlap, the narrowest is the one under the pointer (drawn on top).
        QCOMPARE(strip.markAt(px(600)), 2);
        strip.setMarks({{"setup", 200, 400}, {"spike", 900, 901}});
        QCOMPARE(strip.markAt(px(600)), -1);

        // A click in the marks' lane on a mark says which; below the lane it centres as before.
        QSignalSpy activated(&strip, &OverviewStrip::markActivated);
        QTest::mouseClick(&strip, Qt::LeftButton, {}, QPoint(px(300), 4));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated[0][0].toInt(), 0);
        view.setVisibleRange(0, 100);
        QTest::mouseClick(&strip, Qt::LeftButton, {}, QPoint(px(300), 20));
        QCOMPARE(activated.count(), 1);
        QVERIFY(std::abs(view.mapping().begin() - 250) <= 1000.0 / plot.width());
    }
};

QTEST_MAIN(TestOverviewStrip)
#include "tst_overviewstrip.moc"
