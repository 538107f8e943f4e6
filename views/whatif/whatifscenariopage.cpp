#include "views/whatif/whatifscenariopage.h"

#include "views/whatif/whatifpanel_p.h"

#include <QAction>
#include <QHBoxLayout>
#include <QListWidget>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>
#include <algorithm>

namespace rankscope {

using namespace whatifpanel;

WhatIfScenarioPage::WhatIfScenarioPage(QWidget* parent) : QWidget(parent)
{
    auto* column = new QVBoxLayout(this);
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("scenarioList"));
    list_->setToolTip(tr("Scenarios of this session: double-click to load one into the "
                         "controls; right-click for more"));
    list_->setContextMenuPolicy(Qt::ActionsContextMenu);
    column->addWidget(list_, 1);

    const auto button = [this](const QString& name, const QString& text, const QString& tip) {
        auto* b = new QPushButton(text, this);
        b->setObjectName(name);
        b->setToolTip(tip);
        b->setEnabled(false);
        return b;
    };
    load_ = button(QStringLiteral("loadScenario"), tr("&Load"),
                   tr("Put the selected scenario into the controls (Enter)"));
    run_ =
        button(QStringLiteral("runScenario"), tr("R&un"), tr("Run the selected scenario as saved"));
    remove_ = button(QStringLiteral("removeScenario"), tr("Re&move"),
                     tr("Remove the selected scenario from the session (Del)"));
    auto* buttonRow = new QHBoxLayout;
    buttonRow->addWidget(load_);
    buttonRow->addWidget(run_);
    buttonRow->addStretch(1);
    buttonRow->addWidget(remove_);
    column->addLayout(buttonRow);

    const auto act = [this](QPushButton* b, void (WhatIfScenarioPage::*signal)(int)) {
        connect(b, &QPushButton::clicked, this, [this, signal] {
            if (const int row = currentRow(); row >= 0) emit(this->*signal)(row);
        });
        auto* a = new QAction(b->text().remove('&'), list_);
        a->setToolTip(b->toolTip());
        connect(a, &QAction::triggered, b, &QPushButton::click);
        list_->addAction(a);
        return a;
    };
    act(load_, &WhatIfScenarioPage::loadRequested);
    QAction* runAction = act(run_, &WhatIfScenarioPage::runRequested);
    act(remove_, &WhatIfScenarioPage::removeRequested);
    connect(list_, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { emit loadRequested(list_->row(item)); });
    connect(list_, &QListWidget::currentRowChanged, this, [this, runAction](int row) {
        load_->setEnabled(row >= 0);
        run_->setEnabled(row >= 0 && !running_);
        runAction->setEnabled(row >= 0 && !running_);
        remove_->setEnabled(row >= 0);
    });
    auto* del = new QShortcut(QKeySequence::Delete, list_, nullptr, nullptr, Qt::WidgetShortcut);
    connect(del, &QShortcut::activated, remove_, &QPushButton::click);
}

WhatIfScenarioPage::~WhatIfScenarioPage()
{
    disconnectChildren(this);
}

void WhatIfScenarioPage::setScenarios(const std::vector<whatif::Scenario>& scenarios)
{
    const int row = list_->currentRow();
    list_->clear();
    for (const whatif::Scenario& s : scenarios) {
        auto* item = new QListWidgetItem(fromStd(s.name), list_);
        item->setToolTip(fromStd(whatif::describe(s)));
    }
    list_->setCurrentRow(std::min(row, list_->count() - 1));
}

void WhatIfScenarioPage::setRunning(bool running)
{
    running_ = running;
    run_->setEnabled(!running && currentRow() >= 0);
}

int WhatIfScenarioPage::currentRow() const
{
    return list_->currentItem() ? list_->currentRow() : -1;
}

} // namespace rankscope
