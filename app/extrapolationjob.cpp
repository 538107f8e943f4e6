#include "app/extrapolationjob.h"

#include "app/tracedocument.h"
#include "views/extrap/extrapolationview.h"
#include "views/extrap/extrapprogress.h"
#include "whatif/scenario/whatifpipeline.h"

#include <QDir>
#include <QTabWidget>
#include <algorithm>
#include <cmath>
#include <exception>
#include <numeric>

namespace rankscope {

ExtrapolationJob::ExtrapolationJob(QObject* parent) : QObject(parent), job_(new BackgroundJob(this))
{
    qRegisterMetaType<rankscope::ExtrapolationRun>();
    connect(job_, &BackgroundJob::started, this, &ExtrapolationJob::started);
    connect(job_, &BackgroundJob::progressChanged, this, &ExtrapolationJob::progressChanged);
    connect(job_, &BackgroundJob::failed, this, &ExtrapolationJob::failed);
    connect(job_, &BackgroundJob::cancelled, this, &ExtrapolationJob::cancelled);
    connect(job_, &BackgroundJob::idle, this, &ExtrapolationJob::idle);
}

ExtrapolationJob::~ExtrapolationJob() = default; // job_ (a child) cancels and waits

ExtrapolationOutcome ExtrapolationJob::runNow(const ExtrapolationRequest& request,
                                              const std::function<bool(double)>& keepGoing)
{
    ExtrapolationOutcome out;
    ExtrapolationRun& run = out.run;
    run.target = request.target;
    run.measured = request.measured;
    run.measuredName = request.measured ? request.measuredName : QString();
    // Names in ascending scale, as the results list the scales.
    std::vector<size_t> order(request.traces.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return request.traces[a]->rankCount() < request.traces[b]->rankCount();
    });
    for (size_t i : order)
        run.traceNames << request.names.value(qsizetype(i));

    std::vector<const Trace*> traces;
    extrap::ExtrapolationOptions o;
    o.target = request.target;
    o.bins = request.bins;
    for (size_t i = 0; i < request.traces.size(); ++i) {
        traces.push_back(request.traces[i].get());
        o.traceNames.push_back(request.names.value(qsizetype(i)).toStdString());
    }
    const int runs = (request.rankscope ? 1 : 0) + (request.classic ? 1 : 0);
    int done = 0;
    const auto one = [&](extrap::Method method, extrap::Mode mode) {
        o.method = method;
        o.mode = mode;
        const double base = double(done) / runs;
        o.progress = [&keepGoing, base, runs](double f) {
            return !keepGoing || keepGoing(base + std::clamp(f, 0.0, 1.0) / runs);
        };
        extrap::ExtrapolationResult r = extrap::extrapolate(traces, o, request.measured.get());
        ++done;
        out.cancelled = out.cancelled || r.cancelled;
        return r;
    };
    try {
        if (request.automatic) {
            // The automatic choice, then the other method so the view can switch to it: the
            // what-if pipeline's policy (whatif::runExtrapolation), as a scenario would run it.
            whatif::Scenario sc;
            sc.name = "extrapolation";
            sc.kind = whatif::ScenarioKind::Extrapolate;
            sc.method = "auto";
            sc.target = request.target;
            whatif::WhatIfInputs in;
            in.baselines = request.traces;
            for (size_t i = 0; i < request.traces.size(); ++i) {
                sc.baselines.push_back(request.names.value(qsizetype(i)).toStdString());
                in.names.push_back(sc.baselines.back());
            }
            in.measured = request.measured;
            try {
                whatif::WhatIfExtrapolation e =
                    whatif::runExtrapolation(sc, in, keepGoing, request.bins);
                run.autoChosen = e.autoChosen;
                run.candidates = std::move(e.candidates);
                run.rankscope = std::move(e.rankscope);
                run.classic = std::move(e.classic);
            } catch (const Cancelled&) {
                out.cancelled = true;
            }
        } else {
            if (runs == 0)
                throw std::invalid_argument("choose the Rankscope or the classic method");
            if (request.rankscope)
                run.rankscope = one(extrap::Method::Rankscope, extrap::Mode::Interval);
            if (!out.cancelled && request.classic)
                run.classic = one(extrap::Method::Classic, request.classicMode);
        }
    } catch (const std::bad_alloc&) {
        out.error = QObject::tr("not enough memory for this extrapolation");
    } catch (const std::exception& e) {
        out.error = QString::fromLocal8Bit(e.what());
    }
    return out;
}

quint64 ExtrapolationJob::start(ExtrapolationRequest request)
{
    request_ = request;
    const QString description = tr("Extrapolating to %1 ranks").arg(request.target);
    return job_->start<ExtrapolationRun>(
        description,
        [request = std::move(request)](const ProgressCallback& keepGoing,
                                       const BackgroundJob::Post&) {
            ExtrapolationOutcome out = runNow(request, keepGoing);
            if (!out.error.isEmpty()) throw TraceError(out.error.toLocal8Bit().toStdString());
            if (out.cancelled) throw Cancelled();
            return out.run;
        },
        [this](quint64 id, ExtrapolationRun run) { emit finished(id, run); });
}

void ExtrapolationJob::cancel()
{
    job_->cancel();
}

ExtrapProgress* ExtrapolationJob::createStatusWidget(QWidget* parent)
{
    auto* strip = new ExtrapProgress(parent);
    connect(this, &ExtrapolationJob::started, strip, [strip](quint64, const QString& text) {
        strip->setBusy(true, text + QStringLiteral("…"));
    });
    connect(this, &ExtrapolationJob::progressChanged, strip, &ExtrapProgress::setProgress);
    connect(this, &ExtrapolationJob::idle, strip, [strip] { strip->setBusy(false); });
    connect(strip, &ExtrapProgress::cancelRequested, this, &ExtrapolationJob::cancel);
    return strip;
}

int ExtrapolationJob::openResultTab(QTabWidget* tabs, const ExtrapolationRun& run)
{
    auto* view = new ExtrapolationView(tabs);
    view->setRun(run);
    int position = tabs->count();
    if (const auto measured = run.measured.lock())
        for (int i = 0; i < tabs->count(); ++i)
            if (auto* doc = qobject_cast<TraceDocument*>(tabs->widget(i));
                doc && doc->data().trace == measured) {
                position = i + 1;
                break;
            }
    const int index =
        tabs->insertTab(position, view, tr("Extrapolation to %1 ranks").arg(run.target));
    QString tip = tr("Extrapolated from %1").arg(run.traceNames.join(QStringLiteral(", ")));
    if (!run.measuredName.isEmpty()) tip += tr("; measured: %1").arg(run.measuredName);
    tabs->setTabToolTip(index, tip);
    tabs->setCurrentIndex(index);
    return index;
}

} // namespace rankscope
