#include "app/sessioncontroller.h"

#include "app/autosave.h"
#include "app/extrapolationjob.h"
#include "app/extrapolationsession.h"
#include "app/mainwindow.h"
#include "app/tracedocument.h"
#include "app/traceloader.h"
#include "app/whatifcontroller.h"
#include "model/trace/traceerror.h"
#include "views/panes/tourpanel.h"
#include "views/timeline/timelineview.h"
#include "views/whatif/comparisonview.h"
#include "views/whatif/whatifpanel.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <algorithm>

namespace rankscope {

namespace {

const char* const kComparePaths = "rankscopeComparePaths";

std::string std8(const QString& s)
{
    return QFile::encodeName(s).toStdString();
}
QString q8(const std::string& s)
{
    return QFile::decodeName(s.c_str());
}

} // namespace

SessionController::SessionController(MainWindow* window)
    : QObject(window), window_(window), autosaveTimer_(new QTimer(this)),
      autosave_(std::make_unique<Autosave>())
{
    connect(window_->whatIf(), &WhatIfController::scenariosChanged, this, [this] {
        markDirty();
        autosave(); // scenarios are work: never wait for the timer to keep them
    });
    connect(window_->whatIf(), &WhatIfController::resultsChanged, this,
            &SessionController::markDirty);
    // A restored session's result tabs come back one by one: count them in.
    connect(window_->whatIf(), &WhatIfController::runEnded, this, [this] {
        if (!rerunning_ || runsDue_ == 0) return;
        --runsDue_;
        nextResult();
    });
    connect(window_->extrapolationJob(), &ExtrapolationJob::idle, this, [this] {
        if (!rerunning_ || !extrapolating_) return;
        extrapolating_ = false;
        nextResult();
    });
    autosaveTimer_->setInterval(15000);
    connect(autosaveTimer_, &QTimer::timeout, this, &SessionController::autosave);
}

SessionController::~SessionController() = default;

QString SessionController::autosavePath() const
{
    return autosave_->path();
}

void SessionController::discardAutosave()
{
    autosave_->discard();
}

void SessionController::markDirty()
{
    dirty_ = true;
    if (window_->isInteractive() && !autosaveTimer_->isActive()) autosaveTimer_->start();
}

Session SessionController::session() const
{
    const QTabWidget* tabs = window_->tabs();
    const WhatIfController* whatIf = window_->whatIf();
    Session s;
    for (int i = 0; i < tabs->count(); ++i) {
        if (TraceDocument* doc = window_->document(i)) {
            if (doc->data().path.isEmpty()) continue; // a what-if result: in `results` below
            const std::string path = std8(QFileInfo(doc->data().path).absoluteFilePath());
            s.traces.push_back(path);
            const TimeMapping& m = doc->timeline()->mapping();
            if (m.end() > m.begin()) s.view.ranges[path] = {m.begin(), m.end()};
            if (!doc->bookmarks().empty()) s.bookmarks[path] = doc->bookmarks();
        }
        const QStringList pair = tabs->widget(i)->property(kComparePaths).toStringList();
        if (pair.size() == 2) s.view.comparisons.emplace_back(std8(pair[0]), std8(pair[1]));
        if (auto e = ExtrapolationSession::of(tabs->widget(i))) s.extrapolations.push_back(*e);
    }
    s.scenarios = whatIf->scenarios();
    s.results = whatIf->resultScenarios();
    s.view.currentTab = std::max(0, tabs->currentIndex());
    s.view.whatIfPanel = whatIf->dock()->isVisible();
    // The panel as it is: a run after reopening asks the same question.
    if (const whatif::Scenario panel = whatIf->panel()->scenario(); whatif::validate(panel).empty())
        s.panel = panel;
    s.view.tour = window_->tourDock()->isVisible();
    s.view.tourStep = window_->tour()->currentStep();
    return s;
}

bool SessionController::saveSession(const QString& path)
{
    try {
        session().save(std8(path));
    } catch (const std::exception& e) {
        window_->reportError(tr("Cannot save the session"), QString::fromLocal8Bit(e.what()));
        return false;
    }
    sessionPath_ = path;
    dirty_ = false;
    rememberSaved(session());
    window_->statusBar()->showMessage(tr("Saved session %1").arg(QDir::toNativeSeparators(path)),
                                      5000);
    return true;
}

void SessionController::autosave()
{
    if (!window_->isInteractive() || !dirty_) return;
    try {
        autosave_->write(session());
        dirty_ = false;
    } catch (const std::exception& e) {
        window_->statusBar()->showMessage(
            tr("Autosave failed: %1").arg(QString::fromLocal8Bit(e.what())), 8000);
    }
}

bool SessionController::openSession(const QString& path)
{
    Session s;
    try {
        s = Session::load(std8(path));
    } catch (const std::exception& e) {
        window_->reportError(tr("Cannot open the session"), QString::fromLocal8Bit(e.what()));
        return false;
    }
    sessionPath_ = path;
    reportWarnings(s);
    restoreSession(s);
    return true;
}

void SessionController::reportWarnings(const Session& s)
{
    if (s.warnings.empty()) return;
    QStringList lines;
    for (const std::string& w : s.warnings)
        lines << QString::fromStdString(w);
    window_->reportError(tr("Session partly restored"),
                         tr("Parts of the session were skipped; the rest is restored:\n\n%1")
                             .arg(lines.join(QLatin1Char('\n'))));
}

QStringList SessionController::claimCrashedSessions()
{
    return autosave_->claimOrphans();
}

bool SessionController::recoverSession(const QString& autosaveFile)
{
    Session s;
    try {
        s = Session::load(std8(autosaveFile));
    } catch (const std::exception& e) {
        // Kept on disk: an unreadable autosave is still someone's work.
        autosave_->releaseOrphan(autosaveFile, false);
        window_->reportError(tr("Cannot restore the session"), QString::fromLocal8Bit(e.what()));
        return false;
    }
    recovering_ = autosaveFile;
    reportWarnings(s);
    restoreSession(s);
    return true;
}

void SessionController::offerCrashedSessions()
{
    crashedToOffer_ = claimCrashedSessions();
    offerNextCrashedSession();
}

void SessionController::offerNextCrashedSession()
{
    while (!crashedToOffer_.isEmpty() && recovering_.isEmpty()) {
        const QString file = crashedToOffer_.takeFirst();
        QMessageBox box(
            QMessageBox::Question, tr("Restore session"),
            tr("Rankscope did not close cleanly (a window last saved at %1). Restore "
               "the traces, scenarios and views it had open?")
                .arg(QLocale().toString(QFileInfo(file).lastModified(), QLocale::ShortFormat)),
            QMessageBox::NoButton, window_);
        QPushButton* restore = box.addButton(tr("Restore"), QMessageBox::AcceptRole);
        QPushButton* discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
        box.addButton(tr("Not Now"), QMessageBox::RejectRole);
        box.setDefaultButton(restore);
        box.exec();
        if (box.clickedButton() == restore)
            recoverSession(file);
        else
            autosave_->releaseOrphan(file, box.clickedButton() == discard);
    }
}

void SessionController::restoreSession(const Session& s)
{
    WhatIfController* whatIf = window_->whatIf();
    restoring_ = s;
    // The session's scenarios join those already here (same name: the session's wins), so
    // opening a session never throws away scenarios the user made in this window.
    std::vector<whatif::Scenario> merged = whatIf->scenarios();
    for (const whatif::Scenario& sc : s.scenarios) {
        auto it = std::find_if(merged.begin(), merged.end(),
                               [&](const whatif::Scenario& o) { return o.name == sc.name; });
        if (it != merged.end())
            *it = sc;
        else
            merged.push_back(sc);
    }
    whatIf->setScenarios(std::move(merged));
    whatIf->dock()->setVisible(s.view.whatIfPanel);
    if (s.view.tour) {
        window_->startDemoTour();
        window_->tour()->setCurrentStep(s.view.tourStep);
    }
    QStringList missing;
    for (const std::string& t : s.traces) {
        bool open = false;
        for (int i = 0; i < window_->tabs()->count() && !open; ++i)
            if (TraceDocument* doc = window_->document(i))
                open = QFileInfo(doc->data().path) == QFileInfo(q8(t));
        if (!open) missing << q8(t);
    }
    // Extrapolations run over open traces: open their inputs too (once each).
    for (const SessionExtrapolation& e : s.extrapolations)
        for (const QString& p : ExtrapolationSession::pathsOf(e)) {
            bool open = missing.contains(p);
            for (int i = 0; i < window_->tabs()->count() && !open; ++i)
                if (TraceDocument* doc = window_->document(i))
                    open = QFileInfo(doc->data().path) == QFileInfo(p);
            if (!open) missing << p;
        }
    window_->openTraces(missing);
    if (!window_->loader()->busy()) finishRestore();
}

void SessionController::finishRestore()
{
    if (!restoring_ || window_->loader()->busy()) return;
    const Session s = std::move(*restoring_);
    restoring_.reset();
    QTabWidget* tabs = window_->tabs();
    WhatIfController* whatIf = window_->whatIf();
    const auto tabOf = [this, tabs](const std::string& path) {
        for (int i = 0; i < tabs->count(); ++i)
            if (TraceDocument* doc = window_->document(i))
                if (QFileInfo(doc->data().path) == QFileInfo(q8(path))) return i;
        return -1;
    };
    for (const auto& [path, range] : s.view.ranges)
        if (const int i = tabOf(path); i >= 0)
            window_->document(i)->timeline()->setVisibleRange(range.first, range.second);
    for (const auto& [path, marks] : s.bookmarks)
        if (const int i = tabOf(path); i >= 0) window_->document(i)->setBookmarks(marks);
    for (const auto& [a, b] : s.view.comparisons) {
        const int i = tabOf(a), j = tabOf(b);
        if (i >= 0 && j >= 0) window_->compareTabs(i, j);
    }
    if (s.view.currentTab >= 0 && s.view.currentTab < tabs->count())
        tabs->setCurrentIndex(s.view.currentTab);
    if (s.panel)
        whatIf->showScenario(*s.panel);
    else if (!s.scenarios.empty() && whatIf->dock()->isVisible())
        whatIf->showScenario(s.scenarios.front());
    rerunning_ = s;
    restoreResults();
}

void SessionController::restoreResults()
{
    // What-if runs queue in the controller (one job at a time) and each ends with runEnded;
    // extrapolations go one after another too, as a new one would supersede the running one.
    runsDue_ = int(rerunning_->results.size());
    nextExtrapolation_ = 0;
    extrapolating_ = false;
    const std::vector<whatif::Scenario> results = rerunning_->results;
    for (const whatif::Scenario& r : results)
        window_->whatIf()->start(r);
    nextResult();
}

void SessionController::nextResult()
{
    if (!rerunning_ || extrapolating_) return;
    const std::vector<SessionExtrapolation>& list = rerunning_->extrapolations;
    while (nextExtrapolation_ < list.size()) {
        const SessionExtrapolation& e = list[nextExtrapolation_++];
        ExtrapolationRequest request;
        QString error;
        if (!ExtrapolationSession::request(e, *window_, request, error)) {
            window_->reportError(tr("Cannot restore the extrapolation to %1 ranks").arg(e.target),
                                 error);
            continue;
        }
        extrapolating_ = true;
        window_->extrapolationJob()->start(std::move(request));
        return;
    }
    if (runsDue_ > 0) return;
    const Session s = std::move(*rerunning_);
    rerunning_.reset();
    QTabWidget* tabs = window_->tabs();
    // Result tabs made themselves current as they opened: back to the tab the session showed.
    if (s.view.currentTab >= 0 && s.view.currentTab < tabs->count())
        tabs->setCurrentIndex(s.view.currentTab);
    dirty_ = false;
    if (!recovering_.isEmpty()) {
        // The restored work is in this window's own autosave before the crashed one goes.
        dirty_ = true;
        autosave();
        if (!dirty_) autosave_->releaseOrphan(recovering_, true);
        recovering_.clear();
        QTimer::singleShot(0, this, &SessionController::offerNextCrashedSession);
    } else {
        rememberSaved(s);
    }
    emit restored();
}

void SessionController::rememberSaved(const Session& s)
{
    saved_.results = s.results;
    saved_.extrapolations = s.extrapolations;
    saved_.scenarios = s.scenarios;
    saved_.bookmarks = s.bookmarks;
}

QStringList SessionController::unsavedWork() const
{
    const Session now = session();
    QStringList out;
    const auto missing = [](const auto& list, const auto& item) {
        return std::find(list.begin(), list.end(), item) == list.end();
    };
    for (const whatif::Scenario& r : now.results)
        if (missing(saved_.results, r))
            out << (r.sweepParam.empty() ? tr("What if: %1") : tr("Sweep: %1"))
                       .arg(QString::fromStdString(r.name));
    for (const SessionExtrapolation& e : now.extrapolations)
        if (missing(saved_.extrapolations, e)) out << tr("Extrapolation to %1 ranks").arg(e.target);
    for (const whatif::Scenario& sc : now.scenarios)
        if (missing(saved_.scenarios, sc))
            out << tr("Scenario: %1").arg(QString::fromStdString(sc.name));
    for (const auto& [path, marks] : now.bookmarks)
        if (auto it = saved_.bookmarks.find(path);
            it == saved_.bookmarks.end() || it->second != marks)
            out << tr("Bookmarks of %1").arg(QFileInfo(q8(path)).fileName());
    return out;
}

bool SessionController::confirmQuit()
{
    const QStringList work = window_->isInteractive() ? unsavedWork() : QStringList();
    if (work.isEmpty()) return true;
    QMessageBox box(QMessageBox::Warning, tr("Quit Rankscope"),
                    tr("Save the session before quitting? No saved session holds:"),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, window_);
    box.setObjectName(QStringLiteral("quitBox"));
    box.setInformativeText(QStringLiteral("\u2022 ") + work.join(QStringLiteral("\n\u2022 ")));
    box.setDefaultButton(QMessageBox::Save);
    const int answer = box.exec();
    if (answer == QMessageBox::Discard) return true;
    if (answer != QMessageBox::Save) return false;
    return sessionPath_.isEmpty() ? chooseAndSave() : saveSession(sessionPath_);
}

bool SessionController::confirmCloseTab(int index)
{
    if (!window_->isInteractive()) return true;
    QWidget* tab = window_->tabs()->widget(index);
    bool unsaved = false, bookmarks = false;
    if (const whatif::Scenario* r = window_->whatIf()->resultScenario(index))
        unsaved =
            std::find(saved_.results.begin(), saved_.results.end(), *r) == saved_.results.end();
    else if (const auto e = ExtrapolationSession::of(tab))
        unsaved = std::find(saved_.extrapolations.begin(), saved_.extrapolations.end(), *e) ==
                  saved_.extrapolations.end();
    else if (const TraceDocument* doc = window_->document(index);
             doc && !doc->bookmarks().empty()) {
        const auto it = saved_.bookmarks.find(std8(QFileInfo(doc->data().path).absoluteFilePath()));
        unsaved = bookmarks = it == saved_.bookmarks.end() || it->second != doc->bookmarks();
    }
    if (!unsaved) return true;
    QMessageBox box(QMessageBox::Question, tr("Close Tab"),
                    (bookmarks ? tr("Close \"%1\"? No saved session holds the bookmarks of this "
                                    "trace; they are lost with the tab.")
                               : tr("Close \"%1\"? No saved session holds this result; it is "
                                    "lost unless you run it again."))
                        .arg(window_->tabs()->tabText(index)),
                    QMessageBox::Close | QMessageBox::Cancel, window_);
    box.setObjectName(QStringLiteral("closeTabBox"));
    box.setDefaultButton(QMessageBox::Cancel);
    return box.exec() == QMessageBox::Close;
}

void SessionController::save()
{
    if (sessionPath_.isEmpty())
        chooseAndSave();
    else
        saveSession(sessionPath_);
}

void SessionController::chooseAndOpen()
{
    const QString path = QFileDialog::getOpenFileName(
        window_, tr("Open Session"), QFileInfo(sessionPath_).absolutePath(),
        tr("Rankscope session (*.rsession);;All files (*)"));
    if (!path.isEmpty()) openSession(path);
}

bool SessionController::chooseAndSave()
{
    QString path = QFileDialog::getSaveFileName(
        window_, tr("Save Session"), sessionPath_.isEmpty() ? tr("session.rsession") : sessionPath_,
        tr("Rankscope session (*.rsession)"));
    if (path.isEmpty()) return false;
    if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".rsession");
    return saveSession(path);
}

} // namespace rankscope
