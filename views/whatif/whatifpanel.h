#pragma once
// The "What if…" side panel (a dock of the main window, ~400 px wide): one what-if scenario as
// controls, in a tool box of sections so it stays usable at that width:
// - Baselines and scale: kind (network replay / scale prediction), the open traces to start
//   from, a measured run to compare with, and for a scale prediction the target rank count,
//   method and seed;
// - Network: the spec file (bundled specs or Browse…) and an editable copy of it (SpecItemModel
//   in a tree; undo, reset, "Save spec as…"), the eager limit;
// - Simulation: network model, per-collective algorithms, CPU factor;
// - Sweep: one parameter and the values to try;
// - Saved scenarios: load, run, remove.
// Under the tool box, always visible: the scenario's name and Save, messages, progress, and Run
// (Ctrl+Return), Sweep and Cancel (Esc).
//
// The panel never reads or writes files: it asks the app (specFileRequested, saveSpecRequested)
// and the app answers with setSpec / setSpecError. Edits only change the in-memory copy.
//
// Each section is a widget of its own that owns its controls (WhatIfBaselinePage,
// WhatIfNetworkPage, WhatIfSimulationPage, WhatIfSweepPage, WhatIfScenarioPage); the panel
// owns the spec copy (SpecItemModel) they share, the tool box and the footer, puts the
// scenario together from the sections and checks it before Run, Sweep and Save.

#include "views/whatif/specitemmodel.h"
#include "views/whatif/whatifbaselinepage.h"
#include "whatif/netsim/networkspec.h"
#include "whatif/scenario/scenario.h"

#include <QStringList>
#include <QWidget>
#include <vector>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QShortcut;
class QToolBox;

namespace rankscope {

class WhatIfNetworkPage;
class WhatIfScenarioPage;
class WhatIfSimulationPage;
class WhatIfSweepPage;

class WhatIfPanel : public QWidget
{
    Q_OBJECT
public:
    /// An open trace: shown as "name (N ranks)", identified by its path.
    using TraceChoice = WhatIfTraceChoice;

    explicit WhatIfPanel(QWidget* parent = nullptr);
    /// Disconnects the children first: closing a top-level panel moves focus out of its line
    /// edits, whose editingFinished would otherwise reach a half-destroyed panel.
    ~WhatIfPanel() override;

    /// Open traces that can be baselines (and measured runs to compare with). Checked
    /// baselines and the compared run stay chosen when their path is still offered.
    void setOpenTraces(const std::vector<TraceChoice>& traces);
    /// The bundled specs (paths of resources/networks/*.yaml) offered in the spec combo, plus a
    /// "Browse…" entry (QFileDialog, *.yaml *.yml); choosing one emits specFileRequested.
    void setBundledSpecs(const QStringList& paths);
    /// The app read the chosen file: show it, with `overrides` as the starting edits.
    void setSpec(const netsim::NetworkSpec& fileSpec,
                 const std::vector<netsim::SpecOverride>& overrides = {});
    /// The app could not read the chosen file: show the message (red label), keep the old spec.
    void setSpecError(const QString& message);

    /// The controls as a scenario. An empty name becomes the automatic one shown as
    /// placeholder ("Replay on two-clusters-wan"); a replay carries the scale-only fields at
    /// their defaults (target 0, method rankscope, seed 1).
    whatif::Scenario scenario() const;
    /// Fills every control from `s`; `fileSpec` is the spec read from s.network.
    void setScenario(const whatif::Scenario& s, const netsim::NetworkSpec& fileSpec);
    /// The spec file with the edits applied.
    netsim::NetworkSpec editedSpec() const;
    SpecItemModel* specModel() const { return specModel_; }

    /// The saved scenarios shown in the list (name + describe() as tooltip).
    void setScenarios(const std::vector<whatif::Scenario>& scenarios);
    /// Progress of the running job (Run and Sweep disabled, Cancel enabled while running);
    /// `what` labels the progress bar.
    void setRunning(bool running, const QString& what = {});
    /// 0..1 of the running job.
    void setProgress(double fraction);
    /// Opens one section: "baselines", "network", "simulation", "sweep" or "scenarios".
    void showSection(const QString& name);
    bool isRunning() const { return running_; }

    /// The message line under the sections (validation errors, hints); empty when none.
    QString message() const;

    /// "Calibrate to this trace" finished: `baseline` (the calibration's values as overrides of
    /// the file) becomes the scenario's baseline spec; undoable with the spec edits (one step).
    void applyCalibration(std::vector<netsim::SpecOverride> baseline, const QString& what);
    const std::vector<netsim::SpecOverride>& baselineOverrides() const;
    QPushButton* calibrateButton() const;
    /// "Baseline: the file" or "Baseline: calibrated to … (n values)".
    QLabel* baselineLabel() const;

signals:
    void specFileRequested(const QString& path);
    /// "Calibrate to this trace": the app fits the spec file to the first baseline trace.
    void calibrateRequested();
    /// Run: one run of the scenario (its sweep fields are left empty) on `spec` (edited).
    void runRequested(const rankscope::whatif::Scenario& scenario,
                      const rankscope::netsim::NetworkSpec& spec);
    void sweepRequested(const rankscope::whatif::Scenario& scenario,
                        const rankscope::netsim::NetworkSpec& spec);
    void cancelRequested();
    void saveSpecRequested(
        const rankscope::netsim::NetworkSpec& spec); ///< "Save spec as…": the app writes it
    void
    scenarioSaveRequested(const rankscope::whatif::Scenario& scenario); ///< add or replace by name
    void scenarioActivated(int index); ///< double-click or Load: the app calls setScenario
    void scenarioRunRequested(int index);
    void scenarioRemoveRequested(int index);

private:
    QWidget* createFooter();
    void updateAutoName();
    QString autoName() const;
    void run();
    void sweep();
    void saveScenario();
    void showMessage(const QString& text, bool error = true);
    /// Shows validate(s) in `format` ("Cannot run: %1") and opens the section to fix it in.
    void showProblem(const QString& format, const whatif::Scenario& s);

    SpecItemModel* specModel_;
    bool running_ = false;

    QToolBox* sections_ = nullptr;
    WhatIfBaselinePage* baselinePage_ = nullptr;
    WhatIfNetworkPage* networkPage_ = nullptr;
    WhatIfSimulationPage* simulationPage_ = nullptr;
    WhatIfSweepPage* sweepPage_ = nullptr;
    WhatIfScenarioPage* scenarioPage_ = nullptr;

    QLineEdit* name_ = nullptr;
    QLabel* message_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* sweep_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QShortcut* cancelShortcut_ = nullptr;
};

} // namespace rankscope
