#pragma once
// The what-if panel's "Simulation" section: who replays (the engine: Rankscope, or SimGrid's
// smpirun beside it, offered when smpirun is on PATH) and how the network is modelled — the
// network model, an algorithm per collective operation (the first entry keeps the spec's and
// names it) and the CPU factor. It owns these controls; it reads the panel's spec copy only to name
// the spec's algorithms.

#include "whatif/scenario/scenario.h"

#include <QStringList>
#include <QWidget>
#include <vector>

class QComboBox;
class QDoubleSpinBox;

namespace rankscope {

class SpecItemModel;

class WhatIfSimulationPage : public QWidget
{
    Q_OBJECT
public:
    explicit WhatIfSimulationPage(const SpecItemModel* specModel, QWidget* parent = nullptr);
    ~WhatIfSimulationPage() override;

    /// Writes the engine, the model, the chosen collective algorithms and the CPU factor into `s`.
    void fillScenario(whatif::Scenario& s) const;
    /// Shows those fields of `s`; algorithms it cannot show are added to `problems`.
    void setScenario(const whatif::Scenario& s, QStringList& problems);

    /// Looks for smpirun on PATH again: without it the SimGrid engine is disabled and its
    /// tooltip says how to install it (also done whenever the page is shown).
    void updateEngineAvailability();
    /// The engine choice ("rankscope" / "simgrid" as item data).
    QComboBox* engineBox() const { return engine_; }

protected:
    void showEvent(QShowEvent* event) override;

private:
    /// "(spec default: X)": the spec's algorithm, else the simulator's default.
    void updateSpecDefaults();

    const SpecItemModel* specModel_;
    QComboBox* engine_ = nullptr;
    QComboBox* model_ = nullptr;
    std::vector<QComboBox*> collectives_;
    QDoubleSpinBox* cpuFactor_ = nullptr;
};

} // namespace rankscope
