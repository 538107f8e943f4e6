#include "app/mainactions.h"

#include "app/recentfiles.h"
#include "app/traceloader.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QMainWindow>
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
    a->setShortcutContext(Qt::ApplicationShortcut);
    a->setStatusTip(tip);
    a->setToolTip(keys.isEmpty() ? tip
                                 : QStringLiteral("%1 (%2)").arg(
                                       tip, keys.front().toString(QKeySequence::NativeText)));
    return a;
}

} // namespace

MainActions::MainActions(QMainWindow* window, QDockWidget* whatIfDock, QDockWidget* tourDock)
    : QObject(window)
{
    createActions(window, whatIfDock, tourDock);
    createMenusAndToolbar(window);
}

void MainActions::createActions(QMainWindow* window, QDockWidget* whatIfDock, QDockWidget* tourDock)
{
    QStyle* s = window->style();
    open_ = makeAction(this, tr("&Open..."), tr("Open an OTF2 trace (anchor file or folder)"),
                       {QKeySequence::Open}, s->standardIcon(QStyle::SP_DialogOpenButton));
    openFolder_ = makeAction(this, tr("Open &Folder..."),
                             tr("Open the OTF2 trace in a folder (e.g. a Score-P "
                                "experiment directory)"),
                             {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O)});

    loadRanks_ = makeAction(this, tr("Load &Ranks from Trace…"),
                            tr("Open chosen ranks of the trace a result summary was made from, for "
                               "single events below the summary's resolution"),
                            {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L)});
    loadRanks_->setEnabled(false);

    export_ = makeAction(this, tr("&Export..."), tr("Save the current view as PNG or SVG"),
                         {QKeySequence(Qt::CTRL | Qt::Key_E)},
                         s->standardIcon(QStyle::SP_DialogSaveButton));

    closeTab_ = makeAction(this, tr("&Close Tab"), tr("Close the current trace"),
                           {QKeySequence(Qt::CTRL | Qt::Key_W)});

    // Spelled out, not QKeySequence::Quit / Save / SaveAs: those are empty on some platform
    // themes (SaveAs has no key outside GNOME and macOS), which left Ctrl+Shift+S dead.
    quit_ =
        makeAction(this, tr("&Quit"), tr("Quit Rankscope"), {QKeySequence(Qt::CTRL | Qt::Key_Q)});

    zoomIn_ =
        makeAction(this, tr("Zoom &In"), tr("Zoom in around the centre"),
                   {QKeySequence::ZoomIn, QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)},
                   QIcon::fromTheme(QStringLiteral("zoom-in")));
    zoomOut_ = makeAction(this, tr("Zoom &Out"), tr("Zoom out around the centre"),
                          {QKeySequence::ZoomOut, QKeySequence(Qt::Key_Minus)},
                          QIcon::fromTheme(QStringLiteral("zoom-out")));
    fit_ = makeAction(this, tr("&Fit to Window"), tr("Show the whole run"),
                      {QKeySequence(Qt::CTRL | Qt::Key_0)},
                      QIcon::fromTheme(QStringLiteral("zoom-fit-best")));
    panLeft_ =
        makeAction(this, tr("Pan &Left"), tr("Move to earlier times (Left arrow in the timeline)"),
                   {QKeySequence(Qt::SHIFT | Qt::ALT | Qt::Key_Left)});
    panRight_ =
        makeAction(this, tr("Pan &Right"), tr("Move to later times (Right arrow in the timeline)"),
                   {QKeySequence(Qt::SHIFT | Qt::ALT | Qt::Key_Right)});
    back_ = makeAction(this, tr("&Back"), tr("Back to the previous zoom and pan state"),
                       {QKeySequence(Qt::ALT | Qt::Key_Left), QKeySequence(Qt::Key_Back)},
                       s->standardIcon(QStyle::SP_ArrowBack));
    forward_ = makeAction(this, tr("For&ward"), tr("Forward to the next zoom and pan state"),
                          {QKeySequence(Qt::ALT | Qt::Key_Right), QKeySequence(Qt::Key_Forward)},
                          s->standardIcon(QStyle::SP_ArrowForward));
    find_ = makeAction(this, tr("&Find…"), tr("Find a function, call site or rank on the timeline"),
                       {QKeySequence(Qt::CTRL | Qt::Key_F)});
    findNext_ = makeAction(this, tr("Find Ne&xt"), tr("Select the next occurrence in time"),
                           {QKeySequence(Qt::Key_F3)});
    findPrevious_ =
        makeAction(this, tr("Find Pre&vious"), tr("Select the previous occurrence in time"),
                   {QKeySequence(Qt::SHIFT | Qt::Key_F3)});
    goToTime_ = makeAction(this, tr("&Go to Time…"),
                           tr("Centre the timeline on a time, e.g. 13.04975 s or 250 ms"),
                           {QKeySequence(Qt::CTRL | Qt::Key_G)});
    nextCall_ = makeAction(this, tr("&Next MPI Call"),
                           tr("Select the next MPI call on the "
                              "selected rank"),
                           {QKeySequence(Qt::Key_N), QKeySequence(Qt::CTRL | Qt::Key_Right)},
                           s->standardIcon(QStyle::SP_ArrowRight));
    previousCall_ = makeAction(this, tr("&Previous MPI Call"),
                               tr("Select the previous MPI call on the selected rank"),
                               {QKeySequence(Qt::Key_P), QKeySequence(Qt::CTRL | Qt::Key_Left)},
                               s->standardIcon(QStyle::SP_ArrowLeft));

    messages_ = makeAction(this, tr("Show &Messages"),
                           tr("Draw point-to-point messages as lines from sender to receiver"),
                           {QKeySequence(Qt::Key_M)});
    messages_->setCheckable(true);
    messages_->setChecked(true);
    waits_ = makeAction(
        this, tr("Show &Wait States"),
        tr("Hatch the waiting part of MPI calls in the colour of its pattern (Late Sender, "
           "Wait at Barrier, ...); zoomed out, bars show the share of time spent waiting"),
        {QKeySequence(Qt::Key_W)});
    waits_->setCheckable(true);
    waits_->setChecked(true);
    criticalPath_ = makeAction(
        this, tr("Show &Critical Path"),
        tr("Draw the critical path: the chain of computation and communication that determines "
           "the run time, jumping to the rank that released each wait"),
        {QKeySequence(Qt::Key_C)});
    criticalPath_->setCheckable(true);
    criticalPath_->setChecked(false);
    rankOrder_ = makeAction(this, tr("Order Ranks by MPI &Time"),
                            tr("Sort the rows by MPI time instead of rank number"),
                            {QKeySequence(Qt::Key_R)});
    rankOrder_->setCheckable(true);

    filter_ = makeAction(this, tr("&Filter Ranks..."),
                         tr("Show only some ranks, e.g. 0-7, 12, 20-23 (empty: all ranks)"),
                         {QKeySequence(Qt::Key_F)});

    compare_ = makeAction(this, tr("&Compare With..."),
                          tr("Stack this trace and another open one on a shared time axis"),
                          {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C)});
    addBookmark_ = makeAction(this, tr("&Add Bookmark"),
                              tr("Bookmark the visible time range of this trace (rename it in "
                                 "the Bookmarks panel)"),
                              {QKeySequence(Qt::CTRL | Qt::Key_B)});
    bookmarksPanel_ = makeAction(this, tr("&Bookmarks Panel"),
                                 tr("List this trace's bookmarks: jump, rename, delete, undo"),
                                 {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B)});
    bookmarksPanel_->setCheckable(true);
    extrapolate_ = makeAction(this, tr("E&xtrapolate…"),
                              tr("Predict a larger scale from traces at 3 or more scales"),
                              {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X)});

    correctClocks_ = makeAction(
        this, tr("Correct &Clocks"),
        tr("Correct clock skew in the current trace (controlled logical clock): every message "
           "is received at least 100 ns after it was sent, local intervals kept as far as "
           "possible; all views then show the corrected trace"));
    correctClocks_->setCheckable(true);
    exportTrace_ = makeAction(this, tr("Export &Trace as OTF2…"),
                              tr("Write the current trace (with corrected clocks when they are) "
                                 "as an OTF2 archive"));

    whatIf_ = whatIfDock->toggleViewAction();
    whatIf_->setText(tr("&What If…"));
    whatIf_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    whatIf_->setShortcutContext(Qt::ApplicationShortcut);
    whatIf_->setStatusTip(tr("Replay a trace on another network, or predict another scale"));
    whatIf_->setToolTip(tr("Show the what-if panel: replay on another network, predict "
                           "another scale, sweep a parameter (Ctrl+I)"));
    tour_ = tourDock->toggleViewAction();
    tour_->setText(tr("Guided &Tour"));
    tour_->setShortcut(QKeySequence(Qt::Key_F1));
    tour_->setShortcutContext(Qt::ApplicationShortcut);
    tour_->setToolTip(tr("Show the guided tour of the demo session (F1)"));

    shortcuts_ = makeAction(this, tr("&Keyboard Shortcuts"),
                            tr("Every keyboard shortcut and mouse gesture on one sheet"),
                            {QKeySequence(Qt::CTRL | Qt::Key_Slash)});
    about_ = makeAction(this, tr("&About Rankscope"),
                        tr("Version, libraries and the licences of the bundled traces"));
    about_->setMenuRole(QAction::AboutRole);

    openSession_ = makeAction(this, tr("Open &Session…"),
                              tr("Open a session: its traces, scenarios and views"),
                              {QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O)});
    saveSession_ =
        makeAction(this, tr("&Save Session"), tr("Save the open traces, scenarios and views"),
                   {QKeySequence(Qt::CTRL | Qt::Key_S)});
    saveSessionAs_ =
        makeAction(this, tr("Save Session &As…"), tr("Save the session under a new name"),
                   {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)});
}

void MainActions::createMenusAndToolbar(QMainWindow* window)
{
    QMenuBar* menuBar = window->menuBar();
    QMenu* file = menuBar->addMenu(tr("&File"));
    file->addAction(open_);
    file->addAction(openFolder_);
    file->addAction(loadRanks_);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    connect(recentMenu_, &QMenu::aboutToShow, this, &MainActions::fillRecentMenu);
    file->addAction(export_);
    file->addAction(exportTrace_);
    file->addSeparator();
    file->addAction(openSession_);
    file->addAction(saveSession_);
    file->addAction(saveSessionAs_);
    file->addSeparator();
    file->addAction(closeTab_);
    file->addAction(quit_);

    QMenu* view = menuBar->addMenu(tr("&View"));
    view->addAction(zoomIn_);
    view->addAction(zoomOut_);
    view->addAction(fit_);
    view->addAction(panLeft_);
    view->addAction(panRight_);
    view->addAction(back_);
    view->addAction(forward_);
    view->addSeparator();
    view->addAction(find_);
    view->addAction(findNext_);
    view->addAction(findPrevious_);
    view->addAction(goToTime_);
    view->addSeparator();
    view->addAction(previousCall_);
    view->addAction(nextCall_);
    view->addSeparator();
    view->addAction(messages_);
    view->addAction(waits_);
    view->addAction(criticalPath_);
    view->addAction(rankOrder_);
    view->addAction(filter_);
    view->addSeparator();
    view->addAction(compare_);
    bookmarksMenu_ = menuBar->addMenu(tr("&Bookmarks"));
    // In the menu from the start: an action's shortcut works only once a widget holds it.
    bookmarksMenu_->addAction(addBookmark_);
    bookmarksMenu_->addAction(bookmarksPanel_);
    QMenu* analysis = menuBar->addMenu(tr("&Analysis"));
    analysis->addAction(extrapolate_);
    analysis->addAction(whatIf_);
    analysis->addSeparator();
    analysis->addAction(correctClocks_);
    QMenu* help = menuBar->addMenu(tr("&Help"));
    help->addAction(tour_);
    help->addAction(shortcuts_);
    help->addSeparator();
    help->addAction(about_);
    for (QMenu* m : {file, view, bookmarksMenu_, analysis, help})
        m->setToolTipsVisible(true);

    QToolBar* bar = window->addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(open_);
    bar->addAction(export_);
    bar->addSeparator();
    bar->addAction(back_);
    bar->addAction(forward_);
    bar->addAction(zoomIn_);
    bar->addAction(zoomOut_);
    bar->addAction(fit_);
    bar->addSeparator();
    bar->addAction(previousCall_);
    bar->addAction(nextCall_);
    bar->addAction(messages_);
    bar->addAction(waits_);
    bar->addSeparator();
    bar->addAction(compare_);
    bar->addAction(whatIf_);
}

void MainActions::setTabState(bool anyTab, bool currentIsTrace, int traces)
{
    for (QAction* a : {export_, closeTab_, zoomIn_, zoomOut_, fit_, panLeft_, panRight_, nextCall_,
                       previousCall_, filter_, back_, forward_, goToTime_})
        a->setEnabled(anyTab);
    for (QAction* a : {find_, findNext_, findPrevious_})
        a->setEnabled(currentIsTrace);
    compare_->setEnabled(currentIsTrace);
    addBookmark_->setEnabled(currentIsTrace);
    correctClocks_->setEnabled(currentIsTrace);
    exportTrace_->setEnabled(currentIsTrace);
    extrapolate_->setEnabled(traces >= 3);
}

QList<QAction*> MainActions::allActions() const
{
    return {open_,          openFolder_, export_,       openSession_,    saveSession_,
            saveSessionAs_, closeTab_,   quit_,         zoomIn_,         zoomOut_,
            fit_,           panLeft_,    panRight_,     back_,           forward_,
            find_,          findNext_,   findPrevious_, goToTime_,       previousCall_,
            nextCall_,      messages_,   waits_,        criticalPath_,   rankOrder_,
            filter_,        compare_,    addBookmark_,  bookmarksPanel_, extrapolate_,
            whatIf_,        tour_,       shortcuts_};
}

void MainActions::fillRecentMenu()
{
    recentMenu_->clear();
    const QStringList paths = RecentFiles().paths();
    int n = 1;
    for (const QString& p : paths) {
        QAction* a = recentMenu_->addAction(
            QStringLiteral("&%1  %2").arg(n % 10).arg(TraceLoader::displayName(p)));
        a->setToolTip(QDir::toNativeSeparators(p));
        a->setStatusTip(QDir::toNativeSeparators(p));
        connect(a, &QAction::triggered, this, [this, p] { emit recentChosen(p); });
        ++n;
    }
    if (paths.isEmpty()) recentMenu_->addAction(tr("No recent traces"))->setEnabled(false);
    recentMenu_->addSeparator();
    QAction* clear = recentMenu_->addAction(tr("Clear List"));
    clear->setEnabled(!paths.isEmpty());
    connect(clear, &QAction::triggered, this, [] { RecentFiles().clear(); });
}

} // namespace rankscope
