// The Metrics pane (offscreen): the counter profile table and the counter rows of the real PAPI
// trace against figures from otf2-print (see tst_metrics), and the main window showing the pane
// only for a trace that records metrics.

#include "app/mainwindow.h"
#include "app/tracedocument.h"
#include "importers/otf2/otf2reader.h"
#include "model/metrics/metricprofile.h"
#include "testsupport/testpaths.h"
#include "views/metrics/metricrateview.h"
#include "views/metrics/metricregionitemmodel.h"
#include "views/metrics/metricspanel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

using namespace rankscope;
using namespace rankscope::test;

class TestMetricsPanel : public QObject
{
    Q_OBJECT

private slots:
    void panel()
    {
        const QString anchor = sharedTraceAnchor(QStringLiteral("pipit-ping-pong-papi-2r"));
        if (anchor.isEmpty()) QSKIP("shared trace not present");
        auto trace = std::make_shared<const Trace>(readOtf2(anchor.toStdString()));
        auto profile = std::make_shared<const MetricProfile>(computeMetricProfile(*trace));
        MetricsPanel panel;
        QAbstractItemModelTester tester(panel.model());
        panel.setProfile(trace, profile);
        QCOMPARE(panel.metricBox()->count(), 3);
        QCOMPARE(panel.metricBox()->itemText(0), QStringLiteral("PAPI_TOT_CYC"));
        // Seven regions: main, MPI_Init, MPI_Comm_size, MPI_Comm_rank, MPI_Send, MPI_Recv,
        // MPI_Finalize (otf2-print's ENTER records).
        QCOMPARE(panel.model()->rowCount(), 7);
        bool sawSend = false;
        for (int row = 0; row < panel.model()->rowCount(); ++row) {
            const QModelIndex name = panel.model()->index(row, MetricRegionItemModel::RegionColumn);
            if (name.data().toString() != QLatin1String("MPI_Send")) continue;
            sawSend = true;
            QCOMPARE(panel.model()
                         ->index(row, MetricRegionItemModel::InclusiveColumn)
                         .data(MetricRegionItemModel::SortRole)
                         .toDouble(),
                     12452840.0);
            // Shown with its digits grouped.
            QCOMPARE(
                panel.model()->index(row, MetricRegionItemModel::InclusiveColumn).data().toString(),
                QStringLiteral("12,452,840"));
            QCOMPARE(
                panel.model()->index(row, MetricRegionItemModel::CallsColumn).data().toString(),
                QStringLiteral("16"));
        }
        QVERIFY(sawSend);
        panel.metricBox()->setCurrentIndex(1);
        QCOMPARE(panel.rateView()->shownMetric(), MetricId(1));

        // Over rank 0's whole sampled span the increase is last minus first sample of
        // PAPI_L2_TCM on location 0: 486580 (otf2-print).
        const MetricColumn* c = trace->metricColumn(LocationId(0), MetricId(1));
        double rate = 0, increase = 0;
        QVERIFY(panel.rateView()->rowRate(0, c->times.front(), c->times.back(), rate, increase));
        QCOMPARE(increase, 486580.0);
        QCOMPARE(rate, 486580.0 / (double(c->times.back() - c->times.front()) * 1e-9));
        QVERIFY(!panel.rateView()->rowRate(0, c->times.front() - 100, c->times.front(), rate,
                                           increase));

        panel.resize(1200, 300);
        const QImage image = panel.grab().toImage();
        QVERIFY(!image.isNull());
        QVERIFY(panel.rateView()->scaleMax() > 0);
    }

    void rowsFollowTheTimelinesAxis()
    {
        // A 400 px rate view whose left edge lies 100 px right of the start of an axis 600 px
        // long for [0, 600) ns (1 ns a pixel). Its rows start after the 64 px of labels, at
        // 164 ns, and end where its plot ends, 4 px before its right edge: 396 + 100 = 496 ns.
        // Without the axis they span [0, 600) over the plot.
        QWidget top;
        top.resize(800, 200);
        auto* v = new MetricRateView(&top);
        v->setGeometry(200, 0, 400, 100);
        v->setTimeRange(0, 600);
        MetricRateView::Drawn d = v->drawn();
        QCOMPARE(std::pair(d.begin, d.end), std::pair(int64_t(0), int64_t(600)));
        QCOMPARE(d.area.left(), 64);
        const int g = v->mapToGlobal(QPoint(0, 0)).x();
        v->setAxis([g] { return std::pair(g - 100, g + 500); });
        d = v->drawn();
        QCOMPARE(d.area.left(), 64);
        QCOMPARE(d.area.left() + d.area.width(), 396);
        QCOMPARE(std::pair(d.begin, d.end), std::pair(int64_t(164), int64_t(496)));
        // An axis wholly left of the view: nothing is under it.
        v->setAxis([g] { return std::pair(g - 600, g - 10); });
        QVERIFY(v->drawn().area.isEmpty());
    }

    void shownOnlyWithMetrics()
    {
        for (const auto& [name, shown] :
             {std::pair{QStringLiteral("pipit-ping-pong-papi-2r"), true},
              std::pair{QStringLiteral("pipit-ping-pong-2r"), false}}) {
            const QString anchor = sharedTraceAnchor(name);
            if (anchor.isEmpty()) QSKIP("shared trace not present");
            MainWindow w;
            QSignalSpy opened(&w, &MainWindow::traceOpened);
            QVERIFY(w.openTrace(anchor));
            QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 60000);
            TraceDocument* doc = w.document(0);
            QCOMPARE(doc->panes()->indexOf(doc->metricsPanel()) >= 0, shown);
            if (shown) QCOMPARE(doc->metricsPanel()->model()->rowCount(), 7);
        }
    }
};

QTEST_MAIN(TestMetricsPanel)
#include "tst_metricspanel.moc"
