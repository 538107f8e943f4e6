#include "app/traceloader.h"

#include "importers/rsum/resultsummary.h"
#include "importers/tracefile.h"
#include "model/analysis/traceanalysis.h"
#include "model/matching/clockcorrection.h"
#include "model/trace/traceerror.h"

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

// Share of the progress bar for reading (it dominates); the analysis passes share the rest.
constexpr double kReadShare = 0.7;
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
    // A Paraver, Paje or TI trace is one file among others in its folder; an OTF2 anchor names
    // its folder.
    if (isSingleFileTracePath(QFile::encodeName(path).toStdString())) return info.fileName();
    const QString folder = info.absoluteDir().dirName();
    return folder.isEmpty() ? info.fileName() : folder;
}

LoadOutcome TraceLoader::loadSummaryNow(const QString& path,
                                        const std::function<bool(double)>& keepGoing)
{
    LoadOutcome out;
    try {
        const std::string file = QFile::encodeName(path).toStdString();
        ResultSummary s = readResultSummary(file);
        if (keepGoing && !keepGoing(0.5)) throw Cancelled();
        // The pipeline on the definitions-only trace gives empty analyses of what a summary
        // does not keep (call tree, critical path, counters, messages) in no time; the stored
        // analyses then replace the others.
        out = analyseNow(s.trace, path, displayName(path), progressSlice(keepGoing, 0.5, 1.0));
        if (out.cancelled || !out.error.isEmpty()) return out;
        LoadedTrace& t = out.loaded;
        t.profile = std::make_shared<const Profile>(summaryProfile(s));
        t.timeline = std::make_shared<const TimelineSummary>(std::move(s.timeline));
        t.waitSummary = std::make_shared<const WaitSummary>(std::move(s.waitSummary));
        t.waits = std::make_shared<const WaitStateAnalysis>(std::move(s.waits));
        t.rootCauses = std::make_shared<const RootCauseReport>(std::move(s.rootCauses));
        t.headline.events = s.events; // the summarised trace's (the status bar shows it)
        t.fromSummary = true;
        t.summarySource = QString::fromStdString(s.source);
        t.summaryEvents = s.events;
    } catch (const Cancelled&) {
        out.cancelled = true;
    } catch (const std::bad_alloc&) {
        out.error = QObject::tr("%1: not enough memory to load this summary").arg(path);
    } catch (const std::exception& e) {
        out.error = QString::fromLocal8Bit(e.what());
    }
    out.loaded.path = path;
    out.loaded.name = displayName(path);
    return out;
}

LoadOutcome TraceLoader::loadNow(const QString& path, const std::function<bool(double)>& keepGoing,
                                 bool allowPartial)
{
    if (isResultSummaryPath(QFile::encodeName(path).toStdString()))
        return loadSummaryNow(path, keepGoing);
    return readAndAnalyse(path, displayName(path), {}, keepGoing, allowPartial);
}

LoadOutcome TraceLoader::readAndAnalyse(
    const QString& path, const QString& name,
    const std::function<std::vector<bool>(const std::vector<uint64_t>&)>& selectRanks,
    const std::function<bool(double)>& keepGoing, bool allowPartial)
{
    LoadOutcome out;
    out.loaded.path = path;
    out.loaded.name = name;
    try {
        Otf2ReadOptions options;
        options.allowPartial = allowPartial;
        options.threads = std::max(1u, std::thread::hardware_concurrency());
        options.progress = progressSlice(keepGoing, 0.0, kReadShare);
        options.selectRanks = selectRanks;
        auto trace =
            std::make_shared<Trace>(readTraceFile(QFile::encodeName(path).toStdString(), options));
        return analyseNow(std::move(trace), path, name, progressSlice(keepGoing, kReadShare, 1.0));
    } catch (const Cancelled&) {
        out.cancelled = true;
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
    // The core pipeline (model/analysis/traceanalysis.h), then the timeline's own indexes, which
    // walk the whole trace too: built here, not in the view.
    constexpr double kIndexShare = 0.05;
    LoadOutcome out;
    out.loaded.path = path;
    out.loaded.name = name;
    try {
        TraceAnalysis a =
            analyseTrace(std::move(trace), progressSlice(keepGoing, 0.0, 1.0 - kIndexShare));
        out.loaded.timelineIndex = TimelineIndex::build(*a.trace);
        if (keepGoing && !keepGoing(1.0)) throw Cancelled();
        out.loaded.headline = a.headline;
        out.loaded.trace = std::move(a.trace);
        out.loaded.timeline = std::move(a.timeline);
        out.loaded.profile = std::move(a.profile);
        out.loaded.waits = std::move(a.waits);
        out.loaded.rootCauses = std::move(a.rootCauses);
        out.loaded.callTree = std::move(a.callTree);
        out.loaded.criticalPath = std::move(a.criticalPath);
        out.loaded.waitSummary = std::move(a.waitSummary);
        out.loaded.metrics = std::move(a.metrics);
        out.loaded.messages = std::move(a.messages);
    } catch (const Cancelled&) {
        out.cancelled = true;
    } catch (const std::bad_alloc&) {
        out.error = QObject::tr("%1: not enough memory to analyse this trace").arg(name);
    } catch (const std::exception& e) {
        out.error = QString::fromLocal8Bit(e.what());
    }
    return out;
}

LoadOutcome TraceLoader::loadRanksNow(const QString& path, uint32_t firstRank, uint32_t endRank,
                                      const std::function<bool(double)>& keepGoing)
{
    const QString name =
        tr("%1 [ranks %2\u2013%3]").arg(displayName(path)).arg(firstRank).arg(endRank - 1);
    LoadOutcome out = readAndAnalyse(
        path, name,
        [firstRank, endRank](const std::vector<uint64_t>& events) {
            std::vector<bool> chosen(events.size(), false);
            for (uint32_t r = firstRank; r < endRank && r < events.size(); ++r)
                chosen[r] = true;
            return chosen;
        },
        keepGoing);
    out.loaded.firstRank = firstRank;
    out.loaded.endRank = endRank;
    return out;
}

quint64 TraceLoader::loadRanks(const QString& path, uint32_t firstRank, uint32_t endRank)
{
    return start(
        path,
        [path, firstRank, endRank](const std::function<bool(double)>& keepGoing) {
            return loadRanksNow(path, firstRank, endRank, keepGoing);
        },
        false);
}

quint64 TraceLoader::load(const QString& path, bool allowPartial)
{
    return start(
        path,
        [path, allowPartial](const std::function<bool(double)>& keepGoing) {
            return loadNow(path, keepGoing, allowPartial);
        },
        false);
}

LoadOutcome TraceLoader::correctNow(const LoadedTrace& loaded,
                                    const std::function<bool(double)>& keepGoing)
{
    // The correction itself has no progress of its own (one pass over the events); it gets
    // the first share, the analysis of the corrected trace the rest.
    constexpr double kCorrectShare = 0.2;
    LoadOutcome out;
    try {
        auto trace = std::make_shared<Trace>(*loaded.trace);
        const auto correction =
            std::make_shared<const ClockCorrection>(rankscope::correctClocks(*trace));
        if (keepGoing && !keepGoing(kCorrectShare)) throw Cancelled();
        out = analyseNow(std::move(trace), loaded.path, loaded.name,
                         progressSlice(keepGoing, kCorrectShare, 1.0));
        if (!out.cancelled && out.error.isEmpty()) {
            out.loaded.clockCorrection = correction;
            out.loaded.uncorrected = std::make_shared<const LoadedTrace>(loaded);
        }
    } catch (const Cancelled&) {
        out.cancelled = true;
    } catch (const std::bad_alloc&) {
        out.error = QObject::tr("%1: not enough memory to correct the clocks").arg(loaded.name);
    } catch (const std::exception& e) {
        out.error = QString::fromLocal8Bit(e.what());
    }
    return out;
}

quint64 TraceLoader::correctClocks(const LoadedTrace& loaded)
{
    return start(
        loaded.path,
        [loaded](const std::function<bool(double)>& keepGoing) {
            return correctNow(loaded, keepGoing);
        },
        true);
}

quint64 TraceLoader::start(const QString& path, Work work, bool correction)
{
    for (auto it = jobs_.begin(); it != jobs_.end();) {
        const auto next = std::next(it);
        if (it->second.path == path) drop(it->first);
        it = next;
    }
    const quint64 id = nextId_++;
    auto* watcher = new QFutureWatcher<LoadOutcome>(this);
    jobs_[id] = Job{path, watcher, 0.0, correction};
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this, [this, id](int value) {
        auto it = jobs_.find(id);
        if (it == jobs_.end()) return;
        it->second.fraction = double(value) / kProgressSteps;
        emit progressChanged(progress());
    });
    connect(watcher, &QFutureWatcherBase::finished, this, [this, id] { finish(id); });
    watcher->setFuture(QtConcurrent::run([work = std::move(work)](QPromise<LoadOutcome>& promise) {
        promise.setProgressRange(0, kProgressSteps);
        LoadOutcome out = work([&promise](double f) {
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
    if (future.isCanceled() || future.resultCount() == 0 || future.result().cancelled) {
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

bool TraceLoader::oldestIsCorrection() const
{
    return !jobs_.empty() && jobs_.begin()->second.correction;
}

} // namespace rankscope
