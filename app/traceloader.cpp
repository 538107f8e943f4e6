#include "app/traceloader.h"

#include "importers/otf2reader.h"
#include "model/traceerror.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <exception>
#include <thread>

namespace rankscope {

namespace {

// Share of the progress bar per stage: reading dominates; summary, profile, wait states and root
// causes are one pass each.
constexpr double kReadShare = 0.7;
constexpr double kSummaryShare = 0.1;
constexpr double kProfileShare = 0.06;
constexpr double kWaitShare = 0.08;
constexpr int kProgressSteps = 1000;

} // namespace

TraceLoader::TraceLoader(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<rankscope::LoadedTrace>();
}

TraceLoader::~TraceLoader()
{
    cancelAll();
    for (QFuture<LoadOutcome>& f : abandoned_)
        f.waitForFinished();
}

QString TraceLoader::displayName(const QString& path)
{
    const QFileInfo info(path);
    if (info.isDir()) return QDir(info.absoluteFilePath()).dirName();
    const QString folder = info.absoluteDir().dirName();
    return folder.isEmpty() ? info.fileName() : folder;
}

namespace {

/// keepGoing for the part [base, base + share] of the whole job.
std::function<bool(double)> stageOf(const std::function<bool(double)>& keepGoing, double base,
                                    double share)
{
    return [keepGoing, base, share](double f) {
        return !keepGoing || keepGoing(base + share * std::clamp(f, 0.0, 1.0));
    };
}

} // namespace

LoadOutcome TraceLoader::loadNow(const QString& path, const std::function<bool(double)>& keepGoing)
{
    LoadOutcome out;
    out.loaded.path = path;
    out.loaded.name = displayName(path);
    try {
        Otf2ReadOptions options;
        options.threads = std::max(1u, std::thread::hardware_concurrency());
        options.progress = stageOf(keepGoing, 0.0, kReadShare);
        auto trace =
            std::make_shared<Trace>(readOtf2(QFile::encodeName(path).toStdString(), options));
        return analyseNow(std::move(trace), path, out.loaded.name,
                          stageOf(keepGoing, kReadShare, 1.0 - kReadShare));
    } catch (const std::bad_alloc&) {
        out.error = QObject::tr("%1: not enough memory to load this trace").arg(path);
    } catch (const std::exception& e) {
        out.error = QString::fromLocal8Bit(e.what());
    }
    return out;
}

LoadOutcome TraceLoader::analyseNow(std::shared_ptr<const Trace> trace, const QString& path,
                                    const QString& name,
                                    const std::function<bool(double)>& keepGoing)
{
    // Shares of the analysis after reading: summary, profile, wait states, root causes.
    constexpr double kRest = 1.0 - kReadShare;
    constexpr double kSummary = kSummaryShare / kRest;
    constexpr double kProfile = kProfileShare / kRest;
    constexpr double kWait = kWaitShare / kRest;
    LoadOutcome out;
    out.loaded.path = path;
    out.loaded.name = name;
    try {
        const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
        auto summary = std::make_shared<TimelineSummary>(
            TimelineSummary::build(*trace, stageOf(keepGoing, 0.0, kSummary), threads));
        if (summary->cancelled()) throw TraceError("cancelled");

        double done = kSummary;
        auto profile =
            std::make_shared<Profile>(computeProfile(*trace, stageOf(keepGoing, done, kProfile)));
        if (profile->cancelled) throw TraceError("cancelled");
        done += kProfile;

        WaitStateOptions waitOptions;
        waitOptions.progress = stageOf(keepGoing, done, kWait);
        auto waits = std::make_shared<WaitStateAnalysis>(analyzeWaitStates(*trace, waitOptions));
        if (waits->cancelled) throw TraceError("cancelled");
        done += kWait;
        RootCauseOptions causeOptions;
        causeOptions.progress = stageOf(keepGoing, done, 1.0 - done);
        auto causes =
            std::make_shared<RootCauseReport>(analyzeRootCauses(*trace, *waits, causeOptions));
        if (causes->cancelled) throw TraceError("cancelled");
        out.loaded.waitSummary = std::make_shared<WaitSummary>(
            WaitSummary::build(*waits, trace->rankCount(), trace->beginTime(), trace->endTime()));
        // The timeline's own indexes walk the whole trace too: build them here, not in the view.
        out.loaded.timelineIndex = TimelineIndex::build(*trace);
        if (keepGoing && !keepGoing(1.0)) throw TraceError("cancelled");

        out.loaded.headline = summarizeTrace(*trace);
        out.loaded.trace = std::move(trace);
        out.loaded.timeline = std::move(summary);
        out.loaded.profile = std::move(profile);
        out.loaded.waits = std::move(waits);
        out.loaded.rootCauses = std::move(causes);
    } catch (const std::bad_alloc&) {
        out.error = QObject::tr("%1: not enough memory to analyse this trace").arg(name);
    } catch (const std::exception& e) {
        out.error = QString::fromLocal8Bit(e.what());
    }
    return out;
}

quint64 TraceLoader::load(const QString& path)
{
    for (auto it = jobs_.begin(); it != jobs_.end();) {
        const auto next = std::next(it);
        if (it->second.path == path) drop(it->first);
        it = next;
    }
    const quint64 id = nextId_++;
    auto* watcher = new QFutureWatcher<LoadOutcome>(this);
    jobs_[id] = Job{path, watcher, 0.0};
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this, [this, id](int value) {
        auto it = jobs_.find(id);
        if (it == jobs_.end()) return;
        it->second.fraction = double(value) / kProgressSteps;
        emit progressChanged(progress());
    });
    connect(watcher, &QFutureWatcherBase::finished, this, [this, id] { finish(id); });
    watcher->setFuture(QtConcurrent::run([path](QPromise<LoadOutcome>& promise) {
        promise.setProgressRange(0, kProgressSteps);
        LoadOutcome out = loadNow(path, [&promise](double f) {
            promise.setProgressValue(int(f * kProgressSteps));
            return !promise.isCanceled();
        });
        if (!promise.isCanceled()) promise.addResult(std::move(out));
    }));
    emit progressChanged(progress());
    return id;
}

void TraceLoader::drop(quint64 id)
{
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return;
    const Job job = it->second;
    jobs_.erase(it);
    // Forget the job before anything else, so a result already queued is dropped.
    job.watcher->disconnect(this);
    job.watcher->cancel();
    abandoned_.push_back(job.watcher->future());
    job.watcher->deleteLater();
    std::erase_if(abandoned_, [](const QFuture<LoadOutcome>& f) { return f.isFinished(); });
    emit cancelled(id, job.path);
}

void TraceLoader::cancelAll()
{
    if (jobs_.empty()) return;
    std::vector<quint64> ids;
    for (const auto& [id, job] : jobs_)
        ids.push_back(id);
    for (const quint64 id : ids)
        drop(id);
    emit progressChanged(0.0);
    emit idle();
}

void TraceLoader::finish(quint64 id)
{
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return; // cancelled or superseded: stale
    const Job job = it->second;
    jobs_.erase(it);
    job.watcher->deleteLater();
    const QFuture<LoadOutcome> future = job.watcher->future();
    if (future.isCanceled() || future.resultCount() == 0) {
        emit cancelled(id, job.path);
    } else {
        const LoadOutcome out = future.result();
        if (out.error.isEmpty())
            emit loaded(id, out.loaded);
        else
            emit failed(id, job.path, out.error);
    }
    emit progressChanged(progress());
    if (jobs_.empty()) emit idle();
}

double TraceLoader::progress() const
{
    if (jobs_.empty()) return 0.0;
    double sum = 0;
    for (const auto& [id, job] : jobs_)
        sum += job.fraction;
    return sum / double(jobs_.size());
}

QStringList TraceLoader::pendingPaths() const
{
    QStringList paths;
    for (const auto& [id, job] : jobs_)
        paths << job.path;
    return paths;
}

} // namespace rankscope
