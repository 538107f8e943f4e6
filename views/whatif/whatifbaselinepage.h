#pragma once
// The what-if panel's "Baselines and scale" section: the scenario's kind (network replay or
// scale prediction), the open traces to start from (checkable), a measured run to compare with
// and, for a scale prediction, the target rank count (with presets), method and seed. It owns
// these controls and whether the target was set by hand (then checking baselines keeps it).

#include "whatif/scenario/scenario.h"

#include <QString>
#include <QStringList>
#include <QWidget>
#include <cstdint>
#include <vector>

class QComboBox;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QSpinBox;
class QToolButton;

namespace rankscope {

/// An open trace: shown as "name (N ranks)", identified by its path.
struct WhatIfTraceChoice
{
    QString name;
    QString path;
    uint32_t ranks = 0;
    /// The trace the user is looking at: chosen as the baseline while none is.
    bool active = false;
};

class WhatIfBaselinePage : public QWidget
{
    Q_OBJECT
public:
    explicit WhatIfBaselinePage(QWidget* parent = nullptr);
    ~WhatIfBaselinePage() override;

    /// Open traces that can be baselines (and measured runs to compare with). Checked
    /// baselines and the compared run stay chosen when their path is still offered; when not,
    /// they stay listed, marked "(not open)".
    void setOpenTraces(const std::vector<WhatIfTraceChoice>& traces);

    whatif::ScenarioKind kind() const;
    int target() const;
    /// Writes kind, baselines, compared run and, for a scale prediction, target, method and
    /// seed into `s`.
    void fillScenario(whatif::Scenario& s) const;
    /// Shows those fields of `s`; what cannot be shown is added to `problems`.
    void setScenario(const whatif::Scenario& s, QStringList& problems);
    /// Enables the scale-only controls for the kind chosen and updates the hint; changed().
    void updateKind();

signals:
    /// The kind, the baselines or the target changed.
    void changed();

private:
    void onBaselineChanged(QListWidgetItem* item);
    void fillTargetMenu();
    uint32_t largestBaseline() const;

    bool targetEdited_ = false;
    /// The baselines were chosen (checked by the user or set by a scenario); until then the
    /// trace in view is offered and follows the current tab.
    bool baselinesChosen_ = false;
    QComboBox* kind_ = nullptr;
    QListWidget* baselines_ = nullptr;
    QLabel* baselineHint_ = nullptr;
    QComboBox* compareWith_ = nullptr;
    QSpinBox* target_ = nullptr;
    QToolButton* targetPresets_ = nullptr;
    QComboBox* method_ = nullptr;
    QSpinBox* seed_ = nullptr;
};

} // namespace rankscope
