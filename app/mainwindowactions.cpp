// MainWindow: its actions (with shortcuts and tooltips), menus and toolbar.

#include "app/mainwindow.h"
#include "app/whatifcontroller.h"
#include "views/panes/tourpanel.h"
#include "views/timeline/timelineview.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QMenuBar>
#include <QStyle>
#include <QToolBar>

namespace rankscope {

namespace {

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

} // namespace

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
    connect(openSessionAction_, &QAction::triggered, session_, &SessionController::chooseAndOpen);
    saveSessionAction_ =
        makeAction(this, tr("&Save Session"), tr("Save the open traces, scenarios and views"),
                   {QKeySequence::Save});
    connect(saveSessionAction_, &QAction::triggered, session_, &SessionController::save);
    saveSessionAsAction_ =
        makeAction(this, tr("Save Session &As…"), tr("Save the session under a new name"),
                   {QKeySequence::SaveAs});
    connect(saveSessionAsAction_, &QAction::triggered, session_, &SessionController::chooseAndSave);
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

} // namespace rankscope
