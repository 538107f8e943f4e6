#include "app/whatifcontroller.h"

#include "app/extrapolationjob.h"
#include "app/mainwindow.h"
#include "app/sweepaxis.h"
#include "app/tracedocument.h"
#include "app/traceloader.h"
#include "app/whatifextrapolationrun.h"
#include "app/whatifsimgrid.h"
#include "model/analysis/comparisondata.h"
#include "model/support/atomicfile.h"
#include "model/trace/traceerror.h"
#include "views/whatif/sweepview.h"
#include "views/whatif/whatifcomparison.h"
#include "views/whatif/whatifpanel.h"
#include "whatif/netsim/calibrationchoice.h"
#include "whatif/netsim/units.h"
#include "whatif/scenario/specfinder.h"

#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>
#include <QTabWidget>
#include <algorithm>

namespace rankscope {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

const char* const kScenarioProperty = "rankscopeScenario";

bool samePath(const QString& a, const QString& b)
{
    const QFileInfo fa(a), fb(b);
    const QString ca = fa.canonicalFilePath(), cb = fb.canonicalFilePath();
    if (!ca.isEmpty() && !cb.isEmpty()) return ca == cb;
    return QDir::cleanPath(fa.absoluteFilePath()) == QDir::cleanPath(fb.absoluteFilePath());
}

ComparisonView::Run runOf(const LoadedTrace& t)
{
    return ComparisonView::Run{t.name,          t.trace, t.timeline,   t.profile,
                               t.timelineIndex, t.waits, t.waitSummary};
}

} // namespace

WhatIfController::WhatIfController(MainWindow* window)
    : QObject(window), window_(window), dock_(new QDockWidget(tr("What if…"), window)),
      panel_(new WhatIfPanel(dock_)), job_(new WhatIfJob(this)),
      calibration_(new BackgroundJob(this))
{
    dock_->setObjectName(QStringLiteral("whatIfDock"));
    dock_->setWidget(panel_);
    panel_->setMinimumWidth(380); // key, value and in-file columns of the spec copy stay legible
    dock_->setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea);
    window->addDockWidget(Qt::RightDockWidgetArea, dock_);
    dock_->hide();
    panel_->setBundledSpecs(bundledSpecs());
    // A spec to start from: the InfiniBand switch when it is bundled, else the first.
    if (const QStringList specs = bundledSpecs(); !specs.isEmpty()) {
        QString first = specs.front();
        for (const QString& path : specs)
            if (QFileInfo(path).completeBaseName() == QLatin1String("ib-switch")) first = path;
        showSpec(first);
    }

    connect(window, &MainWindow::tracesChanged, this, &WhatIfController::onTracesChanged);
    // The trace in view is the baseline offered while none is chosen.
    connect(window->tabs(), &QTabWidget::currentChanged, this, &WhatIfController::onTracesChanged);
    // A load that fails opens no tab: the loads being over is what a waiting run needs to know.
    connect(window->loader(), &TraceLoader::idle, this, &WhatIfController::tryPending);
    connect(panel_, &WhatIfPanel::specFileRequested, this,
            [this](const QString& path) { showSpec(path); });
    connect(panel_, &WhatIfPanel::runRequested, this,
            [this](const whatif::Scenario& s, const netsim::NetworkSpec&) { run(s); });
    connect(panel_, &WhatIfPanel::sweepRequested, this,
            [this](const whatif::Scenario& s, const netsim::NetworkSpec&) { sweep(s); });
    connect(panel_, &WhatIfPanel::cancelRequested, this, [this] {
        pending_.clear();
        job_->cancel();
        calibration_->cancel();
    });
    connect(calibration_, &BackgroundJob::started, this,
            [this](quint64, const QString& what) { panel_->setRunning(true, what); });
    connect(calibration_, &BackgroundJob::idle, this, [this] { panel_->setRunning(false); });
    connect(calibration_, &BackgroundJob::failed, this, [this](quint64, const QString& message) {
        window_->reportError(tr("Calibration failed"), message);
        emit calibrationEnded(false);
    });
    connect(calibration_, &BackgroundJob::cancelled, this,
            [this](quint64) { emit calibrationEnded(false); });
    connect(panel_, &WhatIfPanel::calibrateRequested, this, &WhatIfController::calibrate);
    connect(panel_, &WhatIfPanel::saveSpecRequested, this, &WhatIfController::saveSpecAs);
    connect(panel_, &WhatIfPanel::scenarioSaveRequested, this, &WhatIfController::saveScenario);
    connect(panel_, &WhatIfPanel::scenarioActivated, this, [this](int i) {
        if (i >= 0 && i < int(scenarios_.size())) showScenario(scenarios_[size_t(i)]);
    });
    connect(panel_, &WhatIfPanel::scenarioRunRequested, this, [this](int i) {
        if (i >= 0 && i < int(scenarios_.size())) start(scenarios_[size_t(i)]);
    });
    connect(panel_, &WhatIfPanel::scenarioRemoveRequested, this, [this](int i) {
        if (i < 0 || i >= int(scenarios_.size())) return;
        scenarios_.erase(scenarios_.begin() + i);
        panel_->setScenarios(scenarios_);
        emit scenariosChanged();
    });

    connect(job_, &WhatIfJob::started, this,
            [this](quint64, const QString& what) { panel_->setRunning(true, what); });
    connect(job_, &WhatIfJob::progressChanged, panel_, &WhatIfPanel::setProgress);
    connect(job_, &WhatIfJob::idle, this, [this] {
        panel_->setRunning(false);
        tryPending();
    });
    connect(job_, &WhatIfJob::finished, this,
            [this](quint64, const WhatIfOutcome& out) { openResult(out); });
    connect(job_, &WhatIfJob::failed, this, [this](quint64, const QString& message) {
        window_->reportError(tr("What-if run failed"), message);
        emit runEnded(false);
    });
    connect(job_, &WhatIfJob::cancelled, this, [this](quint64) {
        window_->statusBar()->showMessage(tr("What-if run cancelled"), 5000);
        emit runEnded(false);
    });
    connect(job_, &WhatIfJob::pointFinished, this, [this](quint64 id, const WhatIfOutcome& out) {
        auto* view = qobject_cast<SweepView*>(sweepTab_);
        if (id != sweepId_ || !view) return;
        SweepPlot::Point p;
        p.label = out.value;
        const auto sweepParam = view->property("rankscopeSweepParam").toString().toStdString();
        p.x = numericValue(sweepParam, out.value.toStdString()).first /
              view->property("rankscopeSweepDivisor").toDouble();
        if (out.predictedRuntimeNs) p.runtimeNs = double(*out.predictedRuntimeNs);
        // Per rank, so it reads on the same axis as the run time.
        if (out.waitNs && out.ranks > 0) p.waitNs = double(*out.waitNs) / out.ranks;
        if (out.effect && out.ranks > 0) {
            const whatif::ScenarioOutcome& e = *out.effect;
            p.mpiNs = double(e.edited.front().edited.mpiNs) / out.ranks;
            view->plot()->setBaseline(double(e.baseline.runNs),
                                      double(e.baseline.mpiNs) / out.ranks);
        }
        p.error = out.error;
        view->setPoint(out.point, p);
    });
    connect(job_, &WhatIfJob::sweepAnswered, this,
            [this](quint64 id, std::shared_ptr<const whatif::WhatIfResult> answer) {
                if (id != sweepId_) return;
                if (answer) panel_->specModel()->setEditWarnings(answer->idleEdits);
                emit answered(std::move(answer));
            });
    connect(job_, &WhatIfJob::sweepFinished, this, [this](quint64 id) {
        if (id != sweepId_) return;
        if (sweepTab_) emit sweepDone(window_->tabs()->indexOf(sweepTab_));
        emit runEnded(true);
    });
}

WhatIfController::~WhatIfController() = default;

QString WhatIfController::resourceDir()
{
    QStringList candidates;
    if (const QByteArray env = qgetenv("RANKSCOPE_RESOURCES"); !env.isEmpty())
        candidates << QString::fromLocal8Bit(env);
    // Installed: <prefix>/bin/rankscope and <prefix>/share/rankscope. Build tree: the configure
    // step links <build>/resources to the source's resources/, beside the binaries and one level
    // above the test executables (<build>/tests/).
    const QString app = QCoreApplication::applicationDirPath();
    candidates << app + QStringLiteral("/../share/rankscope") << app + QStringLiteral("/resources")
               << app + QStringLiteral("/../resources");
    for (const QString& c : candidates)
        if (QFileInfo(c + QStringLiteral("/networks")).isDir())
            return QDir::cleanPath(QFileInfo(c).absoluteFilePath());
    return {};
}

QStringList WhatIfController::bundledSpecs()
{
    const QString dir = resourceDir();
    if (dir.isEmpty()) return {};
    QStringList out;
    const QDir networks(dir + QStringLiteral("/networks"));
    for (const QString& f : networks.entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name))
        out << networks.absoluteFilePath(f);
    return out;
}

void WhatIfController::setScenarios(std::vector<whatif::Scenario> scenarios)
{
    scenarios_ = std::move(scenarios);
    panel_->setScenarios(scenarios_);
    emit scenariosChanged();
}

void WhatIfController::saveScenario(const whatif::Scenario& s)
{
    auto it = std::find_if(scenarios_.begin(), scenarios_.end(),
                           [&](const whatif::Scenario& o) { return o.name == s.name; });
    if (it != scenarios_.end())
        *it = s;
    else
        scenarios_.push_back(s);
    panel_->setScenarios(scenarios_);
    window_->statusBar()->showMessage(tr("Scenario '%1' saved").arg(qs(s.name)), 5000);
    emit scenariosChanged();
}

const whatif::Scenario* WhatIfController::scenario(const QString& name) const
{
    for (const whatif::Scenario& s : scenarios_)
        if (qs(s.name) == name) return &s;
    return nullptr;
}

QStringList WhatIfController::openResults() const
{
    QStringList names;
    for (const whatif::Scenario& r : resultScenarios()) {
        const whatif::Scenario* saved = scenario(qs(r.name));
        if (saved && *saved == r && !names.contains(qs(r.name))) names << qs(r.name);
    }
    return names;
}

std::vector<whatif::Scenario> WhatIfController::resultScenarios() const
{
    std::vector<whatif::Scenario> out;
    for (int i = 0; i < window_->tabs()->count(); ++i)
        if (const whatif::Scenario* s = resultScenario(i)) out.push_back(*s);
    return out;
}

const whatif::Scenario* WhatIfController::resultScenario(int tab) const
{
    const auto it = results_.find(window_->tabs()->widget(tab));
    return it != results_.end() ? &it->second : nullptr;
}

void WhatIfController::trackResult(QWidget* widget, const whatif::Scenario& s)
{
    results_[widget] = s;
    connect(widget, &QObject::destroyed, this, [this, widget] { results_.erase(widget); });
    emit resultsChanged();
}

void WhatIfController::showSpec(const QString& path,
                                const std::vector<netsim::SpecOverride>& overrides)
{
    try {
        panel_->setSpec(netsim::NetworkSpec::fromFile(QFile::encodeName(path).toStdString()),
                        overrides);
    } catch (const std::exception& e) {
        panel_->setSpecError(QString::fromLocal8Bit(e.what()));
    }
}

void WhatIfController::showScenario(const whatif::Scenario& s)
{
    try {
        panel_->setScenario(s, netsim::NetworkSpec::fromFile(whatif::findNetworkSpec(s.network)));
    } catch (const std::exception& e) {
        panel_->setSpecError(QString::fromLocal8Bit(e.what()));
    }
}

TraceDocument* WhatIfController::openDocument(const std::string& path) const
{
    for (int i = 0; i < window_->tabs()->count(); ++i)
        if (TraceDocument* doc = window_->document(i))
            if (!doc->data().path.isEmpty() && samePath(doc->data().path, qs(path))) return doc;
    return nullptr;
}

void WhatIfController::onTracesChanged()
{
    std::vector<WhatIfPanel::TraceChoice> choices;
    for (int i = 0; i < window_->tabs()->count(); ++i)
        if (TraceDocument* doc = window_->document(i); doc && !doc->data().path.isEmpty())
            choices.push_back({doc->data().name, doc->data().path,
                               doc->data().trace ? uint32_t(doc->data().trace->rankCount()) : 0u,
                               i == window_->tabs()->currentIndex()});
    panel_->setOpenTraces(choices);
    tryPending();
}

void WhatIfController::start(const whatif::Scenario& s)
{
    if (s.sweepParam.empty())
        run(s);
    else
        sweep(s);
}

bool WhatIfController::start(const QString& name)
{
    const whatif::Scenario* s = scenario(name);
    if (!s) return false;
    start(whatif::Scenario(*s));
    return true;
}

void WhatIfController::run(const whatif::Scenario& s)
{
    pending_.push_back({s, false});
    tryPending();
}

void WhatIfController::sweep(const whatif::Scenario& s)
{
    pending_.push_back({s, true});
    tryPending();
}

void WhatIfController::tryPending()
{
    // One job at a time: starting another would supersede (cancel) the running one, so queued
    // runs wait for it to end (the job's idle() comes back here).
    while (!pending_.empty() && !job_->busy()) {
        const Pending p = pending_.front();
        const whatif::Scenario& s = p.scenario;
        if (const std::string problem = whatif::validate(s); !problem.empty()) {
            pending_.erase(pending_.begin());
            window_->reportError(tr("Cannot run '%1'").arg(qs(s.name)), qs(problem));
            emit runEnded(false);
            continue;
        }
        // Open what the scenario needs (once) and come back when the loads are over.
        QStringList missing;
        std::vector<std::string> needed = s.baselines;
        if (!s.compareWith.empty()) needed.push_back(s.compareWith);
        for (const std::string& path : needed)
            if (!openDocument(path)) missing << qs(path);
        if (!missing.isEmpty()) {
            if (window_->isLoading()) return;
            if (!p.openRequested) {
                pending_.front().openRequested = true;
                window_->openTraces(missing);
                if (window_->isLoading()) return;
            }
            pending_.erase(pending_.begin());
            window_->reportError(tr("Cannot run '%1'").arg(qs(s.name)),
                                 tr("Its traces could not be opened:\n%1").arg(missing.join('\n')));
            emit runEnded(false);
            continue;
        }
        pending_.erase(pending_.begin());
        WhatIfRequest request;
        QString error;
        if (!makeRequest(s, request, error)) {
            window_->reportError(tr("Cannot run '%1'").arg(qs(s.name)), error);
            emit runEnded(false);
            continue;
        }
        if (p.sweep) {
            auto* view = new SweepView(window_->tabs());
            view->setProperty(kScenarioProperty, qs(s.name));
            view->setProperty("rankscopeSweepParam", qs(s.sweepParam));
            std::vector<SweepPlot::Point> points;
            ValueKind kind = ValueKind::Plain;
            double largest = 0;
            for (const std::string& v : s.sweepValues) {
                SweepPlot::Point pt;
                std::tie(pt.x, kind) = numericValue(s.sweepParam, v);
                largest = std::max(largest, pt.x);
                pt.label = qs(v);
                points.push_back(pt);
            }
            const auto [unit, divisor] = axisUnit(kind, largest);
            for (SweepPlot::Point& pt : points)
                pt.x /= divisor;
            view->setProperty("rankscopeSweepDivisor", divisor);
            view->setSweep(
                tr("%1: predicted run time against %2").arg(qs(s.name), qs(s.sweepParam)),
                qs(s.sweepParam), unit, points);
            const whatif::Scenario base = s;
            connect(view, &SweepView::pointActivated, this, [this, base](int i) {
                if (i < 0 || i >= int(base.sweepValues.size())) return;
                run(whatif::sweepPoint(base, size_t(i)));
            });
            const int tab = window_->tabs()->addTab(view, tr("Sweep: %1").arg(qs(s.name)));
            window_->tabs()->setTabToolTip(tab, qs(whatif::describe(s)));
            window_->tabs()->setCurrentIndex(tab);
            sweepTab_ = view;
            trackResult(view, s);
            sweepId_ = job_->sweep(std::move(request));
            emit sweepOpened(tab);
        } else {
            job_->run(std::move(request));
        }
        return; // one job at a time: the rest waits (starting another would supersede it)
    }
}

bool WhatIfController::makeRequest(const whatif::Scenario& s, WhatIfRequest& request,
                                   QString& error) const
{
    request.scenario = s;
    try {
        if (s.kind != whatif::ScenarioKind::Extrapolate || !s.network.empty())
            request.fileSpec = netsim::NetworkSpec::fromFile(whatif::findNetworkSpec(s.network));
        // Check the edits now, so a bad value is reported before anything runs.
        if (s.kind != whatif::ScenarioKind::Extrapolate)
            (void)request.fileSpec.withOverrides(whatif::allOverrides(s));
        if (!s.sweepParam.empty() && !whatif::isScenarioParam(s.sweepParam))
            for (const std::string& v : s.sweepValues)
                (void)request.fileSpec.withOverrides(
                    whatif::allOverrides(whatif::withParam(s, s.sweepParam, v)));
        if (!s.sweepParam.empty() && whatif::isScenarioParam(s.sweepParam))
            for (const std::string& v : s.sweepValues)
                (void)whatif::withParam(s, s.sweepParam, v);
    } catch (const std::exception& e) {
        error = QString::fromLocal8Bit(e.what());
        return false;
    }
    for (const std::string& b : s.baselines) {
        TraceDocument* doc = openDocument(b);
        if (!doc) {
            error = tr("%1 is not open").arg(qs(b));
            return false;
        }
        request.baselines.push_back(doc->data().trace);
        request.baselineNames << doc->data().name;
    }
    const std::string compare =
        !s.compareWith.empty()
            ? s.compareWith
            : (s.kind == whatif::ScenarioKind::Replay ? s.baselines.front() : std::string());
    if (!compare.empty())
        if (TraceDocument* doc = openDocument(compare)) request.compare = doc->data();
    if (!s.compareWith.empty()) request.measured = request.compare.trace;
    return true;
}

void WhatIfController::openResult(const WhatIfOutcome& out)
{
    QTabWidget* tabs = window_->tabs();
    const QString name = qs(out.scenario.name);
    if (out.answer) panel_->specModel()->setEditWarnings(out.answer->idleEdits);
    if (out.answer && out.answer->extrapolation) {
        // An extrapolation opens the extrapolation view of the pipeline's results.
        const ExtrapolationRun run = extrapolationRunOf(
            *out.answer->extrapolation, out, [this](const std::string& path) -> const LoadedTrace* {
                TraceDocument* doc = openDocument(path);
                return doc ? &doc->data() : nullptr;
            });
        const int tab = ExtrapolationJob::openResultTab(tabs, run);
        window_->statusBar()->showMessage(
            tr("'%1': extrapolated to %2 ranks").arg(name).arg(out.scenario.target), 8000);
        emit answered(out.answer);
        emit resultOpened(name, tab);
        emit runEnded(true);
        tryPending();
        return;
    }
    // A re-run replaces the scenario's old result tab.
    for (int i = tabs->count() - 1; i >= 0; --i)
        if (tabs->widget(i)->property(kScenarioProperty).toString() == name &&
            !qobject_cast<SweepView*>(tabs->widget(i))) {
            QWidget* old = tabs->widget(i);
            tabs->removeTab(i);
            results_.erase(old);
            old->deleteLater();
        }
    QWidget* widget = nullptr;
    if (out.comparison && out.compare.trace) {
        auto* view = new WhatIfComparison(tabs);
        view->setRuns(runOf(out.compare), runOf(out.result), out.comparison, name);
        view->setEffect(out.effect);
        view->setAnswer(out.answer);
        view->setNetwork(out.network);
        view->setEngines(enginesOf(out));
        for (int k = 0; k < 2; ++k)
            window_->applyViewOptions(view->timelines()->timeline(k));
        widget = view;
    } else {
        auto* doc = new TraceDocument(out.result, tabs);
        window_->applyViewOptions(doc->timeline());
        widget = doc;
    }
    widget->setProperty(kScenarioProperty, name);
    // What ran, as a run: re-running it must not turn it into a sweep.
    whatif::Scenario ran = out.scenario;
    ran.sweepParam.clear();
    ran.sweepValues.clear();
    trackResult(widget, ran);
    const int tab = tabs->addTab(widget, tr("What if: %1").arg(name));
    QString tip = qs(whatif::describe(out.scenario));
    if (!out.notes.isEmpty()) tip += QStringLiteral("\n") + out.notes.join('\n');
    tabs->setTabToolTip(tab, tip);
    openSimGridTab(window_, out, tab, kScenarioProperty); // SimGrid's trace next to it
    tabs->setCurrentIndex(tab);
    if (!out.simgridError.isEmpty())
        window_->reportError(tr("SimGrid run failed"), out.simgridError);
    if (out.predictedRuntimeNs)
        window_->statusBar()->showMessage(
            tr("'%1': predicted run time %2 ms")
                .arg(name)
                .arg(double(*out.predictedRuntimeNs) / 1e6, 0, 'f', 3),
            8000);
    emit answered(out.answer);
    emit resultOpened(name, tab);
    emit runEnded(true);
    tryPending();
}

void WhatIfController::calibrate()
{
    const whatif::Scenario s = panel_->scenario();
    TraceDocument* doc = s.baselines.empty() ? nullptr : openDocument(s.baselines.front());
    if (!doc || !doc->data().trace || s.network.empty()) {
        window_->reportError(tr("Cannot calibrate"),
                             tr("Choose a spec and an open baseline trace first."));
        emit calibrationEnded(false);
        return;
    }
    struct Outcome
    {
        std::vector<netsim::SpecOverride> overrides;
        bool applied = false;
        QString summary;
    };
    const std::shared_ptr<const Trace> trace = doc->data().trace;
    const QString name = doc->data().name;
    const std::string network = s.network, model = s.model;
    calibration_->start<Outcome>(
        tr("Calibrating to %1").arg(name),
        [trace, network, model](const ProgressCallback&, const BackgroundJob::Post&) {
            netsim::SimulationOptions o;
            o.model = model;
            // From the file itself: the calibration replaces an earlier one.
            const netsim::CalibrationChoice c = netsim::chooseCalibration(
                *trace, netsim::NetworkSpec::fromFile(whatif::findNetworkSpec(network)), o);
            Outcome out;
            out.overrides = c.overrides;
            out.applied = c.applied;
            out.summary =
                c.applied
                    ? tr("Calibrated: replay error %1 % on the spec, %2 % calibrated%3")
                          .arg(c.uncalibratedErrorPct, 0, 'f', 1)
                          .arg(c.appliedErrorPct, 0, 'f', 1)
                          .arg(c.partial ? tr(" (in part)") : QString())
                    : tr("Calibration not applied: the fit replays the trace %1 % from its run, "
                         "the spec itself %2 %")
                          .arg(c.calibratedErrorPct, 0, 'f', 1)
                          .arg(c.uncalibratedErrorPct, 0, 'f', 1);
            return out;
        },
        [this, name](quint64, Outcome out) {
            // A fit that replays the trace further from its run than the spec is not applied
            // (netsim::chooseCalibration, as `calibrate` decides).
            if (out.applied) panel_->applyCalibration(out.overrides, name);
            window_->statusBar()->showMessage(out.summary, 15000);
            emit calibrationEnded(out.applied);
        });
}

WhatIfComparison* WhatIfController::comparisonTab(int tab) const
{
    return qobject_cast<WhatIfComparison*>(window_->tabs()->widget(tab));
}

SweepView* WhatIfController::sweepTab(int tab) const
{
    return qobject_cast<SweepView*>(window_->tabs()->widget(tab));
}

} // namespace rankscope
