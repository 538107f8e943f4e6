// How a trace document shares the window and shows text that does not fit: the timeline gets
// most of the height and the user's split is remembered; tables elide in the middle and never
// shrink a column below a few characters; the details pane wraps long call paths.
#include "app/mainwindow.h"
#include "app/tracedocument.h"
#include "testsupport/testpaths.h"
#include "views/panes/detailspane.h"
#include "views/panes/itemviewtext.h"

#include <QAction>
#include <QApplication>
#include <QHeaderView>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QSplitterHandle>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

using namespace rankscope;

namespace {
constexpr int kLoadTimeoutMs = 30000;
const QString kShareKey = QStringLiteral("layout/timelineShare");
} // namespace

class TestGuiLayout : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("RankscopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_guilayout"));
        QSettings().remove(kShareKey);
        trace_ = test::traceAnchor(QStringLiteral("casita-mpi-late-sender-barrier-4r"));
        QVERIFY(!trace_.isEmpty());
    }

    void timelineGetsMostOfTheHeightAndTheSplitIsRemembered()
    {
        MainWindow w;
        w.resize(1920, 1080);
        w.show();
        QSignalSpy opened(&w, &MainWindow::traceOpened);
        QVERIFY(w.openTrace(trace_));
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kLoadTimeoutMs);
        TraceDocument* doc = w.document(0);
        QVERIFY(doc);
        // No saved split: the default share, to a pixel of rounding.
        QTRY_VERIFY(doc->timelineShare() > 0);
        QVERIFY2(std::abs(doc->timelineShare() - TraceDocument::kTimelineShare) < 0.01,
                 qPrintable(QString::number(doc->timelineShare())));

        // Drag the handle 150 px up: the timeline's share drops by 150 / (sum of both sizes).
        auto* split = doc->findChild<QSplitter*>(QStringLiteral("documentSplitter"));
        QVERIFY(split);
        const QList<int> before = split->sizes();
        const double total = before[0] + before[1];
        QSplitterHandle* handle = split->handle(1);
        const QPoint c = handle->rect().center();
        QTest::mousePress(handle, Qt::LeftButton, {}, c);
        QTest::mouseMove(handle, c - QPoint(0, 150));
        QTest::mouseRelease(handle, Qt::LeftButton, {}, c - QPoint(0, 150));
        const double expected = (before[0] - 150) / total;
        QVERIFY2(std::abs(doc->timelineShare() - expected) < 0.01,
                 qPrintable(QString::number(doc->timelineShare())));
        QVERIFY(std::abs(QSettings().value(kShareKey).toDouble() - expected) < 0.01);

        // The next document opens with the remembered share.
        QVERIFY(w.openTrace(trace_));
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, kLoadTimeoutMs);
        TraceDocument* second = w.document(1);
        QVERIFY(second);
        w.tabs()->setCurrentWidget(second);
        QTRY_VERIFY(second->timelineShare() > 0);
        QVERIFY(std::abs(second->timelineShare() - expected) < 0.01);
        QSettings().remove(kShareKey);
    }

    void tablesElideInTheMiddleWithAMinimumWidth()
    {
        QTableView view;
        QStandardItemModel model(1, 2);
        model.setItem(0, 0,
                      new QStandardItem(QStringLiteral("clover_leaf>hydro>timestep>"
                                                       "update_halo:MPI_Waitall")));
        view.setModel(&model);
        ItemViewText::install(&view);
        QCOMPARE(view.textElideMode(), Qt::ElideMiddle);
        // About 6 average characters plus the cell margins.
        const int min = view.fontMetrics().averageCharWidth() * 6 + 12;
        QCOMPARE(view.horizontalHeader()->minimumSectionSize(), min);
        view.horizontalHeader()->resizeSection(0, 5);
        QCOMPARE(view.horizontalHeader()->sectionSize(0), min);
    }

    void detailsPaneWrapsLongCallPaths()
    {
        DetailsPane pane;
        pane.resize(300, 400);
        pane.show();
        pane.setRows({{QStringLiteral("MPI call"), QStringLiteral("Call site"),
                       QStringLiteral("clover_leaf>hydro>timestep_module::timestep>"
                                      "update_halo_module::update_halo>clover_exchange:MPI_"
                                      "Waitall")},
                      {QStringLiteral("MPI call"), QStringLiteral("Rank"), QStringLiteral("3")}});
        auto* tree = pane.findChild<QTreeWidget*>();
        QVERIFY(tree);
        QVERIFY(tree->wordWrap());
        QTreeWidgetItem* section = tree->topLevelItem(0);
        QVERIFY(section && section->childCount() == 2);
        // The call path is taller than the one-line rank row: it wraps rather than being cut.
        const int longRow = tree->visualItemRect(section->child(0)).height();
        const int shortRow = tree->visualItemRect(section->child(1)).height();
        QVERIFY2(longRow >= 2 * shortRow,
                 qPrintable(QStringLiteral("%1 vs %2").arg(longRow).arg(shortRow)));
        QCOMPARE(pane.value(QStringLiteral("MPI call"), QStringLiteral("Call site")),
                 QStringLiteral("clover_leaf>hydro>timestep_module::timestep>update_halo_module::"
                                "update_halo>clover_exchange:MPI_Waitall"));
    }

    void escapeClosingAMenuKeepsTheLoad()
    {
        MainWindow w;
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QSignalSpy opened(&w, &MainWindow::traceOpened);
        // A user opens the View menu during a load and closes it with Esc: the Esc is the
        // menu's, the load goes on and its tab opens.
        QVERIFY(w.openTrace(trace_));
        QAction* view = nullptr;
        for (QAction* a : w.menuBar()->actions())
            if (a->text().remove(QLatin1Char('&')) == QStringLiteral("View")) view = a;
        QVERIFY(view);
        w.menuBar()->setActiveAction(view);
        QTRY_VERIFY(QApplication::activePopupWidget());
        QTest::keyClick(QApplication::activePopupWidget(), Qt::Key_Escape);
        QTRY_VERIFY(!QApplication::activePopupWidget());
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kLoadTimeoutMs);
        QCOMPARE(w.tabs()->count(), 1);

        // Cancelling says so in the status bar, with no timeout.
        w.menuBar()->setActiveAction(nullptr);
        QVERIFY(w.openTrace(trace_));
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(!w.menuBar()->activeAction());
        // (Qt Test's key clicks do not go through the window's shortcut map offscreen: the
        // button the shortcut clicks stands in for it.)
        w.findChild<QToolButton*>(QStringLiteral("cancelLoadButton"))->click();
        QVERIFY(!w.isLoading());
        QTest::qWait(50);
        QCOMPARE(opened.count(), 1);
        QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("cancelled")));
    }

private:
    QString trace_;
};

QTEST_MAIN(TestGuiLayout)
#include "tst_guilayout.moc"
