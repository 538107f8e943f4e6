#pragma once
// The what-if panel's "Sweep" section: one parameter to vary (target, cpu_factor or a key of
// the spec) and the values to try, with a line saying what the parameter is. It owns these
// controls; the panel's spec copy gives the keys offered and their values in the file.

#include "whatif/scenario/scenario.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;

namespace rankscope {

class SpecItemModel;

class WhatIfSweepPage : public QWidget
{
    Q_OBJECT
public:
    explicit WhatIfSweepPage(const SpecItemModel* specModel, QWidget* parent = nullptr);
    ~WhatIfSweepPage() override;

    /// Offers target, cpu_factor and the spec file's keys; the parameter typed stays.
    void fillParams();
    /// Writes the parameter and the values (comma separated, trimmed) into `s`.
    void fillScenario(whatif::Scenario& s) const;
    /// Shows the sweep fields of `s`.
    void setScenario(const whatif::Scenario& s);

private:
    void updateHint();

    const SpecItemModel* specModel_;
    QComboBox* param_ = nullptr;
    QLineEdit* values_ = nullptr;
    QLabel* hint_ = nullptr;
};

} // namespace rankscope
