// MainWindow: session files (save, open, restore) and the autosave that keeps scenarios safe.

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

QString MainWindow::autosavePath() const
{
    return autosave_->path();
}

void MainWindow::markDirty()
{
    dirty_ = true;
    if (interactive_ && !autosaveTimer_->isActive()) autosaveTimer_->start();
}

Session MainWindow::session() const
{
    Session s;
    for (int i = 0; i < tabs_->count(); ++i) {
        if (TraceDocument* doc = document(i)) {
            if (doc->data().path.isEmpty()) continue; // a what-if result: re-run, not reopened
            const std::string path = std8(QFileInfo(doc->data().path).absoluteFilePath());
            s.traces.push_back(path);
            const TimeMapping& m = doc->timeline()->mapping();
            if (m.end() > m.begin()) s.view.ranges[path] = {m.begin(), m.end()};
        }
        const QStringList pair = tabs_->widget(i)->property(kComparePaths).toStringList();
        if (pair.size() == 2) s.view.comparisons.emplace_back(std8(pair[0]), std8(pair[1]));
    }
    s.scenarios = whatIf_->scenarios();
    for (const QString& r : whatIf_->openResults())
        s.results.push_back(r.toStdString());
    s.view.currentTab = std::max(0, tabs_->currentIndex());
    s.view.whatIfPanel = whatIf_->dock()->isVisible();
    s.view.tour = tourDock_->isVisible();
    s.view.tourStep = tour_->currentStep();
    return s;
}

bool MainWindow::saveSession(const QString& path)
{
    try {
        session().save(std8(path));
    } catch (const std::exception& e) {
        reportError(tr("Cannot save the session"), QString::fromLocal8Bit(e.what()));
        return false;
    }
    sessionPath_ = path;
    dirty_ = false;
    statusBar()->showMessage(tr("Saved session %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

void MainWindow::autosave()
{
    if (!interactive_ || !dirty_) return;
    try {
        autosave_->write(session());
        dirty_ = false;
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("Autosave failed: %1").arg(QString::fromLocal8Bit(e.what())),
                                 8000);
    }
}

bool MainWindow::openSession(const QString& path)
{
    Session s;
    try {
        s = Session::load(std8(path));
    } catch (const std::exception& e) {
        reportError(tr("Cannot open the session"), QString::fromLocal8Bit(e.what()));
        return false;
    }
    sessionPath_ = path;
    restoreSession(s);
    return true;
}

QStringList MainWindow::claimCrashedSessions()
{
    return autosave_->claimOrphans();
}

bool MainWindow::recoverSession(const QString& autosaveFile)
{
    Session s;
    try {
        s = Session::load(std8(autosaveFile));
    } catch (const std::exception& e) {
        // Kept on disk: an unreadable autosave is still someone's work.
        autosave_->releaseOrphan(autosaveFile, false);
        reportError(tr("Cannot restore the session"), QString::fromLocal8Bit(e.what()));
        return false;
    }
    recovering_ = autosaveFile;
    restoreSession(s);
    return true;
}

void MainWindow::offerCrashedSessions()
{
    crashedToOffer_ = claimCrashedSessions();
    offerNextCrashedSession();
}

void MainWindow::offerNextCrashedSession()
{
    while (!crashedToOffer_.isEmpty() && recovering_.isEmpty()) {
        const QString file = crashedToOffer_.takeFirst();
        QMessageBox box(
            QMessageBox::Question, tr("Restore session"),
            tr("Rankscope did not close cleanly (a window last saved at %1). Restore "
               "the traces, scenarios and views it had open?")
                .arg(QLocale().toString(QFileInfo(file).lastModified(), QLocale::ShortFormat)),
            QMessageBox::NoButton, this);
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

void MainWindow::restoreSession(const Session& s)
{
    restoring_ = s;
    // The session's scenarios join those already here (same name: the session's wins), so
    // opening a session never throws away scenarios the user made in this window.
    std::vector<whatif::Scenario> merged = whatIf_->scenarios();
    for (const whatif::Scenario& sc : s.scenarios) {
        auto it = std::find_if(merged.begin(), merged.end(),
                               [&](const whatif::Scenario& o) { return o.name == sc.name; });
        if (it != merged.end())
            *it = sc;
        else
            merged.push_back(sc);
    }
    whatIf_->setScenarios(std::move(merged));
    whatIf_->dock()->setVisible(s.view.whatIfPanel);
    if (s.view.tour) {
        startDemoTour();
        tour_->setCurrentStep(s.view.tourStep);
    }
    QStringList missing;
    for (const std::string& t : s.traces) {
        bool open = false;
        for (int i = 0; i < tabs_->count() && !open; ++i)
            if (TraceDocument* doc = document(i))
                open = QFileInfo(doc->data().path) == QFileInfo(q8(t));
        if (!open) missing << q8(t);
    }
    openTraces(missing);
    if (!loader_->busy()) finishRestore();
}

void MainWindow::finishRestore()
{
    if (!restoring_ || loader_->busy()) return;
    const Session s = std::move(*restoring_);
    restoring_.reset();
    const auto tabOf = [this](const std::string& path) {
        for (int i = 0; i < tabs_->count(); ++i)
            if (TraceDocument* doc = document(i))
                if (QFileInfo(doc->data().path) == QFileInfo(q8(path))) return i;
        return -1;
    };
    for (const auto& [path, range] : s.view.ranges)
        if (const int i = tabOf(path); i >= 0)
            document(i)->timeline()->setVisibleRange(range.first, range.second);
    for (const auto& [a, b] : s.view.comparisons) {
        const int i = tabOf(a), j = tabOf(b);
        if (i >= 0 && j >= 0) compareTabs(i, j);
    }
    if (s.view.currentTab >= 0 && s.view.currentTab < tabs_->count())
        tabs_->setCurrentIndex(s.view.currentTab);
    for (const std::string& r : s.results)
        whatIf_->start(QString::fromStdString(r));
    if (!s.scenarios.empty() && whatIf_->dock()->isVisible())
        whatIf_->showScenario(s.scenarios.front());
    dirty_ = false;
    if (!recovering_.isEmpty()) {
        // The restored work is in this window's own autosave before the crashed one goes.
        dirty_ = true;
        autosave();
        if (!dirty_) autosave_->releaseOrphan(recovering_, true);
        recovering_.clear();
        QTimer::singleShot(0, this, &MainWindow::offerNextCrashedSession);
    }
    emit sessionRestored();
}

void MainWindow::chooseAndOpenSession()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Session"), QFileInfo(sessionPath_).absolutePath(),
        tr("Rankscope session (*.rsession);;All files (*)"));
    if (!path.isEmpty()) openSession(path);
}

bool MainWindow::chooseAndSaveSession()
{
    QString path = QFileDialog::getSaveFileName(
        this, tr("Save Session"), sessionPath_.isEmpty() ? tr("session.rsession") : sessionPath_,
        tr("Rankscope session (*.rsession)"));
    if (path.isEmpty()) return false;
    if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".rsession");
    return saveSession(path);
}

} // namespace rankscope
