#include "app/clockswitch.h"

#include "app/mainactions.h"
#include "app/mainwindow.h"
#include "app/tracedocument.h"
#include "app/traceloader.h"
#include "importers/otf2/otf2writer.h"
#include "model/trace/traceerror.h"
#include "views/jobs/backgroundjob.h"
#include "views/panes/durationformat.h"
#include "views/timeline/timelineview.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QProgressDialog>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTabWidget>

namespace rankscope {

namespace {

constexpr int kProgressSteps = 1000;

QString correctionText(const LoadedTrace& t)
{
    const ClockCorrection& c = *t.clockCorrection;
    if (c.before.count() == 0 && c.eventsMoved == 0)
        return ClockSwitch::tr("%1: no clock violations, nothing moved").arg(t.name);
    return ClockSwitch::tr("%1: clocks corrected: %2 violation(s) before, %3 after; %4 of %5 "
                           "events moved, at most %6")
        .arg(t.name)
        .arg(formatCount(c.before.count()))
        .arg(formatCount(c.after.count()))
        .arg(formatCount(c.eventsMoved))
        .arg(formatCount(c.events))
        .arg(formatDuration(double(c.maxShiftNs)));
}

} // namespace

ClockSwitch::ClockSwitch(MainWindow* window) : QObject(window), window_(window)
{
    MainActions* a = window->actions();
    // triggered, not toggled: syncAction() sets the check mark without starting anything.
    // While a correction runs the mark stays on; the loader's idle() settles it.
    connect(a->correctClocks(), &QAction::triggered, this, [this](bool on) {
        if (!setCorrected(window_->tabs()->currentIndex(), on)) syncAction();
    });
    connect(a->exportTrace(), &QAction::triggered, this, &ClockSwitch::chooseAndExport);
    connect(window->tabs(), &QTabWidget::currentChanged, this, &ClockSwitch::syncAction);
    connect(window->loader(), &TraceLoader::idle, this, &ClockSwitch::syncAction);
    connect(this, &ClockSwitch::exported, this, [this](const QString& dir, const QString& error) {
        if (error.isEmpty())
            window_->statusBar()->showMessage(
                tr("Wrote the trace to %1").arg(QDir::toNativeSeparators(dir)), 8000);
        else
            window_->reportError(tr("Cannot export trace"), error);
    });
}

bool ClockSwitch::setCorrected(int tab, bool on)
{
    TraceDocument* doc = window_->document(tab);
    if (!doc) return false;
    const LoadedTrace& data = doc->data();
    if (on == bool(data.clockCorrection)) return false;
    if (!on) {
        replace(tab, *data.uncorrected);
        window_->statusBar()->showMessage(tr("%1: clocks as recorded").arg(data.name), 5000);
        return true;
    }
    window_->loader()->correctClocks(data);
    return true;
}

void ClockSwitch::corrected(const LoadedTrace& trace)
{
    QTabWidget* tabs = window_->tabs();
    for (int i = 0; i < tabs->count(); ++i) {
        const TraceDocument* doc = window_->document(i);
        if (doc && doc->data().path == trace.path && !doc->data().clockCorrection) {
            replace(i, trace);
            window_->statusBar()->showMessage(correctionText(trace), 15000);
            return;
        }
    }
    // The tab was closed (or switched back) while the job ran: nothing to show it in.
}

void ClockSwitch::replace(int tab, const LoadedTrace& data)
{
    QTabWidget* tabs = window_->tabs();
    TraceDocument* old = window_->document(tab);
    const bool current = tabs->currentIndex() == tab;
    auto* doc = new TraceDocument(data, tabs);
    window_->applyViewOptions(doc->timeline());
    // The same place among the tabs, the same pane, and the same zoom unless it showed it all.
    for (const QByteArray& name : old->dynamicPropertyNames())
        doc->setProperty(name.constData(), old->property(name.constData()));
    doc->panes()->setCurrentIndex(old->panes()->currentIndex());
    const TimeMapping& m = old->timeline()->mapping();
    const double whole = double(old->data().trace->duration());
    const bool zoomed = m.span() < 0.999 * whole;
    const double begin = m.begin(), end = m.end();
    const QString tip = tabs->tabToolTip(tab);
    {
        const QSignalBlocker block(tabs); // one currentChanged, after the swap
        tabs->removeTab(tab);
        const QString text =
            data.clockCorrection ? tr("%1 (corrected clocks)").arg(data.name) : data.name;
        tabs->insertTab(tab, doc, text);
        tabs->setTabToolTip(tab, tip);
        if (current) tabs->setCurrentIndex(tab);
    }
    old->deleteLater();
    if (zoomed) doc->timeline()->setVisibleRange(begin, end);
    emit tabs->currentChanged(tabs->currentIndex());
    emit window_->tracesChanged(); // the same paths, but what reads a document reads it anew
}

void ClockSwitch::syncAction()
{
    const TraceDocument* doc = window_->document(window_->tabs()->currentIndex());
    QAction* a = window_->actions()->correctClocks();
    const QSignalBlocker block(a);
    a->setChecked(doc && doc->data().clockCorrection);
}

bool ClockSwitch::exportTrace(int tab, const QString& dir)
{
    const TraceDocument* doc = window_->document(tab);
    if (!doc) return false;
    auto trace = doc->data().trace;
    QProgressDialog* dialog = nullptr;
    if (window_->isInteractive()) {
        dialog = new QProgressDialog(tr("Writing %1…").arg(QDir::toNativeSeparators(dir)),
                                     tr("Cancel"), 0, kProgressSteps, window_);
        dialog->setWindowTitle(tr("Export Trace"));
        dialog->setMinimumDuration(300);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
    }
    if (!exports_) {
        exports_ = new BackgroundJob(this);
        connect(exports_, &BackgroundJob::failed, this,
                [this](quint64, const QString& message) { emit exported(exportDir_, message); });
        connect(exports_, &BackgroundJob::cancelled, this,
                [this] { window_->statusBar()->showMessage(tr("Export cancelled"), 5000); });
    }
    if (dialog) {
        connect(exports_, &BackgroundJob::progressChanged, dialog,
                [dialog](double f) { dialog->setValue(int(f * kProgressSteps)); });
        connect(dialog, &QProgressDialog::canceled, exports_, &BackgroundJob::cancel);
        connect(exports_, &BackgroundJob::idle, dialog, &QProgressDialog::close);
    }
    exportDir_ = dir;
    const std::string out = QFile::encodeName(dir).toStdString();
    // A cancelled write leaves nothing (writeOtf2 removes what it wrote).
    exports_->start<QString>(
        tr("Writing %1").arg(dir),
        [trace, out](const ProgressCallback& keepGoing, const BackgroundJob::Post&) {
            Otf2WriteOptions options;
            options.progress = keepGoing;
            writeOtf2(*trace, out, options);
            return QString();
        },
        [this, dir](quint64, const QString&) { emit exported(dir, QString()); });
    return true;
}

void ClockSwitch::chooseAndExport()
{
    const int tab = window_->tabs()->currentIndex();
    if (!window_->document(tab)) return;
    const QString dir =
        QFileDialog::getExistingDirectory(window_, tr("Export Trace as OTF2 into an empty folder"));
    if (!dir.isEmpty()) exportTrace(tab, dir);
}

} // namespace rankscope
