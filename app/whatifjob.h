#pragma once
// Runs what-if scenarios off the GUI thread (ARCHITECTURE.md, threads): a network replay
// (netsim::simulate) or a scale prediction (extrap::synthesise) of one scenario, with the
// predicted trace analysed like a loaded one and compared with its baseline (a replay with the
// SimGrid engine then also runs smpirun, whatifsimgrid.h); or a sweep, one point per value of a
// parameter, two at a time on two cores, each point reporting as it ends.
//
// One job at a time: starting another supersedes the running one (cancelled, its late results
// dropped by id), like ExtrapolationJob. Progress is one throttled fraction; cancel() stops
// within one progress callback of the engines.

#include "app/loadedtrace.h"
#include "whatif/netsim/networklayout.h"
#include "whatif/scenario/scenario.h"
#include "whatif/scenario/scenariorun.h"

#include <QFuture>
#include <QMetaType>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

template <class T> class QFutureWatcher;

namespace rankscope::bench {
struct SimGridEngineResult;
}

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
    uint32_t ranks = 0; ///< of the predicted run
    /// The predicted trace, analysed (whole runs only).
    LoadedTrace result;
    LoadedTrace compare;
    std::shared_ptr<const ComparisonData> comparison; ///< null without a compared run
    /// Replays (whole runs only): the links' figures and where to draw them.
    std::shared_ptr<const netsim::NetworkPicture> network;
    /// Scenarios with the SimGrid engine (whole runs only): both engines' figures and, analysed,
    /// SimGrid's predicted trace; or why SimGrid failed (the Rankscope result still stands).
    std::shared_ptr<const bench::SimGridEngineResult> simgrid;
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
    void cancel();
    bool busy() const { return watcher_ != nullptr; }
    double progress() const { return fraction_; }
    quint64 currentId() const { return busy() ? id_ : 0; }

    /// A whole run, synchronously; `keepGoing` gets 0..1 and returns false to cancel.
    static WhatIfOutcome runNow(const WhatIfRequest& request,
                                const std::function<bool(double)>& keepGoing);
    /// The Rankscope part of runNow: its replay or synthesis, analysed and compared.
    static WhatIfOutcome runRankscope(const WhatIfRequest& request,
                                      const std::function<bool(double)>& keepGoing);
    /// One sweep point (run time and wait time only), synchronously.
    static WhatIfOutcome pointNow(const WhatIfRequest& request, int index,
                                  const std::function<bool(double)>& keepGoing);
    /// The predicted trace of `scenario` (not analysed): the engine part of runNow. With
    /// `network`, a replay also collects what the network did (the network view's picture).
    static std::shared_ptr<Trace>
    predict(const WhatIfRequest& request, const whatif::Scenario& scenario,
            const std::function<bool(double)>& keepGoing, int64_t* runtimeNs, QStringList* notes,
            int64_t* mpiNs = nullptr,
            std::shared_ptr<const netsim::NetworkPicture>* network = nullptr);
    /// Replay scenarios: `runtimeNs` and `mpiNs` of an edited replay against the baseline
    /// replay of the request's trace on its unedited spec (replayed once per trace, spec and
    /// model, then cached). Nothing for scale scenarios.
    static std::optional<whatif::ScenarioOutcome> effectOf(const WhatIfRequest& request,
                                                           const whatif::Scenario& scenario,
                                                           int64_t runtimeNs, int64_t mpiNs,
                                                           const std::string& value = {});

signals:
    void started(quint64 id, const QString& description);
    void progressChanged(double fraction);
    void finished(quint64 id, const rankscope::WhatIfOutcome& outcome);
    void pointFinished(quint64 id, const rankscope::WhatIfOutcome& outcome);
    void sweepFinished(quint64 id);
    void failed(quint64 id, const QString& message);
    void cancelled(quint64 id);
    /// Nothing runs any more (finished, failed or cancelled).
    void idle();

protected:
    /// Watches `future`: a sweep's results reach pointFinished() once each, in any order.
    quint64 launch(QFuture<WhatIfOutcome> future, bool sweep, const QString& description);

private:
    void onResult(int index);
    void finish();
    void drop();

    QFutureWatcher<WhatIfOutcome>* watcher_ = nullptr;
    bool sweeping_ = false;
    // Sweep points already delivered. Qt 6.4's QFutureWatcher reports a result twice when
    // results are added out of order and one lands before the watcher connects (the connect
    // replays it, then the ready range [0, count) repeats it); a point is delivered once.
    QSet<int> delivered_;
    int points_ = 0; // sweep points asked for
    quint64 id_ = 0;
    quint64 nextId_ = 1;
    double fraction_ = 0;
    std::vector<QFuture<WhatIfOutcome>> abandoned_; // superseded, maybe still running
};

} // namespace rankscope

Q_DECLARE_METATYPE(rankscope::WhatIfOutcome)
