#include "app/screenshot.h"

#include "app/mainactions.h"
#include "app/mainwindow.h"
#include "app/tracedocument.h"
#include "app/traceloader.h"
#include "views/panes/calltreepanel.h"
#include "views/panes/criticalpathpanel.h"
#include "views/waits/rootcausepanel.h"
#include "views/waits/waitstatepanel.h"

#include <QApplication>
#include <QEventLoop>
#include <QFileInfo>
#include <QImage>
#include <QPixmap>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <cstdio>

namespace rankscope {

namespace {

void printError(const QString& message)
{
    std::fprintf(stderr, "rankscope: %s\n", qPrintable(message));
}

} // namespace

int Screenshot::run(const ScreenshotRequest& request)
{
    if (request.traces.isEmpty()) {
        printError(QStringLiteral("--screenshot needs at least one trace"));
        return 1;
    }
    static const QStringList panes = {QStringLiteral("profile"), QStringLiteral("waits"),
                                      QStringLiteral("causes"), QStringLiteral("calltree"),
                                      QStringLiteral("criticalpath")};
    if (!panes.contains(request.pane)) {
        printError(QStringLiteral("--pane wants profile, waits, causes, calltree or "
                                  "criticalpath, not %1")
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
        } else if (request.pane == QLatin1String("calltree")) {
            doc->panes()->setCurrentWidget(doc->callTreePanel());
            doc->selectLongestMpiCall();
        } else if (request.pane == QLatin1String("criticalpath")) {
            doc->panes()->setCurrentWidget(doc->criticalPathPanel());
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
