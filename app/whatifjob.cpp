#include "app/whatifjob.h"

#include "app/traceloader.h"
#include "app/whatifsimgrid.h"
#include "model/analysis/comparisondata.h"
#include "model/trace/traceerror.h"
#include "model/waits/waitstates.h"
#include "whatif/extrap/synthesis.h"
#include "whatif/netsim/simulation.h"
#include "whatif/scenario/baselinecache.h"
#include "whatif/scenario/scenarioexec.h"

#include <QFutureWatcher>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

namespace rankscope {

namespace {

constexpr int kProgressSteps = 1000;
// Shares of a whole run: the engine, the analysis of its trace, the comparison.
constexpr double kPredictShare = 0.6;
constexpr double kAnalyseShare = 0.3;
// With the SimGrid engine, Rankscope's part of the bar (smpirun and its analysis take the rest).
constexpr double kRankscopeShare = 0.4;

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

WhatIfJob::WhatIfJob(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<rankscope::WhatIfOutcome>();
}

WhatIfJob::~WhatIfJob()
{
    drop();
    for (QFuture<WhatIfOutcome>& f : abandoned_)
        f.waitForFinished();
}

std::shared_ptr<Trace> WhatIfJob::predict(const WhatIfRequest& request, const whatif::Scenario& s,
                                          const std::function<bool(double)>& keepGoing,
                                          int64_t* runtimeNs, QStringList* notes, int64_t* mpiNs,
                                          std::shared_ptr<const netsim::NetworkPicture>* network)
{
    whatif::ScenarioInputs in;
    in.fileSpec = request.fileSpec;
    in.traces = request.baselines;
    for (const QString& name : request.baselineNames)
        in.names.push_back(name.toStdString());
    in.linkStats = network != nullptr;
    try {
        whatif::ScenarioRunResult r = whatif::runScenario(s, in, keepGoing);
        if (runtimeNs) *runtimeNs = r.runtimeNs;
        if (mpiNs) *mpiNs = r.mpiNs;
        if (network) *network = std::move(r.network);
        if (notes)
            for (const std::string& n : r.notes)
                *notes << qs(n);
        return std::move(r.trace);
    } catch (const Cancelled&) {
        return nullptr;
    }
}

std::optional<whatif::ScenarioOutcome> WhatIfJob::effectOf(const WhatIfRequest& request,
                                                           const whatif::Scenario& s,
                                                           int64_t runtimeNs, int64_t mpiNs,
                                                           const std::string& value)
{
    if (s.kind != whatif::ScenarioKind::Replay || request.baselines.empty()) return std::nullopt;
    // One cache for the application: every run and sweep point on a trace shares its baseline.
    static whatif::BaselineCache cache;
    const whatif::BaselineReplay base = cache.get(
        request.baselines.front(), request.fileSpec.withOverrides(s.baselineOverrides), s.model);
    return whatif::outcomeOf(s.name, base, {whatif::editedRun(value, base, {runtimeNs, mpiNs})});
}

WhatIfOutcome WhatIfJob::runNow(const WhatIfRequest& request,
                                const std::function<bool(double)>& progress)
{
    const bool withSimGrid = request.scenario.engine == "simgrid";
    const ProgressCallback keepGoing =
        withSimGrid ? progressSlice(progress, 0.0, kRankscopeShare) : progress;
    WhatIfOutcome out = runRankscope(request, keepGoing);
    if (withSimGrid && !out.cancelled && out.error.isEmpty())
        runSimGridSide(request, out, progressSlice(progress, kRankscopeShare, 1.0));
    return out;
}

WhatIfOutcome WhatIfJob::runRankscope(const WhatIfRequest& request,
                                      const std::function<bool(double)>& keepGoing)
{
    WhatIfOutcome out;
    out.scenario = request.scenario;
    out.compare = request.compare;
    try {
        int64_t runtime = 0, mpi = 0;
        std::shared_ptr<Trace> trace =
            predict(request, request.scenario, progressSlice(keepGoing, 0.0, kPredictShare),
                    &runtime, &out.notes, &mpi, &out.network);
        if (!trace) {
            out.cancelled = true;
            return out;
        }
        out.predictedRuntimeNs = runtime;
        out.effect = effectOf(request, request.scenario, runtime, mpi);
        LoadOutcome analysed = TraceLoader::analyseNow(
            trace, QString(), qs(request.scenario.name),
            progressSlice(keepGoing, kPredictShare, kPredictShare + kAnalyseShare));
        if (analysed.cancelled || !analysed.error.isEmpty()) {
            out.cancelled = analysed.cancelled;
            out.error = analysed.error;
            return out;
        }
        out.result = std::move(analysed.loaded);
        out.waitNs = out.result.waits->totalNs;
        out.ranks = uint32_t(out.result.trace->rankCount());
        const LoadedTrace& c = request.compare;
        if (c.trace && c.waits) {
            out.comparison =
                buildComparisonData(*c.trace, *c.waits, *out.result.trace, *out.result.waits,
                                    progressSlice(keepGoing, kPredictShare + kAnalyseShare, 1.0));
            if (!out.comparison || out.comparison->cancelled) {
                out.cancelled = true;
                out.comparison.reset();
            }
        }
    } catch (const std::bad_alloc&) {
        out.error =
            QObject::tr("not enough memory for scenario '%1'").arg(qs(request.scenario.name));
    } catch (const std::exception& e) {
        out.error = QString::fromLocal8Bit(e.what());
    }
    return out;
}

WhatIfOutcome WhatIfJob::pointNow(const WhatIfRequest& request, int index,
                                  const std::function<bool(double)>& keepGoing)
{
    WhatIfOutcome out;
    out.point = index;
    const whatif::Scenario& base = request.scenario;
    out.value = qs(base.sweepValues.at(size_t(index)));
    try {
        out.scenario = whatif::sweepPoint(base, size_t(index));
        int64_t runtime = 0, mpi = 0;
        std::shared_ptr<Trace> trace = predict(
            request, out.scenario, progressSlice(keepGoing, 0.0, 0.85), &runtime, &out.notes, &mpi);
        if (!trace) {
            out.cancelled = true;
            return out;
        }
        WaitStateOptions w;
        w.progress = progressSlice(keepGoing, 0.85, 1.0);
        const WaitStateAnalysis waits = analyzeWaitStates(*trace, w);
        if (waits.cancelled) {
            out.cancelled = true;
            return out;
        }
        out.predictedRuntimeNs = runtime;
        out.effect = effectOf(request, out.scenario, runtime, mpi, base.sweepValues[size_t(index)]);
        out.waitNs = waits.totalNs;
        out.ranks = uint32_t(trace->rankCount());
    } catch (const std::bad_alloc&) {
        out.error = QObject::tr("not enough memory");
    } catch (const std::exception& e) {
        out.error = QString::fromLocal8Bit(e.what());
    }
    return out;
}

quint64 WhatIfJob::run(WhatIfRequest request)
{
    const QString what = tr("Running '%1'").arg(qs(request.scenario.name));
    return launch(
        QtConcurrent::run([request = std::move(request)](QPromise<WhatIfOutcome>& promise) {
            promise.setProgressRange(0, kProgressSteps);
            WhatIfOutcome out = runNow(request, [&promise](double f) {
                promise.setProgressValue(int(f * kProgressSteps));
                return !promise.isCanceled();
            });
            if (!promise.isCanceled()) promise.addResult(std::move(out), 0);
        }),
        false, what);
}

quint64 WhatIfJob::sweep(WhatIfRequest request)
{
    const QString what = tr("Sweeping %1 over %2 values")
                             .arg(qs(request.scenario.sweepParam))
                             .arg(request.scenario.sweepValues.size());
    const int points = int(request.scenario.sweepValues.size());
    const quint64 id =
        launch(QtConcurrent::run([request = std::move(request)](QPromise<WhatIfOutcome>& promise) {
                   const size_t n = request.scenario.sweepValues.size();
                   promise.setProgressRange(0, kProgressSteps);
                   // Points run on up to two threads (the engines are single-threaded); each
                   // point's fraction counts 1/n of the bar.
                   std::vector<double> fractions(n, 0.0);
                   std::mutex m;
                   std::atomic<size_t> next{0};
                   const auto worker = [&] {
                       for (size_t i; (i = next.fetch_add(1)) < n && !promise.isCanceled();) {
                           WhatIfOutcome out = pointNow(request, int(i), [&, i](double f) {
                               std::lock_guard lock(m);
                               fractions[i] = f;
                               double sum = 0;
                               for (double x : fractions)
                                   sum += x;
                               promise.setProgressValue(int(sum / double(n) * kProgressSteps));
                               return !promise.isCanceled();
                           });
                           std::lock_guard lock(m);
                           if (!promise.isCanceled() && !out.cancelled)
                               promise.addResult(std::move(out), int(i));
                       }
                   };
                   const unsigned threads =
                       std::clamp<unsigned>(std::thread::hardware_concurrency(), 1u, 2u);
                   std::thread second;
                   if (threads > 1 && n > 1) second = std::thread(worker);
                   worker();
                   if (second.joinable()) second.join();
               }),
               true, what);
    points_ = points;
    return id;
}

quint64 WhatIfJob::launch(QFuture<WhatIfOutcome> future, bool sweep, const QString& description)
{
    drop();
    id_ = nextId_++;
    sweeping_ = sweep;
    delivered_.clear();
    points_ = 0;
    fraction_ = 0;
    watcher_ = new QFutureWatcher<WhatIfOutcome>(this);
    connect(watcher_, &QFutureWatcherBase::progressValueChanged, this, [this](int value) {
        fraction_ = double(value) / kProgressSteps;
        emit progressChanged(fraction_);
    });
    connect(watcher_, &QFutureWatcherBase::resultReadyAt, this, &WhatIfJob::onResult);
    connect(watcher_, &QFutureWatcherBase::finished, this, &WhatIfJob::finish);
    watcher_->setFuture(future);
    emit started(id_, description);
    emit progressChanged(0.0);
    return id_;
}

void WhatIfJob::onResult(int index)
{
    if (!watcher_ || !sweeping_) return;
    const QFuture<WhatIfOutcome> future = watcher_->future();
    if (delivered_.contains(index) || !future.isResultReadyAt(index)) return;
    delivered_.insert(index);
    emit pointFinished(id_, future.resultAt(index));
}

void WhatIfJob::finish()
{
    if (!watcher_) return;
    QFutureWatcher<WhatIfOutcome>* w = watcher_;
    watcher_ = nullptr;
    w->deleteLater();
    const quint64 id = id_;
    const QFuture<WhatIfOutcome> future = w->future();
    fraction_ = 0;
    emit progressChanged(0.0);
    if (future.isCanceled()) {
        emit cancelled(id);
    } else if (sweeping_) {
        // Points whose ready report never came (a range reported as [i, j) with j <= i).
        for (int i = 0; i < std::max(points_, future.resultCount()); ++i)
            if (!delivered_.contains(i) && future.isResultReadyAt(i)) {
                delivered_.insert(i);
                emit pointFinished(id, future.resultAt(i));
            }
        emit sweepFinished(id);
    } else if (future.resultCount() == 0) {
        emit cancelled(id);
    } else {
        const WhatIfOutcome out = future.resultAt(0);
        if (out.cancelled)
            emit cancelled(id);
        else if (!out.error.isEmpty())
            emit failed(id, out.error);
        else
            emit finished(id, out);
    }
    emit idle();
}

void WhatIfJob::drop()
{
    if (!watcher_) return;
    QFutureWatcher<WhatIfOutcome>* w = watcher_;
    watcher_ = nullptr;
    // Forget the job first, so a result already queued is dropped.
    w->disconnect(this);
    w->cancel();
    abandoned_.push_back(w->future());
    w->deleteLater();
    std::erase_if(abandoned_, [](const QFuture<WhatIfOutcome>& f) { return f.isFinished(); });
    fraction_ = 0;
    emit progressChanged(0.0);
    emit cancelled(id_);
    emit idle();
}

void WhatIfJob::cancel()
{
    drop();
}

} // namespace rankscope
