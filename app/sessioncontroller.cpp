#include "app/sessioncontroller.h"

#include "app/autosave.h"
#include "app/mainwindow.h"
#include "app/tracedocument.h"
#include "app/traceloader.h"
#include "app/whatifcontroller.h"
#include "model/trace/traceerror.h"
#include "views/panes/tourpanel.h"
#include "views/timeline/timelineview.h"
#include "views/whatif/comparisonview.h"

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
            if (doc->data().path.isEmpty()) continue; // a what-if result: re-run, not reopened
            const std::string path = std8(QFileInfo(doc->data().path).absoluteFilePath());
            s.traces.push_back(path);
            const TimeMapping& m = doc->timeline()->mapping();
            if (m.end() > m.begin()) s.view.ranges[path] = {m.begin(), m.end()};
        }
        const QStringList pair = tabs->widget(i)->property(kComparePaths).toStringList();
        if (pair.size() == 2) s.view.comparisons.emplace_back(std8(pair[0]), std8(pair[1]));
    }
    s.scenarios = whatIf->scenarios();
    for (const QString& r : whatIf->openResults())
        s.results.push_back(r.toStdString());
    s.view.currentTab = std::max(0, tabs->currentIndex());
    s.view.whatIfPanel = whatIf->dock()->isVisible();
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
    restoreSession(s);
    return true;
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
    for (const auto& [a, b] : s.view.comparisons) {
        const int i = tabOf(a), j = tabOf(b);
        if (i >= 0 && j >= 0) window_->compareTabs(i, j);
    }
    if (s.view.currentTab >= 0 && s.view.currentTab < tabs->count())
        tabs->setCurrentIndex(s.view.currentTab);
    for (const std::string& r : s.results)
        whatIf->start(QString::fromStdString(r));
    if (!s.scenarios.empty() && whatIf->dock()->isVisible())
        whatIf->showScenario(s.scenarios.front());
    dirty_ = false;
    if (!recovering_.isEmpty()) {
        // The restored work is in this window's own autosave before the crashed one goes.
        dirty_ = true;
        autosave();
        if (!dirty_) autosave_->releaseOrphan(recovering_, true);
        recovering_.clear();
        QTimer::singleShot(0, this, &SessionController::offerNextCrashedSession);
    }
    emit restored();
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
