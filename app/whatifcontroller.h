#pragma once
// The what-if side of the main window: the "What if…" dock (WhatIfPanel), the job that runs
// scenarios in the background, the saved scenarios, and the tabs their results open in (a
// WhatIfComparison next to the compared run, a SweepView per sweep). Baseline traces a scenario
// names but that are not open are opened first; the run starts when they have loaded.

#include "app/whatifjob.h"
#include "whatif/scenario/scenario.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <map>
#include <vector>

class QDockWidget;
class QWidget;

namespace rankscope {

class MainWindow;
class SweepView;
class TraceDocument;
class WhatIfComparison;
class WhatIfPanel;

class WhatIfController : public QObject
{
    Q_OBJECT
public:
    explicit WhatIfController(MainWindow* window);
    ~WhatIfController() override;

    QDockWidget* dock() const { return dock_; }
    WhatIfPanel* panel() const { return panel_; }
    WhatIfJob* job() const { return job_; }

    const std::vector<whatif::Scenario>& scenarios() const { return scenarios_; }
    void setScenarios(std::vector<whatif::Scenario> scenarios);
    /// Adds `s`, or replaces the scenario of the same name.
    void saveScenario(const whatif::Scenario& s);
    const whatif::Scenario* scenario(const QString& name) const;
    /// Names of the saved scenarios whose result tab is open, unchanged.
    QStringList openResults() const;
    /// The scenario behind each open result tab, in tab order (a sweep tab's with its sweep).
    std::vector<whatif::Scenario> resultScenarios() const;
    /// The scenario behind result tab `tab`; null when it is not a what-if result.
    const whatif::Scenario* resultScenario(int tab) const;

    /// Runs `s` (its sweep when it has one), opening its traces first when needed.
    void start(const whatif::Scenario& s);
    /// Runs the scenario called `name`; false when there is none.
    bool start(const QString& name);
    /// A whole run of `s` (ignores its sweep).
    void run(const whatif::Scenario& s);
    /// Fits the panel's spec file to its first baseline trace (which must be open) in the
    /// background; the result becomes the panel's baseline spec (undoable).
    void calibrate();
    void sweep(const whatif::Scenario& s);

    /// Loads `path` into the panel (network spec combo) and reports a bad file.
    void showSpec(const QString& path, const std::vector<netsim::SpecOverride>& overrides = {});
    /// Fills the panel's controls from scenario `s`.
    void showScenario(const whatif::Scenario& s);

    WhatIfComparison* comparisonTab(int tab) const;
    SweepView* sweepTab(int tab) const;

    /// The folder of bundled resources (networks/, demo/), or empty when not found:
    /// $RANKSCOPE_RESOURCES, else found relative to the executable (never the source tree).
    static QString resourceDir();
    /// resources/networks/*.yaml
    static QStringList bundledSpecs();

signals:
    /// The scenario list changed (session autosave).
    void scenariosChanged();
    /// A result tab opened (the session changed).
    void resultsChanged();
    void resultOpened(const QString& scenarioName, int tab);
    void sweepOpened(int tab);
    void sweepDone(int tab);
    /// A run or sweep ended without a result (failed, cancelled or refused).
    void runEnded(bool ok);
    /// "Calibrate to this trace" ended (the panel's baseline spec is set when `ok`).
    void calibrationEnded(bool ok);
    /// The what-if pipeline's answer to a run or a whole sweep (what `rankscope --batch`
    /// prints); null when a sweep ended without one.
    void answered(std::shared_ptr<const rankscope::whatif::WhatIfResult> answer);

private:
    struct Pending
    {
        whatif::Scenario scenario;
        bool sweep = false;
        bool openRequested = false; ///< its missing traces were asked to load once
    };
    void onTracesChanged();
    void tryPending();
    /// The request for `s`, or an error message (its traces must be open).
    bool makeRequest(const whatif::Scenario& s, WhatIfRequest& request, QString& error) const;
    TraceDocument* openDocument(const std::string& path) const;
    void openResult(const WhatIfOutcome& outcome);
    void saveSpecAs(const netsim::NetworkSpec& spec);
    /// Remembers the scenario behind result tab `widget` (forgotten when the tab goes).
    void trackResult(QWidget* widget, const whatif::Scenario& s);

    MainWindow* window_;
    QDockWidget* dock_;
    WhatIfPanel* panel_;
    WhatIfJob* job_;
    BackgroundJob* calibration_; ///< "Calibrate to this trace"
    std::vector<whatif::Scenario> scenarios_;
    std::vector<Pending> pending_;
    std::map<const QWidget*, whatif::Scenario> results_; ///< result tab -> what it ran
    QWidget* sweepTab_ = nullptr;                        ///< the tab the running sweep fills
    quint64 sweepId_ = 0;
};

} // namespace rankscope
