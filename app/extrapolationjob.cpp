#include "app/extrapolationjob.h"

#include "app/tracedocument.h"
#include "views/extrap/extrapolationview.h"
#include "views/extrap/extrapprogress.h"

#include <QDir>
#include <QFutureWatcher>
#include <QPromise>
#include <QTabWidget>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>
#include <exception>
#include <numeric>

namespace rankscope {

namespace {

constexpr int kProgressSteps = 1000;

} // namespace

ExtrapolationJob::ExtrapolationJob(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<rankscope::ExtrapolationRun>();
}

ExtrapolationJob::~ExtrapolationJob()
{
    drop();
    for (QFuture<ExtrapolationOutcome>& f : abandoned_)
        f.waitForFinished();
}

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
            // better-scored classic mode when Rankscope won.
            const int all = 2;
            const auto step = [&](extrap::Method method, extrap::Mode mode, int index) {
                o.method = method;
                o.mode = mode;
                o.progress = [&keepGoing, index, all](double f) {
                    return !keepGoing || keepGoing((index + std::clamp(f, 0.0, 1.0)) / all);
                };
                extrap::ExtrapolationResult r =
                    extrap::extrapolate(traces, o, request.measured.get());
                out.cancelled = out.cancelled || r.cancelled;
                return r;
            };
            extrap::ExtrapolationResult best =
                step(extrap::Method::Auto, extrap::Mode::Interval, 0);
            if (!out.cancelled) {
                run.autoChosen = best.method;
                run.candidates = best.candidates;
                extrap::Mode classicMode = extrap::Mode::Sum;
                double classicError = INFINITY;
                for (const extrap::MethodCandidate& c : best.candidates)
                    if (c.method == extrap::Method::Classic &&
                        c.estimate.heldOutErrorPct.value_or(INFINITY) < classicError) {
                        classicError = c.estimate.heldOutErrorPct.value_or(INFINITY);
                        classicMode = c.mode;
                    }
                const bool rankscopeWon = best.method == extrap::Method::Rankscope;
                (rankscopeWon ? run.rankscope : run.classic) = std::move(best);
                if (rankscopeWon)
                    run.classic = step(extrap::Method::Classic, classicMode, 1);
                else
                    run.rankscope = step(extrap::Method::Rankscope, extrap::Mode::Interval, 1);
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
    drop();
    request_ = request;
    id_ = nextId_++;
    fraction_ = 0;
    watcher_ = new QFutureWatcher<ExtrapolationOutcome>(this);
    const quint64 id = id_;
    connect(watcher_, &QFutureWatcherBase::progressValueChanged, this, [this, id](int value) {
        if (id != id_) return;
        fraction_ = double(value) / kProgressSteps;
        emit progressChanged(fraction_);
    });
    connect(watcher_, &QFutureWatcherBase::finished, this, &ExtrapolationJob::finish);
    const QString description = tr("Extrapolating to %1 ranks").arg(request.target);
    watcher_->setFuture(
        QtConcurrent::run([request = std::move(request)](QPromise<ExtrapolationOutcome>& promise) {
            promise.setProgressRange(0, kProgressSteps);
            ExtrapolationOutcome out = runNow(request, [&promise](double f) {
                promise.setProgressValue(int(f * kProgressSteps));
                return !promise.isCanceled();
            });
            if (!promise.isCanceled()) promise.addResult(std::move(out));
        }));
    emit started(id, description);
    emit progressChanged(0.0);
    return id;
}

void ExtrapolationJob::drop()
{
    if (!watcher_) return;
    // Forget the job first, so a result already queued is dropped as stale.
    watcher_->disconnect(this);
    watcher_->cancel();
    abandoned_.push_back(watcher_->future());
    watcher_->deleteLater();
    watcher_ = nullptr;
    std::erase_if(abandoned_,
                  [](const QFuture<ExtrapolationOutcome>& f) { return f.isFinished(); });
    emit cancelled(id_);
}

void ExtrapolationJob::cancel()
{
    if (!watcher_) return;
    drop();
    fraction_ = 0;
    emit idle();
}

void ExtrapolationJob::finish()
{
    if (!watcher_) return;
    QFutureWatcher<ExtrapolationOutcome>* w = watcher_;
    watcher_ = nullptr;
    w->deleteLater();
    const quint64 id = id_;
    const QFuture<ExtrapolationOutcome> future = w->future();
    fraction_ = 0;
    if (future.isCanceled() || future.resultCount() == 0) {
        emit cancelled(id);
    } else {
        const ExtrapolationOutcome out = future.result();
        if (!out.error.isEmpty())
            emit failed(id, out.error);
        else if (out.cancelled)
            emit cancelled(id);
        else
            emit finished(id, out.run);
    }
    emit idle();
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
