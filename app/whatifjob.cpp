#include "app/whatifjob.h"

#include "app/traceloader.h"
#include "importers/simgrid/simgridpeer.h"
#include "model/analysis/comparisondata.h"
#include "model/trace/traceerror.h"
#include "model/waits/waitstates.h"
#include "whatif/scenario/baselinecache.h"

#include <algorithm>
#include <thread>

namespace rankscope {

namespace {

// Shares of a whole run: the engine, the analysis of its trace, the comparison.
constexpr double kPredictShare = 0.6;
constexpr double kAnalyseShare = 0.3;

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

WhatIfJob::WhatIfJob(QObject* parent) : QObject(parent), job_(new BackgroundJob(this))
{
    qRegisterMetaType<rankscope::WhatIfOutcome>();
    connect(job_, &BackgroundJob::started, this, &WhatIfJob::started);
    connect(job_, &BackgroundJob::progressChanged, this, &WhatIfJob::progressChanged);
    connect(job_, &BackgroundJob::failed, this, &WhatIfJob::failed);
    connect(job_, &BackgroundJob::cancelled, this, &WhatIfJob::cancelled);
    connect(job_, &BackgroundJob::idle, this, &WhatIfJob::idle);
}

WhatIfJob::~WhatIfJob() = default; // job_ (a child) cancels and waits for its workers

whatif::WhatIfInputs WhatIfJob::inputsOf(const WhatIfRequest& request)
{
    whatif::WhatIfInputs in;
    in.fileSpec = request.fileSpec;
    in.baselines = request.baselines;
    // The scenario's paths name the inputs, as `scenario run` names them (the same JSON).
    in.names = request.scenario.baselines;
    in.measured = request.measured;
    in.measuredName = request.scenario.compareWith;
    return in;
}

void WhatIfJob::fill(WhatIfOutcome& out, std::shared_ptr<const whatif::WhatIfResult> answer,
                     const whatif::WhatIfPoint& p)
{
    out.scenario = p.scenario;
    out.point = p.index;
    out.value = qs(p.value);
    out.error = qs(p.error);
    out.ranks = p.ranks;
    if (p.error.empty()) {
        out.predictedRuntimeNs = p.predicted.runNs;
        out.waitNs = p.waitNs;
    }
    out.network = p.network;
    for (const std::string& n : answer->notes)
        out.notes << qs(n);
    for (const std::string& w : answer->warnings)
        out.notes << qs(w);
    // The effect of a replay's edit, as the pipeline computed it (the Summary's headline).
    if (answer->kind == whatif::ScenarioKind::Replay && answer->baseline && answer->measured &&
        p.error.empty()) {
        whatif::ScenarioOutcome e;
        e.name = answer->name;
        e.span = answer->span;
        e.measured = *answer->measured;
        e.baseline = *answer->baseline;
        e.calibrationErrorPct = answer->baselineErrorPct;
        whatif::EditedRun run;
        run.value = p.value;
        run.edited = p.predicted;
        run.effectNs = p.effectNs.value_or(0);
        run.effectPct = p.effectPct;
        run.mpiEffectNs = p.mpiEffectNs.value_or(0);
        e.edited.push_back(run);
        out.effect = std::move(e);
    }
    out.answer = std::move(answer);
}

WhatIfOutcome WhatIfJob::runNow(const WhatIfRequest& request,
                                const std::function<bool(double)>& progress)
{
    WhatIfOutcome out;
    out.scenario = request.scenario;
    out.compare = request.compare;
    const bool extrapolation = request.scenario.kind == whatif::ScenarioKind::Extrapolate;
    try {
        whatif::WhatIfOptions o;
        o.keepTrace = true;
        o.linkStats = true;
        o.peer = &bench::simgridPeer();
        // One cache for the application: every run and sweep point on a trace shares its
        // baseline replay.
        static whatif::BaselineCache cache;
        o.cache = &cache;
        o.progress = progressSlice(progress, 0.0, extrapolation ? 1.0 : kPredictShare);
        auto answer = std::make_shared<whatif::WhatIfResult>(
            whatif::runWhatIf(request.scenario, inputsOf(request), o));
        if (extrapolation) {
            out.answer = std::move(answer);
            return out;
        }
        std::shared_ptr<Trace> trace = answer->runs.front().trace;
        // The views analyse their own copy; the answer keeps only figures.
        answer->runs.front().trace.reset();
        std::optional<netsim::PeerRun> peer = answer->peer;
        if (peer) answer->peer->trace.reset();
        const QString peerError = qs(answer->peerError);
        fill(out, answer, answer->runs.front());
        out.compare = request.compare;
        LoadOutcome analysed = TraceLoader::analyseNow(
            trace, QString(), qs(request.scenario.name),
            progressSlice(progress, kPredictShare, kPredictShare + kAnalyseShare));
        if (analysed.cancelled || !analysed.error.isEmpty()) {
            out.cancelled = analysed.cancelled;
            out.error = analysed.error;
            return out;
        }
        out.result = std::move(analysed.loaded);
        const LoadedTrace& c = request.compare;
        if (c.trace && c.waits) {
            out.comparison =
                buildComparisonData(*c.trace, *c.waits, *out.result.trace, *out.result.waits,
                                    progressSlice(progress, kPredictShare + kAnalyseShare, 1.0));
            if (!out.comparison || out.comparison->cancelled) {
                out.cancelled = true;
                out.comparison.reset();
                return out;
            }
        }
        out.simgridError = peerError;
        if (peer && peer->trace) {
            LoadOutcome theirs = TraceLoader::analyseNow(
                peer->trace, QString(), tr("SimGrid: %1").arg(qs(request.scenario.name)), {});
            if (theirs.error.isEmpty() && !theirs.cancelled)
                out.simgridResult = std::move(theirs.loaded);
            else
                out.simgridError = theirs.error;
            peer->trace.reset();
        }
        out.simgrid = std::move(peer);
    } catch (const Cancelled&) {
        out.cancelled = true;
    } catch (const std::bad_alloc&) {
        out.error =
            QObject::tr("not enough memory for scenario '%1'").arg(qs(request.scenario.name));
    } catch (const std::exception& e) {
        out.error = QString::fromLocal8Bit(e.what());
    }
    return out;
}

quint64 WhatIfJob::run(WhatIfRequest request)
{
    const QString what = tr("Running '%1'").arg(qs(request.scenario.name));
    return job_->start<WhatIfOutcome>(
        what,
        [request = std::move(request)](const ProgressCallback& keepGoing,
                                       const BackgroundJob::Post&) {
            WhatIfOutcome out = runNow(request, keepGoing);
            if (out.cancelled) throw Cancelled();
            if (!out.error.isEmpty()) throw TraceError(out.error.toLocal8Bit().toStdString());
            return out;
        },
        [this](quint64 id, WhatIfOutcome out) { emit finished(id, out); });
}

quint64 WhatIfJob::sweep(WhatIfRequest request)
{
    const QString what = tr("Sweeping %1 over %2 values")
                             .arg(qs(request.scenario.sweepParam))
                             .arg(request.scenario.sweepValues.size());
    using Answer = std::shared_ptr<const whatif::WhatIfResult>;
    return job_->start<Answer>(
        what,
        [this, request = std::move(request)](const ProgressCallback& keepGoing,
                                             const BackgroundJob::Post& post) -> Answer {
            auto partial = std::make_shared<whatif::WhatIfResult>();
            whatif::WhatIfOptions o;
            o.threads = std::clamp<unsigned>(std::thread::hardware_concurrency(), 1u, 2u);
            static whatif::BaselineCache cache;
            o.cache = &cache;
            o.progress = keepGoing;
            // Each point as it ends, shown while the others run.
            o.onPoint = [&](const whatif::WhatIfPoint& p) {
                WhatIfOutcome out;
                fill(out, partial, p);
                post([this, out] { emit pointFinished(job_->currentId(), out); });
            };
            return std::make_shared<const whatif::WhatIfResult>(
                whatif::runWhatIf(request.scenario, inputsOf(request), o));
        },
        [this](quint64 id, Answer answer) {
            emit sweepAnswered(id, std::move(answer));
            emit sweepFinished(id);
        });
}

} // namespace rankscope
