// One session of a user, end to end, in a real main window driven by Qt Test input events
// (offscreen): open two traces, zoom (+), Find (Ctrl+F, type, Enter), Back (Alt+Left), Compare
// With (Ctrl+Shift+C, the chooser answered), bookmark (Ctrl+B), a what-if replay and a sweep from
// the What If panel (Ctrl+I, its Run and Sweep buttons), Save Session (Ctrl+S, the file dialog
// answered), more work, Quit (Ctrl+Q) answered Save at the unsaved-work prompt, and a new window
// restoring the session file as `rankscope --session FILE` does: every tab comes back with its
// title and kind, and the bookmarks with their trace.
//
// Expectations by hand: the CASITA test trace has 4 ranks and one MPI_Barrier per rank, rank 1
// entering first (otf2-print); a replay's tab is "What if: <name>", a sweep's "Sweep: <name>", a
// comparison's "<top> vs <bottom>"; `+` zooms around the centre, so the span shrinks.

#include "app/bookmarkcontroller.h"
#include "app/mainactions.h"
#include "app/mainwindow.h"
#include "app/recentfiles.h"
#include "app/tracedocument.h"
#include "app/whatifcontroller.h"
#include "testsupport/modalanswer.h"
#include "views/timeline/timelinefindbar.h"
#include "views/timeline/timelineview.h"
#include "views/whatif/comparisonview.h"
#include "views/whatif/whatifpanel.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace rankscope;
using rankscope::test::answerNextBox;

namespace {

QString demoTrace(const QString& name)
{
    return QFileInfo(QStringLiteral(RANKSCOPE_SOURCE_DIR "/resources/demo/traces/") + name)
        .absoluteFilePath();
}

/// Answers the next modal dialog of type D with `answer(dialog)` once it shows.
template <class D> void answerNextDialog(std::function<void(D*)> answer)
{
    auto* poll = new QTimer;
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, poll, [poll, answer] {
        auto* dialog = qobject_cast<D*>(QApplication::activeModalWidget());
        if (!dialog) return;
        poll->stop();
        answer(dialog);
        poll->deleteLater();
    });
    poll->start();
}

std::pair<double, double> visible(const TimelineView* v)
{
    return {v->mapping().begin(), v->mapping().end()};
}

/// Each tab as "kind: title", the kind told by the widget the tab holds.
QStringList tabList(const MainWindow& w)
{
    QStringList out;
    for (int i = 0; i < w.tabs()->count(); ++i) {
        QString kind = QStringLiteral("other");
        if (w.whatIf()->sweepTab(i))
            kind = QStringLiteral("sweep");
        else if (w.whatIf()->comparisonTab(i))
            kind = QStringLiteral("what-if");
        else if (w.document(i))
            kind = QStringLiteral("trace");
        else if (w.comparison(i))
            kind = QStringLiteral("comparison");
        out << kind + QStringLiteral(": ") + w.tabs()->tabText(i);
    }
    return out;
}

void clickTab(MainWindow& w, int index)
{
    QTabBar* bar = w.tabs()->tabBar();
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(index).center());
}

} // namespace

class TestGuiE2E : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("RankscopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_guie2e"));
        RecentFiles().clear();
    }

    void aUsersSession()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("e2e.rsession");
        QStringList before;
        std::vector<Bookmark> bookmarks;
        {
            MainWindow w; // interactive, as a user meets it: the quit prompt is asked
            w.resize(1600, 1000);
            w.show();
            QVERIFY(QTest::qWaitForWindowActive(&w));
            QObject::connect(&w, &MainWindow::errorReported,
                             [](const QString& t, const QString& m) {
                                 qWarning() << "error reported:" << t << m;
                             });

            // Open.
            QSignalSpy opened(&w, &MainWindow::traceOpened);
            w.openTraces(
                {demoTrace("casita-mpi-late-sender-barrier-4r"), demoTrace("stencil2d-9")});
            QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, 60000);
            QCOMPARE(w.tabs()->count(), 2);
            clickTab(w, 0);
            TraceDocument* casita = w.document(0);
            QVERIFY(casita);
            QCOMPARE(casita->data().name, QString("casita-mpi-late-sender-barrier-4r"));
            TimelineView* timeline = casita->timeline();
            timeline->setFocus();

            // Zoom.
            const auto fitted = visible(timeline);
            QTest::keyClick(timeline, Qt::Key_Plus);
            const auto zoomed = visible(timeline);
            QVERIFY(zoomed.second - zoomed.first < fitted.second - fitted.first);

            // Find.
            QTest::keyClick(timeline, Qt::Key_F, Qt::ControlModifier);
            TimelineFindBar* bar = casita->findBar();
            QVERIFY(bar->field()->hasFocus());
            QTest::keyClicks(bar->field(), "MPI_Barrier");
            QTest::keyClick(bar->field(), Qt::Key_Return);
            QVERIFY(timeline->selection().valid());
            QCOMPARE(timeline->selection().rank.value, 1u);
            QTest::keyClick(bar->field(), Qt::Key_Escape);
            const auto found = visible(timeline);

            // Back: to the zoom when Find moved the view to the barrier, else to the fit.
            QTest::keyClick(timeline, Qt::Key_Left, Qt::AltModifier);
            QCOMPARE(visible(timeline), found != zoomed ? zoomed : fitted);

            // A bookmark of what is visible now.
            QTest::keyClick(timeline, Qt::Key_B, Qt::ControlModifier);
            QCOMPARE(casita->bookmarks().size(), size_t(1));

            // Compare With: the chooser offers the other trace.
            answerNextDialog<QInputDialog>([](QInputDialog* d) { d->accept(); });
            QTest::keyClick(timeline, Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
            QTRY_COMPARE_WITH_TIMEOUT(w.tabs()->count(), 3, 10000);
            QVERIFY(w.comparison(2));
            QCOMPARE(w.tabs()->tabText(2),
                     QString("casita-mpi-late-sender-barrier-4r vs stencil2d-9"));

            // What if: the panel preselects the current trace and a network; Run.
            clickTab(w, 0);
            QTest::keyClick(w.document(0)->timeline(), Qt::Key_I, Qt::ControlModifier);
            QVERIFY(w.whatIf()->dock()->isVisible());
            WhatIfPanel* panel = w.whatIf()->panel();
            QVERIFY(panel->scenario().baselines ==
                    std::vector<std::string>{casita->data().path.toStdString()});
            QVERIFY(!panel->scenario().network.empty());
            QSignalSpy ended(w.whatIf(), &WhatIfController::runEnded);
            auto* run = panel->findChild<QPushButton*>("run");
            QTest::mouseClick(run, Qt::LeftButton);
            QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 60000);
            QVERIFY(ended[0][0].toBool());

            // A sweep of cpu_factor over two values.
            panel->showSection("sweep");
            auto* param = panel->findChild<QComboBox*>("sweepParam");
            param->setCurrentIndex(param->findText("cpu_factor"));
            QCOMPARE(param->currentText(), QString("cpu_factor"));
            auto* values = panel->findChild<QLineEdit*>("sweepValues");
            values->setFocus();
            values->selectAll();
            QTest::keyClicks(values, "0.5, 2");
            QTest::mouseClick(panel->findChild<QPushButton*>("sweep"), Qt::LeftButton);
            QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 2, 60000);
            QVERIFY(ended[1][0].toBool());
            QCOMPARE(w.tabs()->count(), 5);

            // Save Session (Ctrl+S): no file yet, so the dialog asks for one.
            answerNextDialog<QFileDialog>([file](QFileDialog* d) {
                // As a user does: the name typed over the one offered.
                d->selectFile(file);
                if (auto* name = d->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")))
                    name->setText(file);
                static_cast<QDialog*>(d)->accept(); // QFileDialog::accept, as OK does
            });
            QTest::keyClick(w.tabs()->tabBar(), Qt::Key_S, Qt::ControlModifier);
            QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(file), 10000);
            QCOMPARE(w.sessionPath(), file);
            QVERIFY(w.sessions()->unsavedWork().isEmpty());

            // More work, then Quit: the prompt lists it; Save keeps it.
            clickTab(w, 0);
            w.document(0)->timeline()->fitToWindow();
            QTest::keyClick(w.document(0)->timeline(), Qt::Key_B, Qt::ControlModifier);
            QCOMPARE(w.sessions()->unsavedWork(),
                     QStringList{"Bookmarks of casita-mpi-late-sender-barrier-4r"});
            bookmarks = w.document(0)->bookmarks();
            QCOMPARE(bookmarks.size(), size_t(2));
            before = tabList(w);
            bool asked = false;
            answerNextBox("quitBox", QMessageBox::Save, &asked);
            QTest::keyClick(w.document(0)->timeline(), Qt::Key_Q, Qt::ControlModifier);
            QVERIFY(asked);
            QVERIFY(!w.isVisible());
        }
        QCOMPARE(before,
                 QStringList({"trace: casita-mpi-late-sender-barrier-4r", "trace: stencil2d-9",
                              "comparison: casita-mpi-late-sender-barrier-4r vs "
                              "stencil2d-9",
                              before[3], before[4]}));
        QVERIFY(before[3].startsWith("what-if: What if: "));
        QVERIFY(before[4].startsWith("sweep: Sweep: "));

        // As `rankscope --session FILE` does: a new window opens the file.
        MainWindow back;
        back.resize(1600, 1000);
        back.show();
        QSignalSpy restored(&back, &MainWindow::sessionRestored);
        QSignalSpy errors(&back, &MainWindow::errorReported);
        QVERIFY(back.openSession(file));
        QVERIFY(restored.count() == 1 || restored.wait(120000));
        QCOMPARE(errors.count(), 0);
        QStringList after = tabList(back);
        QCOMPARE(after.size(), before.size());
        // Result tabs come back after the traces and comparisons, in the order they ran.
        QCOMPARE(after, before);
        QVERIFY(back.document(0)->bookmarks() == bookmarks);
        QVERIFY(back.sessions()->unsavedWork().isEmpty());
    }
};

QTEST_MAIN(TestGuiE2E)
#include "tst_guie2e.moc"
