#pragma once
// The what-if panel's "Saved scenarios" section: the session's named scenarios (name, with
// describe() as tooltip) and Load, Run and Remove as buttons, context menu entries, Enter
// (load) and Del (remove). It owns the list and the buttons; the app owns the scenarios and
// answers the signals, which name a row of the list.

#include "whatif/scenario/scenario.h"

#include <QWidget>
#include <vector>

class QListWidget;
class QPushButton;

namespace rankscope {

class WhatIfScenarioPage : public QWidget
{
    Q_OBJECT
public:
    explicit WhatIfScenarioPage(QWidget* parent = nullptr);
    ~WhatIfScenarioPage() override;

    /// The scenarios listed; the current row stays where it can.
    void setScenarios(const std::vector<whatif::Scenario>& scenarios);
    /// While a job runs, Run is disabled.
    void setRunning(bool running);
    /// The selected row, -1 when none.
    int currentRow() const;

signals:
    void loadRequested(int row); ///< double-click, Enter or Load
    void runRequested(int row);
    void removeRequested(int row);

private:
    bool running_ = false;
    QListWidget* list_ = nullptr;
    QPushButton* load_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* remove_ = nullptr;
};

} // namespace rankscope
