#pragma once
// Runs an extrapolation off the GUI thread: the Rankscope method and/or the classic one (in the
// user's mode) one after the other in one QtConcurrent job, with one throttled progress
// fraction over both runs and cancellation. One job at a time: starting another supersedes the
// running one, whose result is then dropped by job id (views/jobs/backgroundjob.h).

#include "views/extrap/extraprun.h"
#include "views/jobs/backgroundjob.h"

#include <QFuture>
#include <QObject>
#include <functional>
#include <memory>
#include <vector>

template <class T> class QFutureWatcher;
class QTabWidget;

namespace rankscope {

class ExtrapProgress;

/// What to extrapolate. Traces are shared with their documents (read-only) while the job runs.
struct ExtrapolationRequest
{
    std::vector<std::shared_ptr<const Trace>> traces; ///< at least 3 distinct scales
    QStringList names;                                ///< one per trace
    QStringList paths; ///< one per trace: the files it came from (the session re-runs from them)
    std::shared_ptr<const Trace> measured; ///< at the target scale, may be null
    QString measuredName;
    QString measuredPath;
    uint32_t target = 0;
    /// Score classic (sum, interval) and Rankscope by held-out error and show the winner first
    /// (the other method is computed too, to switch to); overrides rankscope/classic.
    bool automatic = true;
    bool rankscope = true;
    bool classic = true;
    extrap::Mode classicMode = extrap::Mode::Interval;
    int bins = 20;
};

/// A finished job: the run, or the engine's message (error empty on success).
struct ExtrapolationOutcome
{
    ExtrapolationRun run;
    QString error;
    bool cancelled = false;
};

class ExtrapolationJob : public QObject
{
    Q_OBJECT
public:
    explicit ExtrapolationJob(QObject* parent = nullptr);
    /// Cancels the running job and waits for its worker.
    ~ExtrapolationJob() override;

    /// Starts `request` and returns the job id; a running job is superseded (cancelled).
    quint64 start(ExtrapolationRequest request);
    void cancel();
    bool busy() const { return job_->busy(); }
    /// The request of the job started last (its result's parameters, for the session).
    const ExtrapolationRequest& lastRequest() const { return request_; }
    double progress() const { return job_->progress(); }

    /// The work itself, synchronously; `keepGoing` gets 0..1 and returns false to cancel.
    static ExtrapolationOutcome runNow(const ExtrapolationRequest& request,
                                       const std::function<bool(double)>& keepGoing);
    /// A status-bar strip (label, progress, Cancel) that follows this job.
    ExtrapProgress* createStatusWidget(QWidget* parent);
    /// Adds an ExtrapolationView of `run` to `tabs`, right after the tab of its measured trace
    /// when one is open, else at the end; makes it current and returns its index.
    static int openResultTab(QTabWidget* tabs, const ExtrapolationRun& run);

signals:
    void started(quint64 id, const QString& description);
    void progressChanged(double fraction);
    void finished(quint64 id, const rankscope::ExtrapolationRun& run);
    void failed(quint64 id, const QString& message);
    void cancelled(quint64 id);
    /// The job finished, failed or was cancelled: nothing runs.
    void idle();

private:
    BackgroundJob* job_; ///< ids, superseding, progress, Cancel and dropping stale results
    ExtrapolationRequest request_;
};

} // namespace rankscope
