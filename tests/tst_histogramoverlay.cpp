// HistogramOverlay and its value axis, on hand-made histograms at a known geometry.
//
// Hand-derived layout: measured bins [0,10) 0.5 and [10,20] 0.5; predicted [15,25) 0.25 and
// [25,35] 0.75. Data range [0, 35]; linear padding 4 % of 35 = 1.4 each side, the lower end
// clamped at 0 (times are not negative): displayed [0, 36.4]. Highest bar 0.75, times 1.15 for
// the legend = 0.8625, next 1-2-5 value: 1, so y maps frequency f to top + h (1 - f).
// Colours: a fill of alpha a = 110/255 over the base colour b gives b + (c - b) a per channel;
// where both bars overlap, the predicted fill is blended over the measured one. Pixels are
// probed off the frequency grid lines (every 0.1 here).

#include "model/deltas/histogram.h"
#include "views/plots/histogramaxis.h"
#include "views/plots/histogramoverlay.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QTest>
#include <cmath>

using namespace rankscope;

namespace {

Histogram histogram(std::vector<HistogramBin> bins, uint64_t count)
{
    Histogram h;
    h.bins = std::move(bins);
    h.count = count;
    h.min = h.bins.front().lower;
    h.max = h.bins.back().upper;
    return h;
}

Histogram measured()
{
    return histogram({{0, 10, 5, 0.5, 5}, {10, 20, 5, 0.5, 15}}, 10);
}

Histogram predicted()
{
    return histogram({{15, 25, 1, 0.25, 20}, {25, 35, 3, 0.75, 30}}, 4);
}

int blend(int base, int colour, double alpha)
{
    return int(std::lround(base + (colour - base) * alpha));
}

QColor over(const QColor& base, const QColor& fill)
{
    const double a = HistogramOverlay::kFillAlpha / 255.0;
    return QColor(blend(base.red(), fill.red(), a), blend(base.green(), fill.green(), a),
                  blend(base.blue(), fill.blue(), a));
}

bool near(const QColor& got, const QColor& want)
{
    return std::abs(got.red() - want.red()) <= 3 && std::abs(got.green() - want.green()) <= 3 &&
           std::abs(got.blue() - want.blue()) <= 3;
}

} // namespace

class TestHistogramOverlay : public QObject
{
    Q_OBJECT
private slots:
    void linearMapping();
    void barsAreDrawnWhereTheBinsAre();
    void logAxisHandlesZero();
    void zeroWidthHistogram();
    void ticks_data();
    void ticks();
    void csvHoldsBothHistograms();
    void headerShowsAccuracyAndW1();
    void toolTipNamesTheBins();
};

void TestHistogramOverlay::linearMapping()
{
    HistogramOverlay w;
    w.resize(800, 500);
    w.setHistograms(measured(), predicted());
    const QRect plot = w.plotArea(w.rect());
    const HistogramAxis x = w.xAxis(w.rect());
    QCOMPARE(x.lower(), 0.0);
    QCOMPARE(x.upper(), 36.4);
    QCOMPARE(x.toPixel(0), double(plot.left()));
    QCOMPARE(x.toPixel(18.2), plot.left() + plot.width() / 2.0);
    QCOMPARE(w.frequencyTop(), 1.0);
    QCOMPARE(w.yToPixel(0.5, w.rect()), plot.top() + plot.height() * 0.5);
}

void TestHistogramOverlay::barsAreDrawnWhereTheBinsAre()
{
    HistogramOverlay w;
    w.resize(800, 500);
    w.setHistograms(measured(), predicted());
    QImage image(w.size(), QImage::Format_ARGB32);
    QPainter p(&image);
    w.paintTo(p, w.rect());
    p.end();
    const QRect plot = w.plotArea(w.rect());
    const auto px = [&](double v) { return int(plot.left() + v / 36.4 * plot.width()); };
    const auto py = [&](double f) { return int(plot.top() + plot.height() * (1 - f)); };
    const QColor base = w.palette().color(QPalette::Base);
    const QColor blue = over(base, HistogramOverlay::measuredColor());
    const QColor red = over(base, HistogramOverlay::predictedColor());
    const QColor both = over(blue, HistogramOverlay::predictedColor());
    QVERIFY(near(image.pixelColor(px(5), py(0.25)), blue));    // measured bin 0 only
    QVERIFY(near(image.pixelColor(px(12), py(0.15)), blue));   // measured bin 1 only
    QVERIFY(near(image.pixelColor(px(17.5), py(0.15)), both)); // overlap: semi-transparent
    QVERIFY(near(image.pixelColor(px(17.5), py(0.35)), blue)); // above the predicted 0.25
    QVERIFY(near(image.pixelColor(px(22), py(0.15)), red));    // predicted bin 0 only
    QVERIFY(near(image.pixelColor(px(30), py(0.55)), red));    // predicted bin 1 (0.75)
    QVERIFY(near(image.pixelColor(px(22), py(0.55)), base));   // above the predicted 0.25
    QVERIFY(near(image.pixelColor(px(5), py(0.65)), base));
}

void TestHistogramOverlay::logAxisHandlesZero()
{
    // Bounds 0, 10, 20 and 15, 25, 35: smallest positive 10, largest 35. Log: 10 / 1.25 = 8,
    // but a zero is present, so the floor is a decade below 10: 1; upper 35 * 1.25 = 43.75.
    HistogramOverlay w;
    w.resize(800, 500);
    w.setHistograms(measured(), predicted());
    w.setScale(HistogramAxis::Scale::Log);
    const QRect plot = w.plotArea(w.rect());
    const HistogramAxis x = w.xAxis(w.rect());
    QVERIFY(x.clampsZero());
    QCOMPARE(x.lower(), 1.0);
    QCOMPARE(x.upper(), 43.75);
    QCOMPARE(x.toPixel(0), double(plot.left()));
    QCOMPARE(x.toPixel(10), plot.left() + plot.width() / std::log10(43.75));
    QCOMPARE(x.toValue(x.toPixel(20)), 20.0);
    // All zero: an empty decade [1, 10] with the zeros at its left edge.
    HistogramAxis zero;
    zero.setRange(0, 0, 0, HistogramAxis::Scale::Log);
    zero.setPixels(0, 100);
    QVERIFY(zero.clampsZero());
    QCOMPARE(zero.toPixel(0), 0.0);
    QCOMPARE(zero.toPixel(10), 100.0);
}

void TestHistogramOverlay::zeroWidthHistogram()
{
    // Every sample 5000 ns: one bin [5000, 5000]. Log: a decade around it, 5000 in the middle;
    // linear: +-10 % (500 ns).
    HistogramAxis log;
    log.setRange(5000, 5000, 5000, HistogramAxis::Scale::Log);
    log.setPixels(0, 100);
    QCOMPARE(log.toPixel(5000), 50.0);
    HistogramAxis lin;
    lin.setRange(5000, 5000, 5000, HistogramAxis::Scale::Linear);
    QCOMPARE(lin.lower(), 4500.0);
    QCOMPARE(lin.upper(), 5500.0);

    HistogramOverlay w;
    w.resize(800, 500);
    w.setHistograms(std::nullopt, histogram({{5000, 5000, 7, 1.0, 5000}}, 7));
    w.setScale(HistogramAxis::Scale::Log);
    QImage image(w.size(), QImage::Format_ARGB32);
    QPainter p(&image);
    w.paintTo(p, w.rect());
    p.end();
    const QRect plot = w.plotArea(w.rect());
    const int x = int(std::lround(plot.left() + plot.width() / 2.0));
    const int y = int(plot.top() + plot.height() * 0.55); // frequency 1 of top 1: full height
    QVERIFY(near(image.pixelColor(x, y),
                 over(w.palette().color(QPalette::Base), HistogramOverlay::predictedColor())));
}

void TestHistogramOverlay::ticks_data()
{
    QTest::addColumn<int>("scale");
    QTest::addColumn<double>("lo");
    QTest::addColumn<double>("hi");
    QTest::addColumn<QStringList>("labels");
    // [1000, 9000] padded by 320 each side: [680, 9320] on 800 px; 80 px apart needs
    // 8640 * 80 / 800 = 864 ns: step 1 us.
    QTest::newRow("linear us") << 0 << 1000.0 << 9000.0
                               << QStringList{"1 us", "2 us", "3 us", "4 us", "5 us",
                                              "6 us", "7 us", "8 us", "9 us"};
    // [800, 1.25e6]: 3.19 decades on 800 px = 250 px per decade; 2x would be 75 px from 1x,
    // under 80: decades only.
    QTest::newRow("log decades") << 1 << 1000.0 << 1e6
                                 << QStringList{"1 us", "10 us", "100 us", "1 ms"};
}

void TestHistogramOverlay::ticks()
{
    QFETCH(int, scale);
    QFETCH(double, lo);
    QFETCH(double, hi);
    QFETCH(QStringList, labels);
    HistogramAxis axis;
    axis.setRange(lo, hi, lo,
                  scale == 0 ? HistogramAxis::Scale::Linear : HistogramAxis::Scale::Log);
    axis.setPixels(0, 800);
    QStringList got;
    for (const HistogramAxis::Tick& t : axis.ticks(80))
        if (t.major) got << t.label;
    QCOMPARE(got, labels);
}

void TestHistogramOverlay::csvHoldsBothHistograms()
{
    HistogramOverlay w;
    w.setHistograms(measured(), predicted());
    QCOMPARE(w.toCsv(), QStringLiteral("lower_ns,upper_ns,measured_frequency,predicted_frequency\n"
                                       "0,10,0.5,\n"
                                       "10,20,0.5,\n"
                                       "15,25,,0.25\n"
                                       "25,35,,0.75\n"));
}

void TestHistogramOverlay::headerShowsAccuracyAndW1()
{
    HistogramOverlay w;
    w.setTitle(QStringLiteral("Per-rank sums"));
    QCOMPARE(w.headerText(), QStringLiteral("Per-rank sums"));
    w.setComparison(97.26, 0.0414);
    QCOMPARE(w.headerText(), QStringLiteral("Per-rank sums · accuracy 97.3 % · W1 0.041"));
    w.setComparison(std::nullopt, 0.5);
    QCOMPARE(w.headerText(), QStringLiteral("Per-rank sums · W1 0.500"));
}

void TestHistogramOverlay::toolTipNamesTheBins()
{
    HistogramOverlay w;
    w.resize(800, 500);
    w.setHistograms(measured(), predicted());
    const QRect plot = w.plotArea(w.rect());
    const auto px = [&](double v) { return int(plot.left() + v / 36.4 * plot.width()); };
    const int y = plot.center().y();
    QCOMPARE(w.toolTipAt(QPoint(px(5), y)),
             QStringLiteral("measured: 0 ns – 10 ns, 50.0 % (5 samples), mean 5 ns"));
    QCOMPARE(w.toolTipAt(QPoint(px(17.5), y)),
             QStringLiteral("measured: 10 ns – 20 ns, 50.0 % (5 samples), mean 15 ns\n"
                            "predicted: 15 ns – 25 ns, 25.0 % (1 samples), mean 20 ns"));
    QVERIFY(w.toolTipAt(QPoint(plot.left() - 5, y)).isEmpty());
}

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 9));
    TestHistogramOverlay t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_histogramoverlay.moc"
