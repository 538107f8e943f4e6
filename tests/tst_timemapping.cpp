// TimeMapping: time <-> pixel, zoom around an anchor, pan and clamping, smallest span, fit, and
// the tick axis. Expected values are worked out in the comments from the rules in the header:
// the window stays inside the run plus 1% of its length on either side.

#include "views/timeline/timemapping.h"

#include <QTest>

using namespace rankscope;

class TestTimeMapping : public QObject
{
    Q_OBJECT

private:
    static TimeMapping make(double limitBegin, double limitEnd, int width, double b, double e)
    {
        TimeMapping m;
        m.setLimits(limitBegin, limitEnd);
        m.setWidth(width);
        m.setVisible(b, e);
        return m;
    }

private slots:
    void mapping_data()
    {
        QTest::addColumn<double>("begin");
        QTest::addColumn<double>("end");
        QTest::addColumn<int>("width");
        QTest::addColumn<double>("time");
        QTest::addColumn<double>("pixel");
        // 200 us on 1000 px: 200 ns per pixel.
        QTest::newRow("start") << 1e5 << 3e5 << 1000 << 1e5 << 0.0;
        QTest::newRow("middle") << 1e5 << 3e5 << 1000 << 2e5 << 500.0;
        QTest::newRow("end") << 1e5 << 3e5 << 1000 << 3e5 << 1000.0;
        QTest::newRow("quarter") << 1e5 << 3e5 << 1000 << 1.5e5 << 250.0;
        // 1 ms on 400 px: 2500 ns per pixel; 1 us before the window is -0.4 px.
        QTest::newRow("before window") << 0.0 << 1e6 << 400 << -1000.0 << -0.4;
    }
    void mapping()
    {
        QFETCH(double, begin);
        QFETCH(double, end);
        QFETCH(int, width);
        QFETCH(double, time);
        QFETCH(double, pixel);
        const TimeMapping m = make(0, 1e6, width, begin, end);
        QCOMPARE(m.begin(), begin);
        QCOMPARE(m.end(), end);
        QCOMPARE(m.toPixel(time), pixel);
        QCOMPARE(m.toTime(pixel), time);
    }

    void zoom_data()
    {
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("anchor");
        QTest::addColumn<double>("begin");
        QTest::addColumn<double>("end");
        // Window [400, 600] ms on 1000 px (200 us/px). Zoom x2 at px 250: anchor time 450 ms,
        // span 100 ms, begin = 450 - 250 * 0.1 = 425 ms.
        QTest::newRow("in at quarter") << 2.0 << 250.0 << 4.25e8 << 5.25e8;
        // Zoom x0.5 at the right edge: anchor 600 ms stays at px 1000, span 400 ms.
        QTest::newRow("out at right edge") << 0.5 << 1000.0 << 2e8 << 6e8;
        // Zoom x4 at the centre: anchor 500 ms, span 50 ms.
        QTest::newRow("in at centre") << 4.0 << 500.0 << 4.75e8 << 5.25e8;
    }
    void zoom()
    {
        QFETCH(double, factor);
        QFETCH(double, anchor);
        QFETCH(double, begin);
        QFETCH(double, end);
        TimeMapping m = make(0, 1e9, 1000, 4e8, 6e8);
        const double anchorTime = m.toTime(anchor);
        m.zoom(factor, anchor);
        QCOMPARE(m.begin(), begin);
        QCOMPARE(m.end(), end);
        QCOMPARE(m.toTime(anchor), anchorTime);
    }

    void panClamps_data()
    {
        QTest::addColumn<double>("pixels");
        QTest::addColumn<double>("begin");
        QTest::addColumn<double>("end");
        // Run [0, 1 ms]: the window may reach 10 us beyond either end. Window [0, 100 us] on
        // 100 px: 1 us per pixel.
        QTest::newRow("right 50 px") << 50.0 << 5e4 << 1.5e5;
        QTest::newRow("left 5 px") << -5.0 << -5e3 << 9.5e4;
        QTest::newRow("left clamps") << -50.0 << -1e4 << 9e4;
        QTest::newRow("right clamps") << 2000.0 << 9.1e5 << 1.01e6;
    }
    void panClamps()
    {
        QFETCH(double, pixels);
        QFETCH(double, begin);
        QFETCH(double, end);
        TimeMapping m = make(0, 1e6, 100, 0, 1e5);
        m.pan(pixels);
        QCOMPARE(m.begin(), begin);
        QCOMPARE(m.end(), end);
    }

    void limits()
    {
        // Smaller than the smallest span (100 ns): grows to 100 ns around its centre 510.
        TimeMapping m = make(0, 1e6, 1000, 500, 520);
        QCOMPARE(m.begin(), 460.0);
        QCOMPARE(m.end(), 560.0);
        // Zooming in further stays at the smallest span.
        m.zoom(10, 500);
        QCOMPARE(m.span(), TimeMapping::kMinSpanNs);
        // Larger than the run plus margins: the whole allowed range.
        m.setVisible(-1e9, 1e9);
        QCOMPARE(m.begin(), -1e4);
        QCOMPARE(m.end(), 1.01e6);
        // Fit: run [1000, 11000] ns plus 100 ns (1%) on either side.
        m.setLimits(1000, 11000);
        m.fit();
        QCOMPARE(m.begin(), 900.0);
        QCOMPARE(m.end(), 11100.0);
        QCOMPARE(m.nsPerPixel(), 10.2);
    }

    void ticks_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<QStringList>("labels");
        QTest::addColumn<int>("minorPerMajor");
        // 1 ms on 1000 px = 1 us/px; majors >= 90 px apart means a step >= 90 us: 100 us.
        QTest::newRow("1 ms on 1000 px")
            << 1000 << QStringList{"0",      "100 us", "200 us", "300 us", "400 us", "500 us",
                                   "600 us", "700 us", "800 us", "900 us", "1.0 ms"}
            << 5;
        // 1 ms on 500 px = 2 us/px: step >= 180 us gives 200 us, minors every 50 us.
        QTest::newRow("1 ms on 500 px")
            << 500 << QStringList{"0", "200 us", "400 us", "600 us", "800 us", "1.0 ms"} << 4;
        // 1 ms on 200 px = 5 us/px: step >= 450 us gives 500 us, minors every 100 us.
        QTest::newRow("1 ms on 200 px") << 200 << QStringList{"0", "500 us", "1.0 ms"} << 5;
    }
    void ticks()
    {
        QFETCH(int, width);
        QFETCH(QStringList, labels);
        QFETCH(int, minorPerMajor);
        const TimeMapping m = make(0, 1e6, width, 0, 1e6);
        QStringList majors;
        int minors = 0;
        for (const TimeMapping::Tick& t : m.ticks(90)) {
            if (t.major)
                majors << t.label;
            else
                ++minors;
        }
        QCOMPARE(majors, labels);
        QCOMPARE(minors, (labels.size() - 1) * (minorPerMajor - 1));
    }

    void offsetLabelsDeepInARun()
    {
        // 1.5 us visible at 13.049751 s on 600 px: 2.5 ns/px, steps >= 225 ns give 500 ns.
        // Absolute labels would need 13.0497515 s: 9 significant digits > 5, so the labels are
        // offsets from the last 500 ns multiple at or before the start, 13.0497510 s.
        const double b = 13.049751e9;
        const TimeMapping m = make(0, 20e9, 600, b, b + 1500);
        QCOMPARE(m.labelBase(90), 13.049751e9);
        QStringList majors;
        for (const TimeMapping::Tick& t : m.ticks(90))
            if (t.major) majors << t.label;
        QCOMPARE(majors, (QStringList{"+0", "+500 ns", "+1.0 us", "+1.5 us"}));
        // The whole run keeps absolute labels (1 s steps on 13 s: 2 digits).
        QCOMPARE(make(0, 20e9, 600, 0, 20e9).labelBase(90), 0.0);
    }

    void formatTime_data()
    {
        QTest::addColumn<double>("ns");
        QTest::addColumn<double>("step");
        QTest::addColumn<QString>("text");
        QTest::newRow("ms, half step") << 1.5e6 << 5e5 << "1.5 ms";
        QTest::newRow("us") << 2e4 << 1e4 << "20 us";
        QTest::newRow("s") << 3e9 << 1e9 << "3 s";
        QTest::newRow("s, fine step") << 1.2001e9 << 1e5 << "1.2001 s";
        QTest::newRow("ns") << 750.0 << 50.0 << "750 ns";
        QTest::newRow("zero") << 0.0 << 1e3 << "0";
        QTest::newRow("negative") << -2e6 << 1e6 << "-2 ms";
        QTest::newRow("ms, 2 us step") << 1.202e6 << 2e3 << "1.202 ms";
    }
    void formatTime()
    {
        QFETCH(double, ns);
        QFETCH(double, step);
        QFETCH(QString, text);
        QCOMPARE(TimeMapping::formatTime(ns, step), text);
    }
};

QTEST_GUILESS_MAIN(TestTimeMapping)
#include "tst_timemapping.moc"
