#pragma once
// Loads traces off the GUI thread: each job reads the OTF2 archive (on all cores), then builds
// the timeline summary and the profile, reporting one throttled progress fraction over the
// three stages. Jobs carry ids; results come back by queued signal and are dropped when their
// job was cancelled or superseded (a newer load of the same path) in the meantime, so a late
// result never opens a half-wanted document.

#include "app/loadedtrace.h"

#include <QFuture>
#include <QObject>
#include <QString>
#include <functional>
#include <map>
#include <memory>
#include <vector>

template <class T> class QFutureWatcher;

namespace rankscope {

class TraceLoader : public QObject
{
    Q_OBJECT
public:
    explicit TraceLoader(QObject* parent = nullptr);
    /// Cancels every job and waits for the workers to stop.
    ~TraceLoader() override;

    /// Starts loading `path` and returns the job's id. A running job for the same path is
    /// superseded: cancelled, its result dropped. `allowPartial` keeps what a damaged trace
    /// still holds, as `--allow-partial` does on the command line (the trace is marked partial).
    quint64 load(const QString& path, bool allowPartial = false);
    /// Starts loading ranks [firstRank, endRank) of the OTF2 trace `path` (all their locations;
    /// the other ranks keep their definitions and no events), e.g. the detail under a result
    /// summary. Messages to and waits on ranks not loaded are unmatched in it.
    quint64 loadRanks(const QString& path, uint32_t firstRank, uint32_t endRank);
    /// Starts correcting the clocks of the open trace `loaded` (controlled logical clock with
    /// the default options, model/matching/clockcorrection.h) on a copy, then analysing the
    /// copy: loaded() then carries clockCorrection and, in `uncorrected`, `loaded` itself.
    /// Supersedes a running job for the same path, as load() does.
    quint64 correctClocks(const LoadedTrace& loaded);
    /// Cancels every running job (each reports cancelled()).
    void cancelAll();
    bool busy() const { return !jobs_.empty(); }
    /// Mean fraction done over the running jobs (0 when idle).
    double progress() const;
    /// Paths being loaded, oldest first.
    QStringList pendingPaths() const;
    /// Whether the oldest running job corrects clocks (correctClocks()) rather than loads.
    bool oldestIsCorrection() const;

    /// The work of one job, run synchronously (also for callers with their own thread).
    /// `keepGoing` receives the fraction done and returns false to cancel (then returns an
    /// outcome marked cancelled, with no error).
    static LoadOutcome loadNow(const QString& path, const std::function<bool(double)>& keepGoing,
                               bool allowPartial = false);
    /// Reads `path` (only the ranks `selectRanks` chooses, when given; OTF2 only) and analyses it.
    static LoadOutcome readAndAnalyse(
        const QString& path, const QString& name,
        const std::function<std::vector<bool>(const std::vector<uint64_t>&)>& selectRanks,
        const std::function<bool(double)>& keepGoing, bool allowPartial = false);
    static LoadOutcome loadRanksNow(const QString& path, uint32_t firstRank, uint32_t endRank,
                                    const std::function<bool(double)>& keepGoing);
    /// A result summary (.rsum): its definitions and stored analyses, no events.
    static LoadOutcome loadSummaryNow(const QString& path,
                                      const std::function<bool(double)>& keepGoing);
    /// The analysis part of a load (model/analysis/traceanalysis.h, then the timeline's indexes)
    /// for a trace already in memory (a simulated or predicted one), synchronously.
    static LoadOutcome analyseNow(std::shared_ptr<const Trace> trace, const QString& path,
                                  const QString& name,
                                  const std::function<bool(double)>& keepGoing);
    /// The work of a correctClocks() job, run synchronously.
    static LoadOutcome correctNow(const LoadedTrace& loaded,
                                  const std::function<bool(double)>& keepGoing);
    /// "X" for X/traces.otf2 or the folder X.
    static QString displayName(const QString& path);

signals:
    void progressChanged(double fraction);
    void loaded(quint64 id, const rankscope::LoadedTrace& trace);
    void failed(quint64 id, const QString& path, const QString& message);
    void cancelled(quint64 id, const QString& path);
    /// The last running job finished, failed or was cancelled.
    void idle();

private:
    struct Job
    {
        QString path;
        QFutureWatcher<LoadOutcome>* watcher = nullptr;
        double fraction = 0;
        bool correction = false;
    };
    using Work = std::function<LoadOutcome(const std::function<bool(double)>&)>;
    quint64 start(const QString& path, Work work, bool correction);
    void finish(quint64 id);
    void drop(quint64 id);

    std::map<quint64, Job> jobs_;
    std::vector<QFuture<LoadOutcome>> abandoned_; // cancelled jobs possibly still running
    quint64 nextId_ = 1;
};

} // namespace rankscope
