#include "app/mainwindow.h"

#include "app/extrapolatedialog.h"
#include "app/extrapolationjob.h"
#include "app/recentfiles.h"
#include "app/tracedocument.h"
#include "app/traceloader.h"
#include "app/viewexporter.h"
#include "app/whatifcontroller.h"
#include "views/comparisonview.h"
#include "views/durationformat.h"
#include "views/extrapolationview.h"
#include "views/extrapprogress.h"
#include "views/ranklist.h"
#include "views/timelineview.h"
#include "views/tourpanel.h"
#include "views/whatifcomparison.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QTimer>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>

namespace rankscope {

namespace {

constexpr int kProgressSteps = 1000;

/// An action whose tooltip names its first shortcut, so toolbar users learn the keys.
QAction* makeAction(QObject* parent, const QString& text, const QString& tip,
                    const QList<QKeySequence>& keys = {}, const QIcon& icon = {})
{
    auto* a = new QAction(icon, text, parent);
    a->setShortcuts(keys);
    a->setStatusTip(tip);
    a->setToolTip(keys.isEmpty() ? tip
                                 : QStringLiteral("%1 (%2)").arg(
                                       tip, keys.front().toString(QKeySequence::NativeText)));
    return a;
}

QString headlineText(const LoadedTrace& t)
{
    QString text = MainWindow::tr("%1 ranks · %2 events · %3")
                       .arg(t.headline.ranks)
                       .arg(formatCount(t.headline.events))
                       .arg(formatDuration(double(t.headline.durationNs)));
    if (t.trace && t.trace->diagnostics().partial) text += MainWindow::tr(" · partial trace");
    return text;
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), loader_(new TraceLoader(this)), tabs_(new QTabWidget(this)),
      extrapolationJob_(new ExtrapolationJob(this))
{
    setWindowTitle(tr("Rankscope"));
    setAcceptDrops(true);
    resize(1400, 900);

    tabs_->setDocumentMode(true);
    tabs_->setTabsClosable(true);
    tabs_->setMovable(true);
    connect(tabs_, &QTabWidget::tabCloseRequested, this, &MainWindow::closeTab);
    connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::onCurrentTabChanged);

    auto* hint = new QLabel(tr("<p style='font-size:large'>Open an MPI trace</p>"
                               "<p>File &gt; Open (Ctrl+O), drop an OTF2 anchor file "
                               "(traces.otf2) or its folder here, or pass traces on the command "
                               "line.</p>"),
                            this);
    hint->setAlignment(Qt::AlignCenter);
    hint->setObjectName(QStringLiteral("emptyHint"));
    auto* stack = new QStackedWidget(this);
    stack->addWidget(hint);
    stack->addWidget(tabs_);
    setCentralWidget(stack);

    whatIf_ = new WhatIfController(this);
    tour_ = new TourPanel(this);
    tourDock_ = new QDockWidget(tr("Guided Tour"), this);
    tourDock_->setObjectName(QStringLiteral("tourDock"));
    tourDock_->setWidget(tour_);
    addDockWidget(Qt::LeftDockWidgetArea, tourDock_);
    tourDock_->hide();
    connect(tour_, &TourPanel::stepActivated, this, &MainWindow::doTourStep);
    connect(whatIf_, &WhatIfController::scenariosChanged, this, [this] {
        markDirty();
        autosave(); // scenarios are work: never wait for the timer to keep them
    });
    autosaveTimer_ = new QTimer(this);
    autosaveTimer_->setInterval(15000);
    connect(autosaveTimer_, &QTimer::timeout, this, &MainWindow::autosave);

    createActions();
    createMenusAndToolbar();
    createStatusBar();

    connect(loader_, &TraceLoader::loaded, this,
            [this](quint64, const LoadedTrace& t) { onLoaded(t); });
    connect(loader_, &TraceLoader::failed, this,
            [this](quint64, const QString& path, const QString& message) {
                if (interactive_) RecentFiles().remove(path);
                reportError(
                    tr("Cannot open trace"),
                    tr("Could not open %1\n\n%2").arg(QDir::toNativeSeparators(path), message));
            });
    connect(loader_, &TraceLoader::cancelled, this, [this](quint64, const QString& path) {
        statusBar()->showMessage(tr("Loading %1 cancelled").arg(TraceLoader::displayName(path)),
                                 5000);
    });
    connect(loader_, &TraceLoader::progressChanged, this, &MainWindow::onProgress);
    connect(loader_, &TraceLoader::idle, this, [this] {
        onProgress(0.0);
        finishRestore();
    });
    connect(extrapolationJob_, &ExtrapolationJob::finished, this,
            [this](quint64, const ExtrapolationRun& run) { ExtrapolationJob::openResultTab(tabs_, run); });
    connect(extrapolationJob_, &ExtrapolationJob::failed, this,
            [this](quint64, const QString& message) { reportError(tr("Extrapolation failed"), message); });
    onCurrentTabChanged();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    QStyle* s = style();
    openAction_ = makeAction(this, tr("&Open..."), tr("Open an OTF2 trace (anchor file or folder)"),
                             {QKeySequence::Open}, s->standardIcon(QStyle::SP_DialogOpenButton));
    connect(openAction_, &QAction::triggered, this, &MainWindow::chooseAndOpen);
    openFolderAction_ = makeAction(this, tr("Open &Folder..."),
                                   tr("Open the OTF2 trace in a folder (e.g. a Score-P "
                                      "experiment directory)"),
                                   {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O)});
    connect(openFolderAction_, &QAction::triggered, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Trace Folder"));
        if (!dir.isEmpty()) openTrace(dir);
    });

    exportAction_ = makeAction(this, tr("&Export..."), tr("Save the current view as PNG or SVG"),
                               {QKeySequence(Qt::CTRL | Qt::Key_E)},
                               s->standardIcon(QStyle::SP_DialogSaveButton));
    connect(exportAction_, &QAction::triggered, this, &MainWindow::chooseAndExport);

    closeTabAction_ = makeAction(this, tr("&Close Tab"), tr("Close the current trace"),
                                 {QKeySequence(Qt::CTRL | Qt::Key_W)});
    connect(closeTabAction_, &QAction::triggered, this,
            [this] { closeTab(tabs_->currentIndex()); });

    quitAction_ = makeAction(this, tr("&Quit"), tr("Quit Rankscope"), {QKeySequence::Quit});
    connect(quitAction_, &QAction::triggered, this, &QWidget::close);

    const auto viewAction = [this](const QString& text, const QString& tip,
                                   const QList<QKeySequence>& keys, const QIcon& icon,
                                   void (TimelineView::*slot)()) {
        QAction* a = makeAction(this, text, tip, keys, icon);
        connect(a, &QAction::triggered, this, [this, slot] {
            if (TimelineView* v = currentTimeline()) (v->*slot)();
        });
        return a;
    };
    zoomInAction_ =
        viewAction(tr("Zoom &In"), tr("Zoom in around the centre"),
                   {QKeySequence::ZoomIn, QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)},
                   QIcon::fromTheme(QStringLiteral("zoom-in")), &TimelineView::zoomIn);
    zoomOutAction_ =
        viewAction(tr("Zoom &Out"), tr("Zoom out around the centre"),
                   {QKeySequence::ZoomOut, QKeySequence(Qt::Key_Minus)},
                   QIcon::fromTheme(QStringLiteral("zoom-out")), &TimelineView::zoomOut);
    fitAction_ = viewAction(
        tr("&Fit to Window"), tr("Show the whole run"), {QKeySequence(Qt::CTRL | Qt::Key_0)},
        QIcon::fromTheme(QStringLiteral("zoom-fit-best")), &TimelineView::fitToWindow);
    panLeftAction_ =
        viewAction(tr("Pan &Left"), tr("Move to earlier times (Left arrow in the timeline)"),
                   {QKeySequence(Qt::ALT | Qt::Key_Left)}, {}, &TimelineView::panLeft);
    panRightAction_ =
        viewAction(tr("Pan &Right"), tr("Move to later times (Right arrow in the timeline)"),
                   {QKeySequence(Qt::ALT | Qt::Key_Right)}, {}, &TimelineView::panRight);
    nextCallAction_ =
        viewAction(tr("&Next MPI Call"),
                   tr("Select the next MPI call on the "
                      "selected rank"),
                   {QKeySequence(Qt::Key_N), QKeySequence(Qt::CTRL | Qt::Key_Right)},
                   s->standardIcon(QStyle::SP_ArrowRight), &TimelineView::selectNextCall);
    previousCallAction_ = viewAction(
        tr("&Previous MPI Call"), tr("Select the previous MPI call on the selected rank"),
        {QKeySequence(Qt::Key_P), QKeySequence(Qt::CTRL | Qt::Key_Left)},
        s->standardIcon(QStyle::SP_ArrowLeft), &TimelineView::selectPreviousCall);

    messagesAction_ =
        makeAction(this, tr("Show &Messages"),
                   tr("Draw point-to-point messages as lines from sender to receiver"),
                   {QKeySequence(Qt::Key_M)});
    messagesAction_->setCheckable(true);
    messagesAction_->setChecked(true);
    connect(messagesAction_, &QAction::toggled, this, [this] {
        for (TimelineView* v : allTimelines())
            applyViewOptions(v);
    });
    waitsAction_ = makeAction(
        this, tr("Show &Wait States"),
        tr("Hatch the waiting part of MPI calls in the colour of its pattern (Late Sender, "
           "Wait at Barrier, ...); zoomed out, bars show the share of time spent waiting"),
        {QKeySequence(Qt::Key_W)});
    waitsAction_->setCheckable(true);
    waitsAction_->setChecked(true);
    connect(waitsAction_, &QAction::toggled, this, [this] {
        for (TimelineView* v : allTimelines())
            applyViewOptions(v);
    });
    rankOrderAction_ = makeAction(this, tr("Order Ranks by MPI &Time"),
                                  tr("Sort the rows by MPI time instead of rank number"),
                                  {QKeySequence(Qt::Key_R)});
    rankOrderAction_->setCheckable(true);
    connect(rankOrderAction_, &QAction::toggled, this, [this] {
        for (TimelineView* v : allTimelines())
            applyViewOptions(v);
    });

    filterAction_ = makeAction(this, tr("&Filter Ranks..."),
                               tr("Show only some ranks, e.g. 0-7, 12, 20-23 (empty: all ranks)"),
                               {QKeySequence(Qt::Key_F)});
    connect(filterAction_, &QAction::triggered, this, &MainWindow::chooseRankFilter);

    compareAction_ = makeAction(this, tr("&Compare With..."),
                                tr("Stack this trace and another open one on a shared time axis"),
                                {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C)});
    connect(compareAction_, &QAction::triggered, this, &MainWindow::chooseComparison);
    extrapolateAction_ = makeAction(this, tr("E&xtrapolate…"),
                                    tr("Predict a larger scale from traces at 3 or more scales"),
                                    {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X)});
    connect(extrapolateAction_, &QAction::triggered, this, &MainWindow::showExtrapolateDialog);

    whatIfAction_ = whatIf_->dock()->toggleViewAction();
    whatIfAction_->setText(tr("&What If…"));
    whatIfAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    whatIfAction_->setStatusTip(tr("Replay a trace on another network, or predict another scale"));
    whatIfAction_->setToolTip(tr("Show the what-if panel: replay on another network, predict "
                                 "another scale, sweep a parameter (Ctrl+I)"));
    tourAction_ = tourDock_->toggleViewAction();
    tourAction_->setText(tr("Guided &Tour"));
    tourAction_->setShortcut(QKeySequence(Qt::Key_F1));
    tourAction_->setToolTip(tr("Show the guided tour of the demo session (F1)"));
    connect(tourAction_, &QAction::triggered, this, [this](bool on) {
        if (on && tour_->steps().empty()) startDemoTour();
    });

    openSessionAction_ = makeAction(this, tr("Open &Session…"),
                                    tr("Open a session: its traces, scenarios and views"),
                                    {QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O)});
    connect(openSessionAction_, &QAction::triggered, this, &MainWindow::chooseAndOpenSession);
    saveSessionAction_ = makeAction(this, tr("&Save Session"),
                                    tr("Save the open traces, scenarios and views"),
                                    {QKeySequence::Save});
    connect(saveSessionAction_, &QAction::triggered, this, [this] {
        if (sessionPath_.isEmpty())
            chooseAndSaveSession();
        else
            saveSession(sessionPath_);
    });
    saveSessionAsAction_ = makeAction(this, tr("Save Session &As…"),
                                      tr("Save the session under a new name"),
                                      {QKeySequence::SaveAs});
    connect(saveSessionAsAction_, &QAction::triggered, this, &MainWindow::chooseAndSaveSession);
}

void MainWindow::createMenusAndToolbar()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(openAction_);
    file->addAction(openFolderAction_);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    connect(recentMenu_, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    file->addAction(exportAction_);
    file->addSeparator();
    file->addAction(openSessionAction_);
    file->addAction(saveSessionAction_);
    file->addAction(saveSessionAsAction_);
    file->addSeparator();
    file->addAction(closeTabAction_);
    file->addAction(quitAction_);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(zoomInAction_);
    view->addAction(zoomOutAction_);
    view->addAction(fitAction_);
    view->addAction(panLeftAction_);
    view->addAction(panRightAction_);
    view->addSeparator();
    view->addAction(previousCallAction_);
    view->addAction(nextCallAction_);
    view->addSeparator();
    view->addAction(messagesAction_);
    view->addAction(waitsAction_);
    view->addAction(rankOrderAction_);
    view->addAction(filterAction_);
    view->addSeparator();
    view->addAction(compareAction_);
    QMenu* analysis = menuBar()->addMenu(tr("&Analysis"));
    analysis->addAction(extrapolateAction_);
    analysis->addAction(whatIfAction_);
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tourAction_);
    for (QMenu* m : {file, view, analysis, help})
        m->setToolTipsVisible(true);

    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(openAction_);
    bar->addAction(exportAction_);
    bar->addSeparator();
    bar->addAction(zoomInAction_);
    bar->addAction(zoomOutAction_);
    bar->addAction(fitAction_);
    bar->addSeparator();
    bar->addAction(previousCallAction_);
    bar->addAction(nextCallAction_);
    bar->addAction(messagesAction_);
    bar->addAction(waitsAction_);
    bar->addSeparator();
    bar->addAction(compareAction_);
    bar->addAction(whatIfAction_);
}

void MainWindow::createStatusBar()
{
    loadLabel_ = new QLabel(this);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, kProgressSteps);
    progress_->setMaximumWidth(220);
    progress_->setTextVisible(true);
    progress_->setFormat(QStringLiteral("%p%"));
    cancel_ = new QToolButton(this);
    cancel_->setObjectName(QStringLiteral("cancelLoadButton"));
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop loading (Esc); nothing else changes"));
    cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(cancel_, &QToolButton::clicked, loader_, &TraceLoader::cancelAll);
    traceLabel_ = new QLabel(this);
    traceLabel_->setObjectName(QStringLiteral("traceStatusLabel"));
    statusBar()->addPermanentWidget(loadLabel_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    statusBar()->addPermanentWidget(extrapolationJob_->createStatusWidget(this));
    statusBar()->addPermanentWidget(traceLabel_);
    onProgress(0.0);
}

void MainWindow::setInteractive(bool interactive)
{
    interactive_ = interactive;
}

bool MainWindow::isLoading() const
{
    return loader_->busy();
}

TraceDocument* MainWindow::document(int tab) const
{
    return qobject_cast<TraceDocument*>(tabs_->widget(tab));
}

ComparisonView* MainWindow::comparison(int tab) const
{
    if (auto* w = qobject_cast<WhatIfComparison*>(tabs_->widget(tab))) return w->timelines();
    return qobject_cast<ComparisonView*>(tabs_->widget(tab));
}

QString MainWindow::statusText() const
{
    return traceLabel_->text();
}

void MainWindow::reportError(const QString& title, const QString& message)
{
    emit errorReported(title, message);
    if (!interactive_) return;
    // Non-modal: loading continues and tests can find and close the box.
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("errorBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

bool MainWindow::openTrace(const QString& path)
{
    const QFileInfo info(path);
    const QString shown = QDir::toNativeSeparators(path);
    if (path.isEmpty() || !info.exists()) {
        reportError(tr("Cannot open trace"), tr("%1 does not exist.").arg(shown));
        return false;
    }
    if (info.isFile() && info.suffix().compare(QLatin1String("otf2"), Qt::CaseInsensitive) != 0) {
        reportError(tr("Not a trace"),
                    tr("%1 is not an OTF2 trace.\n\nOpen the trace's anchor file (usually "
                       "traces.otf2) or the folder holding it.")
                        .arg(shown));
        return false;
    }
    openOrder_[info.absoluteFilePath()] = nextOpenOrder_++;
    loader_->load(info.absoluteFilePath());
    return true;
}

void MainWindow::openTraces(const QStringList& paths)
{
    for (const QString& p : paths)
        openTrace(p);
}

namespace {
const char* const kOpenOrder = "rankscopeOpenOrder";
} // namespace

void MainWindow::onLoaded(const LoadedTrace& trace)
{
    auto* doc = new TraceDocument(trace, tabs_);
    applyViewOptions(doc->timeline());
    // Loads finish in any order; tabs keep the order the traces were asked for, so
    // `rankscope a b c` shows a, b, c. Tabs without an order (comparisons) stay last.
    const auto found = openOrder_.find(trace.path);
    const quint64 order = found != openOrder_.end() ? found->second : nextOpenOrder_++;
    if (found != openOrder_.end()) openOrder_.erase(found);
    doc->setProperty(kOpenOrder, order);
    int position = tabs_->count();
    for (int i = 0; i < tabs_->count(); ++i) {
        const QVariant other = tabs_->widget(i)->property(kOpenOrder);
        if (!other.isValid() || other.toULongLong() > order) {
            position = i;
            break;
        }
    }
    const int index = tabs_->insertTab(position, doc, trace.name);
    tabs_->setTabToolTip(index, QDir::toNativeSeparators(trace.path));
    tabs_->setCurrentIndex(index);
    doc->timeline()->setFocus();
    if (interactive_) RecentFiles().add(trace.path);
    statusBar()->showMessage(tr("Opened %1").arg(trace.name), 5000);
    markDirty();
    emit traceOpened(trace.path);
    emit tracesChanged();
}

void MainWindow::onProgress(double fraction)
{
    const bool busy = loader_->busy();
    loadLabel_->setVisible(busy);
    progress_->setVisible(busy);
    cancel_->setVisible(busy);
    if (!busy) return;
    const QStringList pending = loader_->pendingPaths();
    QString text = tr("Loading %1").arg(TraceLoader::displayName(pending.front()));
    if (pending.size() > 1) text += tr(" and %n more", nullptr, int(pending.size() - 1));
    loadLabel_->setText(text + QStringLiteral("…"));
    progress_->setValue(int(fraction * kProgressSteps));
}

void MainWindow::onCurrentTabChanged()
{
    auto* stack = static_cast<QStackedWidget*>(centralWidget());
    stack->setCurrentIndex(tabs_->count() > 0 ? 1 : 0);
    const int i = tabs_->currentIndex();
    if (TraceDocument* doc = document(i)) {
        traceLabel_->setText(headlineText(doc->data()));
        setWindowTitle(tr("%1 — Rankscope").arg(doc->data().name));
    } else if (ComparisonView* cmp = comparison(i)) {
        QStringList parts;
        for (int k = 0; k < 2; ++k)
            if (const auto& t = cmp->run(k).trace)
                parts << tr("%1: %2 ranks, %3")
                             .arg(cmp->run(k).name)
                             .arg(t->rankCount())
                             .arg(formatDuration(double(t->duration())));
        traceLabel_->setText(parts.join(QStringLiteral("  |  ")));
        setWindowTitle(tr("%1 — Rankscope").arg(tabs_->tabText(i)));
    } else {
        traceLabel_->clear();
        setWindowTitle(tr("Rankscope"));
    }
    updateActions();
}

void MainWindow::updateActions()
{
    const bool any = tabs_->count() > 0;
    for (QAction* a : {exportAction_, closeTabAction_, zoomInAction_, zoomOutAction_, fitAction_,
                       panLeftAction_, panRightAction_, nextCallAction_, previousCallAction_,
                       filterAction_})
        a->setEnabled(any);
    compareAction_->setEnabled(document(tabs_->currentIndex()) != nullptr);
    int traces = 0;
    for (int i = 0; i < tabs_->count(); ++i)
        traces += document(i) ? 1 : 0;
    extrapolateAction_->setEnabled(traces >= 3);
}

ExtrapolationView* MainWindow::extrapolation(int tab) const
{
    return qobject_cast<ExtrapolationView*>(tabs_->widget(tab));
}

ExtrapolateDialog* MainWindow::showExtrapolateDialog()
{
    auto* dialog = new ExtrapolateDialog(tabs_, extrapolationJob_, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ExtrapolateDialog::addTracesRequested, this, &MainWindow::chooseAndOpen);
    connect(loader_, &TraceLoader::loaded, dialog,
            [dialog](quint64, const LoadedTrace& t) { dialog->addTrace(t); });
    if (interactive_) dialog->open();
    return dialog;
}

void MainWindow::closeTab(int index)
{
    QWidget* w = tabs_->widget(index);
    if (!w) return;
    tabs_->removeTab(index);
    w->deleteLater();
    markDirty();
    emit tracesChanged();
}

void MainWindow::fillRecentMenu()
{
    recentMenu_->clear();
    const QStringList paths = RecentFiles().paths();
    int n = 1;
    for (const QString& p : paths) {
        QAction* a = recentMenu_->addAction(
            QStringLiteral("&%1  %2").arg(n % 10).arg(TraceLoader::displayName(p)));
        a->setToolTip(QDir::toNativeSeparators(p));
        a->setStatusTip(QDir::toNativeSeparators(p));
        connect(a, &QAction::triggered, this, [this, p] { openTrace(p); });
        ++n;
    }
    if (paths.isEmpty()) recentMenu_->addAction(tr("No recent traces"))->setEnabled(false);
    recentMenu_->addSeparator();
    QAction* clear = recentMenu_->addAction(tr("Clear List"));
    clear->setEnabled(!paths.isEmpty());
    connect(clear, &QAction::triggered, this, [] { RecentFiles().clear(); });
}

void MainWindow::chooseAndOpen()
{
    // OTF2 traces are a folder with an anchor file; offer the file, and accept a folder too.
    QFileDialog dialog(this, tr("Open Trace"));
    dialog.setNameFilters({tr("OTF2 anchor file (*.otf2)"), tr("All files (*)")});
    dialog.setFileMode(QFileDialog::ExistingFiles);
    if (const QStringList recent = RecentFiles().paths(); !recent.isEmpty())
        dialog.setDirectory(QFileInfo(recent.front()).absolutePath());
    if (dialog.exec() != QDialog::Accepted) return;
    openTraces(dialog.selectedFiles());
}

void MainWindow::chooseAndExport()
{
    if (tabs_->count() == 0) return;
    QString selected;
    QString path = QFileDialog::getSaveFileName(
        this, tr("Export View"), tabs_->tabText(tabs_->currentIndex()) + QStringLiteral(".png"),
        ViewExporter::fileFilter(), &selected);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty())
        path += selected.contains(QLatin1String("svg")) ? QStringLiteral(".svg")
                                                        : QStringLiteral(".png");
    QString error;
    if (!exportCurrentView(path, &error))
        reportError(tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
}

bool MainWindow::exportCurrentView(const QString& path, QString* error)
{
    const int i = tabs_->currentIndex();
    QWidget* target = nullptr;
    if (TraceDocument* doc = document(i))
        target = doc->timeline();
    else if (ExtrapolationView* e = extrapolation(i))
        return e->exportPlot(path, error);
    else
        target = comparison(i);
    return ViewExporter::save(target, path, error);
}

void MainWindow::chooseComparison()
{
    const int current = tabs_->currentIndex();
    if (!document(current)) {
        reportError(tr("Compare"), tr("Select the tab of a trace first."));
        return;
    }
    QStringList names;
    std::vector<int> indices;
    for (int i = 0; i < tabs_->count(); ++i) {
        if (i == current || !document(i)) continue;
        names << QStringLiteral("%1  (%2)").arg(tabs_->tabText(i), tabs_->tabToolTip(i));
        indices.push_back(i);
    }
    if (names.isEmpty()) {
        reportError(tr("Compare"),
                    tr("Open a second trace to compare %1 with.").arg(tabs_->tabText(current)));
        return;
    }
    bool ok = false;
    const QString pick = QInputDialog::getItem(this, tr("Compare With"),
                                               tr("Show below %1:").arg(tabs_->tabText(current)),
                                               names, 0, false, &ok);
    if (!ok) return;
    compareTabs(current, indices[size_t(names.indexOf(pick))]);
}

bool MainWindow::compareTabs(int first, int second)
{
    TraceDocument* a = document(first);
    TraceDocument* b = document(second);
    if (!a || !b) {
        reportError(tr("Compare"), tr("Both tabs must hold a trace."));
        return false;
    }
    auto* view = new ComparisonView(tabs_);
    const auto run = [](const LoadedTrace& t) {
        return ComparisonView::Run{t.name,          t.trace, t.timeline, t.profile, t.timelineIndex,
                                   t.waits,         t.waitSummary};
    };
    view->setRuns(run(a->data()), run(b->data()));
    view->setProperty("rankscopeComparePaths", QStringList{a->data().path, b->data().path});
    for (int k = 0; k < 2; ++k)
        applyViewOptions(view->timeline(k));
    const int index = tabs_->addTab(view, tr("%1 vs %2").arg(a->data().name, b->data().name));
    tabs_->setTabToolTip(index, tr("%1 (top) compared with %2 (bottom)")
                                    .arg(QDir::toNativeSeparators(a->data().path),
                                         QDir::toNativeSeparators(b->data().path)));
    tabs_->setCurrentIndex(index);
    return true;
}

void MainWindow::chooseRankFilter()
{
    TimelineView* view = currentTimeline();
    if (!view || !view->trace()) return;
    // The text the user typed last for this view, so the dialog starts from it.
    const char* kFilterText = "rankscopeFilterText";
    bool ok = false;
    const QString text = QInputDialog::getText(
        this, tr("Filter Ranks"),
        tr("Ranks to show, e.g. 0-7, 12, 20-23 (empty for all %1 ranks):")
            .arg(view->trace()->rankCount()),
        QLineEdit::Normal, view->property(kFilterText).toString(), &ok);
    if (!ok) return;
    QString error;
    const auto ranks = parseRankList(text, view->trace()->rankCount(), &error);
    if (!ranks) {
        reportError(tr("Filter Ranks"), error);
        return;
    }
    view->setRankFilter(*ranks);
    view->setProperty(kFilterText, text.trimmed());
}

TimelineView* MainWindow::currentTimeline() const
{
    const int i = tabs_->currentIndex();
    if (TraceDocument* doc = document(i)) return doc->timeline();
    if (ComparisonView* cmp = comparison(i)) {
        if (cmp->timeline(1)->hasFocus()) return cmp->timeline(1);
        if (!cmp->timeline(0)->selection().valid() && cmp->timeline(1)->selection().valid())
            return cmp->timeline(1);
        return cmp->timeline(0);
    }
    return nullptr;
}

std::vector<TimelineView*> MainWindow::allTimelines() const
{
    std::vector<TimelineView*> views;
    for (int i = 0; i < tabs_->count(); ++i) {
        if (TraceDocument* doc = document(i)) views.push_back(doc->timeline());
        if (ComparisonView* cmp = comparison(i)) {
            views.push_back(cmp->timeline(0));
            views.push_back(cmp->timeline(1));
        }
    }
    return views;
}

void MainWindow::applyViewOptions(TimelineView* view) const
{
    view->setShowMessages(messagesAction_->isChecked());
    view->setShowWaitStates(waitsAction_->isChecked());
    view->setRankOrder(rankOrderAction_->isChecked() ? TimelineView::RankOrder::ByMpiTime
                                                     : TimelineView::RankOrder::ByRank);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    openUrls(event->mimeData()->urls());
    event->acceptProposedAction();
}

void MainWindow::openUrls(const QList<QUrl>& urls)
{
    for (const QUrl& url : urls) {
        if (!url.isLocalFile()) {
            reportError(tr("Not a trace"),
                        tr("%1 is not a local file; drop an OTF2 trace folder or its "
                           "traces.otf2.")
                            .arg(url.toDisplayString()));
            continue;
        }
        openTrace(url.toLocalFile());
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    loader_->cancelAll();
    extrapolationJob_->cancel();
    whatIf_->job()->cancel();
    // A clean exit: the autosave is only for crashes.
    if (interactive_) QFile::remove(autosavePath());
    event->accept();
}

} // namespace rankscope
