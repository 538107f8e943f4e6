#include "app/screenshot.h"

#include "app/clockswitch.h"
#include "app/mainactions.h"
#include "app/mainwindow.h"
#include "app/tracedocument.h"
#include "app/traceloader.h"
#include "model/analysis/runspan.h"
#include "views/matrix/commmatrixpanel.h"
#include "views/matrix/commmatrixview.h"
#include "views/metrics/metricspanel.h"
#include "views/panes/calltreepanel.h"
#include "views/panes/criticalpathpanel.h"
#include "views/panes/messagestatspanel.h"
#include "views/timeline/timelineview.h"
#include "views/waits/rootcausepanel.h"
#include "views/waits/waitstatepanel.h"

#include <QApplication>
#include <QComboBox>
#include <QEventLoop>
#include <QFileInfo>
#include <QImage>
#include <QPixmap>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <cstdio>
#include <map>

namespace rankscope {

namespace {

void printError(const QString& message)
{
    std::fprintf(stderr, "rankscope: %s\n", qPrintable(message));
}

/// Shows the communication matrix by mean transfer time once computed (at the window's final
/// size) and clicks its slowest cell whose ranks sit in different timeline rows (so the
/// highlighted lines cross rows), or the slowest of all when there is none.
void showMatrix(TraceDocument* doc)
{
    CommMatrixPanel* panel = doc->matrixPanel();
    if (!doc->showPane(panel)) return; // a result summary: the note that stands in for it
    panel->metricBox()->setCurrentIndex(
        panel->metricBox()->findData(int(CommMatrixMetric::MeanTime)));
    for (int i = 0; i < 3; ++i)
        QApplication::processEvents();
    if (panel->busy()) {
        QEventLoop wait;
        QObject::connect(panel, &CommMatrixPanel::matrixReady, &wait, &QEventLoop::quit);
        wait.exec();
    }
    CommMatrixView* view = panel->view();
    std::map<uint32_t, int> rowOf;
    const std::vector<std::vector<RankId>> rows = doc->timeline()->rows();
    for (size_t row = 0; row < rows.size(); ++row)
        for (RankId r : rows[row])
            rowOf[r.value] = int(row);
    std::pair<int, int> best = view->largestCell();
    double largest = 0;
    for (int s = 0; s < view->groupCount(); ++s)
        for (int r = 0; r < view->groupCount(); ++r) {
            const double v = view->groupCell(s, r).value(view->shownMetric());
            if (v > largest && rowOf[view->groupRanks(s).front().value] !=
                                   rowOf[view->groupRanks(r).front().value]) {
                largest = v;
                best = {s, r};
            }
        }
    view->selectCell(best.first, best.second);
}

/// Zooms the timeline to the run after MPI_Init (and a little before), where the program's own
/// work is: in short runs MPI_Init can take most of the time and squeeze the rest to a sliver.
void showAfterInit(TraceDocument* doc)
{
    const RunSpan span = runSpan(*doc->data().trace);
    if (!span.fromInit) return;
    const double offset = double(doc->timeline()->timeOffset());
    const double margin = 0.02 * double(span.traceEndNs - span.startNs);
    doc->timeline()->setVisibleRange(double(span.startNs) - offset - margin,
                                     double(span.traceEndNs) - offset + margin);
}

} // namespace

int Screenshot::run(const ScreenshotRequest& request)
{
    if (request.traces.isEmpty()) {
        printError(QStringLiteral("--screenshot needs at least one trace"));
        return 1;
    }
    static const QStringList panes = {QStringLiteral("profile"),  QStringLiteral("waits"),
                                      QStringLiteral("causes"),   QStringLiteral("matrix"),
                                      QStringLiteral("calltree"), QStringLiteral("criticalpath"),
                                      QStringLiteral("metrics"),  QStringLiteral("messages")};
    if (!panes.contains(request.pane)) {
        printError(QStringLiteral("--pane wants profile, waits, causes, matrix, calltree, "
                                  "criticalpath, metrics or messages, not %1")
                       .arg(request.pane));
        return 1;
    }
    if (request.compare && request.traces.size() < 2) {
        printError(QStringLiteral("--compare needs two traces"));
        return 1;
    }
    MainWindow window;
    window.setInteractive(false);
    int errors = 0;
    QObject::connect(&window, &MainWindow::errorReported, &window,
                     [&errors](const QString&, const QString& message) {
                         printError(message);
                         ++errors;
                     });
    window.resize(request.size);
    window.show();

    // The same background loads as the GUI; wait for them here. The window opens tabs in the
    // order loads finish, so reorder them to the command line's order afterwards.
    // A trace named twice (e.g. `--compare A A`) is loaded once and compared with itself.
    QStringList traces;
    for (const QString& t : request.traces)
        if (!traces.contains(QFileInfo(t).absoluteFilePath()))
            traces << QFileInfo(t).absoluteFilePath();
    QEventLoop loop;
    QObject::connect(window.loader(), &TraceLoader::idle, &loop, &QEventLoop::quit);
    window.openTraces(traces);
    if (window.isLoading()) loop.exec();
    if (errors > 0 || window.tabs()->count() != traces.size()) {
        if (errors == 0) printError(QStringLiteral("not every trace could be opened"));
        return 1;
    }
    if (request.correctClocks) {
        for (int i = 0; i < window.tabs()->count(); ++i)
            window.clockSwitch()->setCorrected(i, true);
        if (window.isLoading()) loop.exec();
        if (errors > 0) return 1;
    }
    QTabWidget* tabs = window.tabs();
    for (int want = 0; want < traces.size(); ++want) {
        const QString& path = traces[want];
        for (int i = want; i < tabs->count(); ++i) {
            if (window.document(i) && window.document(i)->data().path == path) {
                tabs->tabBar()->moveTab(i, want);
                break;
            }
        }
    }
    if (request.compare) {
        if (!window.compareTabs(0, traces.size() > 1 ? 1 : 0)) return 1;
    } else {
        tabs->setCurrentIndex(0);
        TraceDocument* doc = window.document(0);
        if (request.pane == QLatin1String("waits")) {
            doc->panes()->setCurrentWidget(doc->waitPanel());
            doc->waitPanel()->table()->selectRow(0);
        } else if (request.pane == QLatin1String("causes")) {
            doc->panes()->setCurrentWidget(doc->rootCausePanel());
            doc->rootCausePanel()->functionRankTable()->selectRow(0);
        } else if (request.pane == QLatin1String("matrix")) {
            showMatrix(doc);
        } else if (request.pane == QLatin1String("calltree")) {
            doc->panes()->setCurrentWidget(doc->callTreePanel());
            doc->selectLongestMpiCall();
        } else if (request.pane == QLatin1String("metrics")) {
            if (doc->panes()->indexOf(doc->metricsPanel()) >= 0)
                doc->panes()->setCurrentWidget(doc->metricsPanel());
            showAfterInit(doc);
        } else if (request.pane == QLatin1String("messages")) {
            doc->showPane(doc->messagesPanel());
            doc->selectLongestMpiCall();
        } else if (request.pane == QLatin1String("criticalpath")) {
            doc->showPane(doc->criticalPathPanel());
            window.actions()->showCriticalPath()->setChecked(true);
        } else {
            doc->selectLongestMpiCall();
        }
    }
    // Let layouts settle and the views paint at their final size.
    for (int i = 0; i < 3; ++i)
        QApplication::processEvents();

    QImage image = window.grab().toImage();
    if (image.size() != request.size)
        image = image.scaled(request.size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    if (image.isNull() || !image.save(request.output, "PNG")) {
        printError(QStringLiteral("cannot write %1").arg(request.output));
        return 1;
    }
    return 0;
}

} // namespace rankscope
