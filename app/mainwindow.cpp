#include "app/mainwindow.h"

#include "app/bookmarkcontroller.h"
#include "app/clockswitch.h"
#include "app/demotour.h"
#include "app/extrapolatedialog.h"
#include "app/extrapolationjob.h"
#include "app/extrapolationsession.h"
#include "app/helpdialogs.h"
#include "app/loaderrorbox.h"
#include "app/mainactions.h"
#include "app/mainnavigation.h"
#include "app/recentfiles.h"
#include "app/shortcutfallback.h"
#include "app/summaryranks.h"
#include "app/tracedocument.h"
#include "app/traceloader.h"
#include "app/viewexporter.h"
#include "app/whatifcontroller.h"
#include "importers/tracefile.h"
#include "views/extrap/extrapolationview.h"
#include "views/extrap/extrapprogress.h"
#include "views/panes/durationformat.h"
#include "views/panes/tourpanel.h"
#include "views/timeline/timelineview.h"
#include "views/whatif/comparisonview.h"
#include "views/whatif/whatifcomparison.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
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
#include <QShortcut>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>

namespace rankscope {

namespace {

constexpr int kProgressSteps = 1000;

QString headlineText(const LoadedTrace& t)
{
    QString text = MainWindow::tr("%1 ranks · %2 events · %3")
                       .arg(t.headline.ranks)
                       .arg(formatCount(t.headline.events))
                       .arg(formatDuration(double(t.headline.durationNs)));
    if (t.trace && t.trace->diagnostics().partial) text += MainWindow::tr(" · partial trace");
    if (t.clockCorrection) text += MainWindow::tr(" · corrected clocks");
    if (t.fromSummary) text += MainWindow::tr(" · result summary (no single events)");
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

    emptyHint_ = new QLabel(HelpDialogs::emptyWindowHint(), this);
    emptyHint_->setAlignment(Qt::AlignCenter);
    emptyHint_->setObjectName(QStringLiteral("emptyHint"));
    auto* stack = new QStackedWidget(this);
    stack->addWidget(emptyHint_);
    stack->addWidget(tabs_);
    setCentralWidget(stack);

    whatIf_ = new WhatIfController(this);
    tour_ = new TourPanel(this);
    tourDock_ = new QDockWidget(tr("Guided Tour"), this);
    tourDock_->setObjectName(QStringLiteral("tourDock"));
    tourDock_->setWidget(tour_);
    addDockWidget(Qt::LeftDockWidgetArea, tourDock_);
    tourDock_->hide();
    demoTour_ = new DemoTour(this);
    connect(tour_, &TourPanel::stepActivated, demoTour_, &DemoTour::doStep);
    session_ = new SessionController(this);
    connect(session_, &SessionController::restored, this, &MainWindow::sessionRestored);

    actions_ = new MainActions(this, whatIf_->dock(), tourDock_);
    connectActions();
    clockSwitch_ = new ClockSwitch(this);
    MainNavigation::connect(this);
    bookmarks_ = new BookmarkController(this);
    new ShortcutFallback(this, actions_->allActions());
    createStatusBar();

    connect(loader_, &TraceLoader::loaded, this,
            [this](quint64, const LoadedTrace& t) { onLoaded(t); });
    connect(loader_, &TraceLoader::failed, this,
            [this](quint64, const QString& path, const QString& message) {
                const QString text =
                    tr("Could not open %1\n\n%2").arg(QDir::toNativeSeparators(path), message);
                emit errorReported(tr("Cannot open trace"), text);
                if (!interactive_) return;
                RecentFiles().remove(path);
                loadErrors_->report(path, text); // one box for a batch, with Open Partially
            });
    connect(loader_, &TraceLoader::cancelled, this, [this](quint64, const QString& path) {
        statusBar()->showMessage(tr("Loading %1 cancelled").arg(TraceLoader::displayName(path)));
    });
    connect(loader_, &TraceLoader::progressChanged, this, &MainWindow::onProgress);
    loadErrors_ = new LoadErrorBox(this);
    connect(loadErrors_, &LoadErrorBox::openPartially, loader_,
            [this](const QString& path) { loader_->load(path, true); });
    connect(loader_, &TraceLoader::idle, this, [this] {
        onProgress(0.0);
        session_->finishRestore();
    });
    connect(extrapolationJob_, &ExtrapolationJob::finished, this,
            [this](quint64, const ExtrapolationRun& run) {
                const int tab = ExtrapolationJob::openResultTab(tabs_, run);
                ExtrapolationSession::tag(tabs_->widget(tab), extrapolationJob_->lastRequest());
                session_->markDirty();
            });
    connect(extrapolationJob_, &ExtrapolationJob::failed, this,
            [this](quint64, const QString& message) {
                reportError(tr("Extrapolation failed"), message);
            });
    onCurrentTabChanged();
}

MainWindow::~MainWindow()
{
    // Destruction is an orderly end too (a crash never gets here).
    session_->discardAutosave();
}

void MainWindow::connectActions()
{
    const MainActions* a = actions_;
    connect(a->open(), &QAction::triggered, this, &MainWindow::chooseAndOpen);
    connect(a->openFolder(), &QAction::triggered, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Trace Folder"));
        if (!dir.isEmpty()) openTrace(dir);
    });
    connect(actions_, &MainActions::recentChosen, this, [this](const QString& p) { openTrace(p); });
    connect(a->loadRanks(), &QAction::triggered, this, [this] {
        if (TraceDocument* doc = document(tabs_->currentIndex()))
            askAndLoadSummaryRanks(this, doc->data(), loader_);
    });
    connect(a->exportView(), &QAction::triggered, this, &MainWindow::chooseAndExport);
    connect(a->openSession(), &QAction::triggered, session_, &SessionController::chooseAndOpen);
    connect(a->saveSession(), &QAction::triggered, session_, &SessionController::save);
    connect(a->saveSessionAs(), &QAction::triggered, session_, &SessionController::chooseAndSave);
    connect(a->closeTab(), &QAction::triggered, this, [this] { closeTab(tabs_->currentIndex()); });
    connect(a->quit(), &QAction::triggered, this, &QWidget::close);

    // Navigation acts on the current timeline; the options on every timeline.
    const auto onTimeline = [this](QAction* action, void (TimelineView::*slot)()) {
        connect(action, &QAction::triggered, this, [this, slot] {
            if (TimelineView* v = currentTimeline()) (v->*slot)();
        });
    };
    onTimeline(a->zoomIn(), &TimelineView::zoomIn);
    onTimeline(a->zoomOut(), &TimelineView::zoomOut);
    onTimeline(a->fit(), &TimelineView::fitToWindow);
    onTimeline(a->panLeft(), &TimelineView::panLeft);
    onTimeline(a->panRight(), &TimelineView::panRight);
    onTimeline(a->nextCall(), &TimelineView::selectNextCall);
    onTimeline(a->previousCall(), &TimelineView::selectPreviousCall);
    for (QAction* option :
         {a->showMessages(), a->showWaitStates(), a->showCriticalPath(), a->orderByMpiTime()})
        connect(option, &QAction::toggled, this, [this] {
            for (TimelineView* v : allTimelines())
                applyViewOptions(v);
        });
    connect(a->compare(), &QAction::triggered, this, &MainWindow::chooseComparison);

    connect(a->extrapolate(), &QAction::triggered, this, &MainWindow::showExtrapolateDialog);
    connect(a->tour(), &QAction::triggered, this, [this](bool on) {
        if (on && tour_->steps().empty()) startDemoTour();
    });
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
    connect(cancel_, &QToolButton::clicked, loader_, &TraceLoader::cancelAll);
    // Esc cancels, unless meant for a menu (the menu bar keeps focus after its popup closes).
    connect(new QShortcut(Qt::Key_Escape, cancel_), &QShortcut::activated, this, [this] {
        if (!menuBar()->activeAction() && !QApplication::activePopupWidget()) cancel_->click();
    });
    traceLabel_ = new QLabel(this);
    traceLabel_->setObjectName(QStringLiteral("traceStatusLabel"));
    statusBar()->addPermanentWidget(loadLabel_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    statusBar()->addPermanentWidget(extrapolationJob_->createStatusWidget(this));
    statusBar()->addPermanentWidget(traceLabel_);
    onProgress(0.0);
}

void MainWindow::startDemoTour()
{
    demoTour_->start();
}

void MainWindow::doTourStep(int step)
{
    demoTour_->doStep(step);
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
    if (info.isFile() && info.suffix().compare(QLatin1String("otf2"), Qt::CaseInsensitive) != 0 &&
        !isSingleFileTracePath(QFile::encodeName(path).toStdString())) {
        reportError(tr("Not a trace"),
                    tr("%1 is not an OTF2, Paraver, Paje or SimGrid trace.\n\nOpen the trace's "
                       "anchor file (usually traces.otf2) or the folder holding it, a Paraver "
                       ".prv, a Paje .paje, a SimGrid time-independent .ti list file or a "
                       "result summary .rsum.")
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
    if (trace.clockCorrection) { // Analysis > Correct Clocks: replaces the open document
        clockSwitch_->corrected(trace);
        return;
    }
    loadErrors_->loaded(trace.path);
    auto* doc = new TraceDocument(trace, tabs_);
    connect(doc, &TraceDocument::loadRanksRequested, actions_->loadRanks(), &QAction::trigger);
    applyViewOptions(doc->timeline());
    if (trace.endRank > trace.firstRank) { // File > Load Ranks from Trace: only those ranks
        std::vector<RankId> ranks;
        for (uint32_t r = trace.firstRank; r < trace.endRank; ++r)
            ranks.push_back(RankId(r));
        doc->timeline()->setRankFilter(std::move(ranks));
    }
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
    session_->markDirty();
    emit traceOpened(trace.path);
    emit tracesChanged();
}

void MainWindow::onProgress(double fraction)
{
    const bool busy = loader_->busy();
    loadLabel_->setVisible(busy);
    progress_->setVisible(busy);
    cancel_->setVisible(busy);
    if (!busy) return emptyHint_->setText(HelpDialogs::emptyWindowHint());
    const QStringList pending = loader_->pendingPaths();
    QString text =
        loader_->oldestIsCorrection()
            ? tr("Correcting the clocks of %1").arg(TraceLoader::displayName(pending.front()))
            : tr("Loading %1").arg(TraceLoader::displayName(pending.front()));
    if (pending.size() > 1) text += tr(" and %n more", nullptr, int(pending.size() - 1));
    loadLabel_->setText(text + QStringLiteral("…"));
    progress_->setValue(int(fraction * kProgressSteps));
    emptyHint_->setText(tr("<p style='font-size:large'>%1…</p><p>%2 % read; Cancel in the "
                           "status bar stops it.</p>")
                            .arg(text.toHtmlEscaped())
                            .arg(int(fraction * 100)));
}

void MainWindow::onCurrentTabChanged()
{
    auto* stack = static_cast<QStackedWidget*>(centralWidget());
    stack->setCurrentIndex(tabs_->count() > 0 ? 1 : 0);
    const int i = tabs_->currentIndex();
    actions_->loadRanks()->setEnabled(document(i) && document(i)->data().fromSummary);
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
    int traces = 0;
    for (int i = 0; i < tabs_->count(); ++i)
        traces += document(i) ? 1 : 0;
    actions_->setTabState(tabs_->count() > 0, document(tabs_->currentIndex()) != nullptr, traces);
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
    if (!w || !session_->confirmCloseTab(index)) return;
    tabs_->removeTab(index);
    w->deleteLater();
    session_->markDirty();
    emit tracesChanged();
}

void MainWindow::chooseAndOpen()
{
    // OTF2 traces are a folder with an anchor file; offer the file, and accept a folder too.
    QFileDialog dialog(this, tr("Open Trace"));
    const QString formats = QStringLiteral("*.otf2 *.prv *.prv.gz *.paje *.ti *.rsum");
    dialog.setNameFilters({tr("Traces (%1)").arg(formats), tr("All files (*)")});
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
        return ComparisonView::Run{t.name,          t.trace, t.timeline,   t.profile,
                                   t.timelineIndex, t.waits, t.waitSummary};
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
    view->setShowMessages(actions_->showMessages()->isChecked());
    view->setShowWaitStates(actions_->showWaitStates()->isChecked());
    view->setShowCriticalPath(actions_->showCriticalPath()->isChecked());
    view->setRankOrder(actions_->orderByMpiTime()->isChecked() ? TimelineView::RankOrder::ByMpiTime
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
    if (!session_->confirmQuit()) {
        event->ignore();
        return;
    }
    loader_->cancelAll();
    extrapolationJob_->cancel();
    whatIf_->job()->cancel();
    // A clean exit: the autosave is only for crashes. Only this window's own file goes.
    session_->discardAutosave();
    event->accept();
}

} // namespace rankscope
