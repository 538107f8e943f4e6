// rankscope: the desktop application. `rankscope TRACE...` opens traces; `--screenshot OUT.png`
// renders the window with them to a PNG and exits (offscreen when there is no display).
// `--demo` opens the bundled demo session with its guided tour; `--demo --screenshot-dir DIR`
// renders every view of the tour to PNG files and exits. `--session FILE` opens a session.
// `--correct-clocks` corrects the clocks of each trace once it has loaded.

#include "app/batch.h"
#include "app/clockswitch.h"
#include "app/demo.h"
#include "app/mainwindow.h"
#include "app/screenshot.h"
#include "app/sessionoption.h"
#include "app/sessionscreenshots.h"
#include "app/tracedocument.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTimer>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>

namespace {

bool wantsScreenshot(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--screenshot", 12) == 0 ||
            std::strncmp(argv[i], "--batch", 7) == 0)
            return true;
    return false;
}

} // namespace

namespace {

QtMessageHandler defaultHandler = nullptr;

// The offscreen platform reports that it cannot do window-manager things it has no use for;
// those lines would only worry someone reading a headless run's output.
void quietOffscreenHandler(QtMsgType type, const QMessageLogContext& context, const QString& text)
{
    if (text.contains(QLatin1String("does not support propagateSizeHints")) ||
        text.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set")))
        return;
    defaultHandler(type, context, text);
}

} // namespace

int main(int argc, char** argv)
{
    // The platform is chosen when QApplication starts, so decide before parsing properly.
    if (wantsScreenshot(argc, argv) && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        defaultHandler = qInstallMessageHandler(quietOffscreenHandler);
    }

    // Before QApplication, which would take --session for X11 session management.
    const std::optional<QString> sessionFile = rankscope::takeSessionOption(argc, argv);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Rankscope"));
    QApplication::setApplicationName(QStringLiteral("rankscope"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    // The installed desktop entry and icon (packaging/): the window's icon and its entry on
    // Wayland. Without an installed icon theme entry (a build folder) the icon stays empty.
    QGuiApplication::setDesktopFileName(QStringLiteral("org.rankscope.rankscope"));
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("org.rankscope.rankscope")));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Rankscope: timelines, profiles and comparisons of MPI traces."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Render the window to <png> and exit."),
                                        QStringLiteral("png"));
    const QCommandLineOption size(
        QStringLiteral("size"), QStringLiteral("Window size for --screenshot (default 1600x1000)."),
        QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    const QCommandLineOption compare(
        QStringLiteral("compare"), QStringLiteral("Stack the first two traces on one time axis."));
    const QCommandLineOption pane(
        QStringLiteral("pane"),
        QStringLiteral(
            "Pane shown under the timeline for --screenshot: profile, waits (the "
            "longest wait selected), causes (the first root cause selected), "
            "matrix (the communication matrix by mean transfer time, its slowest "
            "pair's messages highlighted), calltree, criticalpath (the path drawn "
            "on the timeline), metrics (counter rows and profile, zoomed to after "
            "MPI_Init) or messages (message size, transfer time and bandwidth histograms)."),
        QStringLiteral("name"), QStringLiteral("profile"));
    const QCommandLineOption demo(
        QStringLiteral("demo"),
        QStringLiteral("Open the bundled demo session with its guided tour (with "
                       "--screenshot-dir: render each view of the tour and exit)."));
    const QCommandLineOption screenshotDir(
        QStringLiteral("screenshot-dir"),
        QStringLiteral("With --demo: write every view of the demo to <dir> as PNG and exit; "
                       "with --session: write every tab of the restored session (default size "
                       "1920x1080)."),
        QStringLiteral("dir"));
    const QCommandLineOption sessionOption(QStringLiteral("session"),
                                           QStringLiteral("Open a session file (.rsession)."),
                                           QStringLiteral("file"));
    const QCommandLineOption correct(
        QStringLiteral("correct-clocks"),
        QStringLiteral("Correct the clocks of each trace once it has loaded (Analysis > Correct "
                       "Clocks: controlled logical clock, 100 ns minimal latency)."));
    const QCommandLineOption batch(
        QStringLiteral("batch"),
        QStringLiteral("Run the scenarios of SCENARIO (a scenario or session file) through the "
                       "what-if panel's controller and job, offscreen, print the answers and "
                       "exit (the keys of rankscope-cli scenario run --json)."),
        QStringLiteral("SCENARIO"));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("With --batch: print the answers as JSON."));
    parser.addOptions({screenshot, size, compare, pane, demo, screenshotDir, sessionOption, correct,
                       batch, json});
    parser.addPositionalArgument(QStringLiteral("trace"),
                                 QStringLiteral("OTF2 anchor file (traces.otf2) or its folder."),
                                 QStringLiteral("[TRACE...]"));
    parser.process(app);
    const QStringList traces = parser.positionalArguments();

    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$")).match(parser.value(size));
    if (!m.hasMatch()) {
        std::fprintf(stderr, "rankscope: --size wants WIDTHxHEIGHT, e.g. 1600x1000\n");
        return 2;
    }
    const QSize windowSize(m.captured(1).toInt(), m.captured(2).toInt());

    if (parser.isSet(batch)) return rankscope::runBatch(parser.value(batch), parser.isSet(json));
    if (parser.isSet(screenshotDir)) {
        const QSize dirSize = parser.isSet(size) ? windowSize : QSize(1920, 1080);
        if (sessionFile && !parser.isSet(demo))
            return rankscope::SessionScreenshots::render(*sessionFile, parser.value(screenshotDir),
                                                         dirSize);
        if (!parser.isSet(demo)) {
            std::fprintf(stderr, "rankscope: --screenshot-dir goes with --demo or --session\n");
            return 2;
        }
        return rankscope::Demo::renderScreenshots(parser.value(screenshotDir), dirSize);
    }
    if (parser.isSet(screenshot))
        return rankscope::Screenshot::run({parser.value(screenshot), windowSize,
                                           parser.isSet(compare), traces, parser.value(pane),
                                           parser.isSet(correct)});

    rankscope::MainWindow window;
    window.resize(windowSize);
    window.show();
    if (parser.isSet(compare) && traces.size() >= 2) {
        // Compare once both documents are open, whatever order their loads finish in.
        auto once = std::make_shared<QMetaObject::Connection>();
        *once = QObject::connect(&window, &rankscope::MainWindow::traceOpened, &window,
                                 [&window, once] {
                                     if (window.isLoading() || window.tabs()->count() < 2) return;
                                     QObject::disconnect(*once);
                                     window.compareTabs(0, 1);
                                 });
    }
    if (parser.isSet(correct))
        QObject::connect(&window, &rankscope::MainWindow::traceOpened, &window,
                         [&window](const QString& path) {
                             for (int i = 0; i < window.tabs()->count(); ++i)
                                 if (window.document(i) && window.document(i)->data().path == path)
                                     window.clockSwitch()->setCorrected(i, true);
                         });
    window.openTraces(traces);
    if (parser.isSet(demo)) {
        const QString session = rankscope::Demo::sessionPath();
        if (session.isEmpty())
            window.reportError(QObject::tr("No demo"),
                               QObject::tr("The demo session (resources/demo/demo.rsession) "
                                           "was not found."));
        else
            window.openSession(session);
    } else if (sessionFile) {
        window.openSession(*sessionFile);
    } else if (traces.isEmpty()) {
        // Instances that did not end cleanly left their autosaves: offer them back.
        QTimer::singleShot(0, &window, [&window] { window.offerCrashedSessions(); });
    }
    return app.exec();
}
