#include "app/demo.h"

#include "app/eventwait.h"
#include "app/mainwindow.h"
#include "app/sessionscreenshots.h"
#include "app/whatifcontroller.h"
#include "views/panes/tourpanel.h"
#include "views/whatif/whatifcomparison.h"
#include "views/whatif/whatifpanel.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QTabWidget>
#include <cstdio>

namespace rankscope::Demo {

using SessionScreenshots::printError;

QString sessionPath()
{
    const QString dir = WhatIfController::resourceDir();
    const QString path = dir + QStringLiteral("/demo/demo.rsession");
    return !dir.isEmpty() && QFileInfo::exists(path) ? path : QString();
}

int renderScreenshots(const QString& dir, QSize size)
{
    const QString session = sessionPath();
    if (session.isEmpty()) {
        printError(QStringLiteral("the demo session (resources/demo/demo.rsession) was not found; "
                                  "set RANKSCOPE_RESOURCES to the resources folder"));
        return 1;
    }
    MainWindow window;
    int errors = 0;
    if (!SessionScreenshots::openForScreenshots(
            window, session, dir, size, 300,
            QStringLiteral("the demo's traces did not load within 5 minutes"), &errors))
        return 1;
    if (errors > 0) return 1;

    WhatIfController* whatIf = window.whatIf();
    int written = 0;
    const auto save = [&](const QString& name) {
        settleEvents();
        const QString file = QDir(dir).filePath(name + QStringLiteral(".png"));
        QImage image = window.grab().toImage();
        if (image.isNull() || !image.save(file, "PNG")) {
            printError(QStringLiteral("cannot write %1").arg(file));
            ++errors;
            return;
        }
        std::printf("%s\n", qPrintable(QDir::toNativeSeparators(file)));
        ++written;
    };
    // Steps that start a run wait for it; a run ends with a result tab or an error.
    const auto step = [&](int index, bool runs) {
        bool ok = true;
        if (runs) {
            auto result = std::make_shared<bool>(false);
            auto ended = std::make_shared<bool>(false);
            const QMetaObject::Connection c =
                QObject::connect(whatIf, &WhatIfController::runEnded, [result, ended](bool good) {
                    *result = good;
                    *ended = true;
                });
            window.doTourStep(index);
            if (!*ended) waitForSignal(whatIf, &WhatIfController::runEnded, 600);
            QObject::disconnect(c);
            ok = *ended && *result;
            if (!ok)
                printError(QStringLiteral("tour step %1 did not produce a result").arg(index + 1));
        } else {
            window.doTourStep(index);
        }
        return ok && errors == 0;
    };

    const QString names[] = {QStringLiteral("01-timeline"),     QStringLiteral("02-late-sender"),
                             QStringLiteral("03-extrapolated"), QStringLiteral("04-compare-deltas"),
                             QStringLiteral("05-wan-latency"),  QStringLiteral("06-sweep")};
    const bool runs[] = {false, false, true, false, true, true};
    for (int i = 0; i < 6; ++i) {
        if (!step(i, runs[i])) return 1;
        if (i == 2) {
            // The prediction's summary table first, then (step 4) its histograms.
            if (WhatIfComparison* c = whatIf->comparisonTab(window.tabs()->currentIndex()))
                c->showPane(QStringLiteral("summary"));
        }
        save(names[i]);
        if (i == 3) {
            if (WhatIfComparison* c = whatIf->comparisonTab(window.tabs()->currentIndex())) {
                c->showPane(QStringLiteral("waits"));
                save(QStringLiteral("04-compare-waits"));
            }
        }
    }
    // The what-if panel on its own, at a readable size, on the spec copy of the latency replay.
    whatIf->dock()->show();
    for (const whatif::Scenario& s : whatIf->scenarios())
        if (s.kind == whatif::ScenarioKind::Replay && s.sweepParam.empty()) {
            whatIf->showScenario(s);
            break;
        }
    whatIf->panel()->showSection(QStringLiteral("network"));
    settleEvents();
    const QString panelFile = QDir(dir).filePath(QStringLiteral("07-whatif-panel.png"));
    if (whatIf->panel()->grab().save(panelFile, "PNG")) {
        std::printf("%s\n", qPrintable(QDir::toNativeSeparators(panelFile)));
        ++written;
    } else {
        ++errors;
    }
    std::fprintf(stderr, "rankscope: %d views of the demo written to %s\n", written,
                 qPrintable(QDir::toNativeSeparators(dir)));
    return errors == 0 ? 0 : 1;
}

} // namespace rankscope::Demo
