#pragma once
// Runs what-if scenarios off the GUI thread (ARCHITECTURE.md, threads). Every number comes from
// the what-if pipeline (whatif/scenario/whatifpipeline.h, runWhatIf), the call `rankscope-cli
// scenario run` makes: this job only runs it in the background, then analyses the predicted
// trace like a loaded one (TraceLoader::analyseNow) and builds the comparison panes' data
// (buildComparisonData) for the views. A sweep is the pipeline's sweep, each point reported as
// it ends.
//
// One job at a time (views/jobs/backgroundjob.h, the GUI's one job type): starting another
// supersedes the running one (cancelled, its late results dropped by id). Progress is one
// throttled fraction; cancel() stops within one progress callback of the engines.

#include "app/loadedtrace.h"
#include "views/jobs/backgroundjob.h"
#include "whatif/netsim/networklayout.h"
#include "whatif/scenario/scenario.h"
#include "whatif/scenario/scenariorun.h"
#include "whatif/scenario/whatifpipeline.h"

#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace rankscope {

struct ComparisonData;

/// What to run. Traces are shared read-only with their documents while the job runs.
struct WhatIfRequest
{
    whatif::Scenario scenario;
    /// The spec as read from its file (no overrides); each run applies its scenario's overrides.
    netsim::NetworkSpec fileSpec;
    std::vector<std::shared_ptr<const Trace>> baselines; ///< in scenario.baselines order
    QStringList baselineNames;
    /// The run the result is compared with (the baseline of a replay, a measured run at the
    /// target of a scale prediction); trace may be null (then no comparison is built).
    LoadedTrace compare;
    /// The scenario's compare_with run, when it names one (the pipeline's measured run).
    std::shared_ptr<const Trace> measured;
};

/// One finished run: a whole scenario (Run), or one point of a sweep.
struct WhatIfOutcome
{
    whatif::Scenario scenario; ///< as run (for a sweep point: with the point's value)
    int point = -1;            ///< sweep point index; -1 for a whole run
    QString value;             ///< the point's parameter value
    std::optional<int64_t> predictedRuntimeNs;
    std::optional<int64_t> waitNs; ///< wait time over all patterns and ranks
    /// Replay scenarios: the measured run, the baseline replay (the trace on the unedited spec,
    /// cached) and this edited replay, with the effect of the edit (edited - baseline).
    std::optional<whatif::ScenarioOutcome> effect;
    /// The pipeline's whole answer (a sweep's last outcome, point -2, carries the whole sweep).
    std::shared_ptr<const whatif::WhatIfResult> answer;
    uint32_t ranks = 0; ///< of the predicted run
    /// The predicted trace, analysed (whole runs only).
    LoadedTrace result;
    LoadedTrace compare;
    std::shared_ptr<const ComparisonData> comparison; ///< null without a compared run
    /// Replays (whole runs only): the links' figures and where to draw them.
    std::shared_ptr<const netsim::NetworkPicture> network;
    /// Scenarios with the SimGrid engine (whole runs only): both engines' figures and, analysed,
    /// SimGrid's predicted trace; or why SimGrid failed (the Rankscope result still stands).
    std::optional<netsim::PeerRun> simgrid;
    LoadedTrace simgridResult;
    QString simgridError;
    QStringList notes; ///< what the engine said besides the result (resized machine...)
    QString error;     ///< empty on success
    bool cancelled = false;
};

class WhatIfJob : public QObject
{
    Q_OBJECT
public:
    explicit WhatIfJob(QObject* parent = nullptr);
    /// Cancels the running job and waits for its workers.
    ~WhatIfJob() override;

    /// Runs request.scenario and opens nothing: finished() carries the analysed result.
    quint64 run(WhatIfRequest request);
    /// Runs one point per value of request.scenario's sweep; pointFinished() for each, then
    /// sweepFinished().
    quint64 sweep(WhatIfRequest request);
    void cancel() { job_->cancel(); }
    bool busy() const { return job_->busy(); }
    double progress() const { return job_->progress(); }
    quint64 currentId() const { return job_->currentId(); }

    /// A whole run, synchronously; `keepGoing` gets 0..1 and returns false to cancel.
    static WhatIfOutcome runNow(const WhatIfRequest& request,
                                const std::function<bool(double)>& keepGoing);
    /// The pipeline's inputs for `request`.
    static whatif::WhatIfInputs inputsOf(const WhatIfRequest& request);
    /// The fields of `out` that show `answer` (whole runs: its first run; sweeps: `point`).
    static void fill(WhatIfOutcome& out, std::shared_ptr<const whatif::WhatIfResult> answer,
                     const whatif::WhatIfPoint& point);

signals:
    void started(quint64 id, const QString& description);
    void progressChanged(double fraction);
    void finished(quint64 id, const rankscope::WhatIfOutcome& outcome);
    void pointFinished(quint64 id, const rankscope::WhatIfOutcome& outcome);
    /// The sweep ended; `answer` holds every point (null when it was cancelled or failed).
    void sweepFinished(quint64 id);
    void sweepAnswered(quint64 id, std::shared_ptr<const rankscope::whatif::WhatIfResult> answer);
    void failed(quint64 id, const QString& message);
    void cancelled(quint64 id);
    /// Nothing runs any more (finished, failed or cancelled).
    void idle();

private:
    BackgroundJob* job_; ///< ids, superseding, progress, Cancel and dropping stale results
};

} // namespace rankscope

Q_DECLARE_METATYPE(rankscope::WhatIfOutcome)
