// Opening a result summary (.rsum) in the main window: the tab shows the summarised trace's
// profile, wait states and root causes (the same tables as the trace itself gives), the status
// bar says it is a summary, the timeline is drawn from the stored pyramid at every zoom, and
// File > Load Ranks from Trace opens just the chosen ranks of the trace behind it.

#include "app/mainwindow.h"
#include "app/recentfiles.h"
#include "app/summaryranks.h"
#include "app/tracedocument.h"
#include "importers/otf2/otf2reader.h"
#include "importers/rsum/resultsummary.h"
#include "testsupport/testpaths.h"
#include "views/matrix/commmatrixpanel.h"
#include "views/panes/profileitemmodel.h"
#include "views/timeline/timelineview.h"
#include "views/waits/waitstateitemmodel.h"
#include "views/waits/waitstatepanel.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;

namespace {
constexpr int kLoadTimeoutMs = 60000;
}

class TestResultSummaryGui : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("RankscopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_resultsummarygui"));
        RecentFiles().clear();
    }

    void rankRanges()
    {
        uint32_t first = 0, end = 0;
        QVERIFY(parseRankRange("0-15", 256, first, end));
        QCOMPARE(first, 0u);
        QCOMPARE(end, 16u);
        QVERIFY(parseRankRange(" 7 ", 8, first, end));
        QCOMPARE(first, 7u);
        QCOMPARE(end, 8u);
        QVERIFY(parseRankRange(QStringLiteral("3\u20135"), 8, first, end));
        QCOMPARE(end, 6u);
        QVERIFY(!parseRankRange("0-8", 8, first, end)); // rank 8 of 0..7
        QVERIFY(!parseRankRange("5-3", 8, first, end));
        QVERIFY(!parseRankRange("x", 8, first, end));
        QVERIFY(!parseRankRange("", 8, first, end));
        QVERIFY(!parseRankRange("99999999999999999999", 8, first, end));
    }

    void opensASummaryAsItsTrace()
    {
        const QString anchor = test::traceAnchor("casita-mpi-late-sender-barrier-4r");
        QVERIFY(!anchor.isEmpty());
        QTemporaryDir dir;
        const QString file = dir.filePath("late.rsum");
        auto trace = std::make_shared<const Trace>(readOtf2(anchor.toStdString()));
        writeResultSummary(file.toStdString(), summarizeWholeTrace(trace, anchor.toStdString()));

        MainWindow w;
        QSignalSpy opened(&w, &MainWindow::traceOpened);
        QSignalSpy errors(&w, &MainWindow::errorReported);
        QVERIFY(w.openTrace(anchor));
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kLoadTimeoutMs);
        QVERIFY(w.openTrace(file));
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, kLoadTimeoutMs);
        QCOMPARE(errors.count(), 0);
        QCOMPARE(w.tabs()->tabText(1), QStringLiteral("late.rsum"));
        w.tabs()->setCurrentIndex(1);
        // The trace's headline (4 ranks, 110 events, 20.09 s: tst_mainwindow), marked a summary.
        QCOMPARE(w.statusText(), QStringLiteral("4 ranks · 110 events · 20.09 s · result summary "
                                                "(no single events)"));

        TraceDocument* real = w.document(0);
        TraceDocument* summary = w.document(1);
        QVERIFY(summary->data().fromSummary);
        QVERIFY(!real->data().fromSummary);
        QCOMPARE(summary->data().trace->eventCount(), uint64_t(0));
        // Panes that need messages or single events say so for the summary, with a button that
        // loads ranks of the trace; they showed "0 messages" and "0 ns over 0 segments".
        for (const char* title : {"Critical Path", "Communication Matrix", "Message Statistics"}) {
            auto tabOf = [title](TraceDocument* doc) -> QWidget* {
                for (int i = 0; i < doc->panes()->count(); ++i)
                    if (doc->panes()->tabText(i) == QLatin1String(title))
                        return doc->panes()->widget(i);
                return nullptr;
            };
            QWidget* note = tabOf(summary);
            QVERIFY2(note && note->objectName() == QLatin1String("summaryNote"), title);
            auto* text = note->findChild<QLabel*>();
            QVERIFY(text && text->text().contains(QLatin1String("does not keep")));
            QVERIFY(note->findChild<QPushButton*>(QStringLiteral("summaryLoadRanks")));
            QWidget* pane = tabOf(real);
            QVERIFY2(pane && pane->objectName() != QLatin1String("summaryNote"), title);
        }
        QCOMPARE(real->panes()->indexOf(real->matrixPanel()) >= 0, true);
        QCOMPARE(summary->panes()->indexOf(summary->matrixPanel()), -1);
        // The same tables: profile rows, and wait-state rows cell by cell (but "Longest", whose
        // tooltip differs, compares by value).
        QCOMPARE(summary->profileModel()->rowCount(), real->profileModel()->rowCount());
        const WaitStateItemModel* a = real->waitPanel()->model();
        const WaitStateItemModel* b = summary->waitPanel()->model();
        QVERIFY(a->rowCount() > 0);
        QCOMPARE(b->rowCount(), a->rowCount());
        // Rows in any order (the panel sorts them): compare the sorted lists of rows.
        const auto rowsOf = [](const WaitStateItemModel* m) {
            QStringList rows;
            for (int row = 0; row < m->rowCount(); ++row) {
                QStringList cells;
                for (int col = 0; col < WaitStateItemModel::ColumnCount; ++col)
                    cells << m->data(m->index(row, col), WaitStateItemModel::SortRole).toString();
                rows << cells.join(QLatin1Char('|'));
            }
            rows.sort();
            return rows;
        };
        QCOMPARE(rowsOf(b), rowsOf(a));
        QCOMPARE(b->worstWait(0), -1); // no single wait to jump to
        QVERIFY(a->worstWait(0) >= 0);

        // Zoomed far in, the rows still come from the stored pyramid (there are no events).
        TimelineView* t = summary->timeline();
        const double begin = double(summary->data().trace->beginTime());
        t->setVisibleRange(begin + 1.0e9, begin + 1.0e9 + 1000.0);
        const QImage shot = t->grab().toImage();
        QVERIFY(!shot.isNull());

        // Load Ranks from Trace is offered for the summary's tab only, and finds its trace.
        QAction* load = nullptr;
        for (QAction* action : w.findChildren<QAction*>())
            if (action->text().startsWith(QStringLiteral("Load &Ranks"))) load = action;
        QVERIFY(load);
        QVERIFY(load->isEnabled());
        w.tabs()->setCurrentIndex(0);
        QVERIFY(!load->isEnabled());
        QCOMPARE(summarySourcePath(summary->data()), QFileInfo(anchor).absoluteFilePath());
    }

    void damagedSummaryIsAnError()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("broken.rsum");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QByteArray bytes("RSUM");
        bytes.append(char(1)).append(3, char(0)).append("DEFS"); // a section cut after its tag
        f.write(bytes);
        f.close();
        MainWindow w;
        QSignalSpy errors(&w, &MainWindow::errorReported);
        QVERIFY(w.openTrace(file));
        QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, kLoadTimeoutMs);
        QCOMPARE(w.tabs()->count(), 0);
    }
};

QTEST_MAIN(TestResultSummaryGui)
#include "tst_resultsummarygui.moc"
