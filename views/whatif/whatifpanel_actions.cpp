// WhatIfPanel's actions: the saved-scenario list, running state and progress, the message
// line, and Run / Sweep / Save scenario (checking the scenario first).

#include "views/whatif/whatifpanel.h"
#include "views/whatif/whatifpanel_p.h"

#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QToolBox>
#include <cmath>

namespace rankscope {

using namespace whatifpanel;

void WhatIfPanel::setScenarios(const std::vector<whatif::Scenario>& scenarios)
{
    const int row = scenarioList_->currentRow();
    scenarioList_->clear();
    for (const whatif::Scenario& s : scenarios) {
        auto* item = new QListWidgetItem(fromStd(s.name), scenarioList_);
        item->setToolTip(fromStd(whatif::describe(s)));
    }
    scenarioList_->setCurrentRow(std::min(row, scenarioList_->count() - 1));
    sections_->setItemText(ScenarioSection, scenarios.empty()
                                                ? tr("Saved scenarios")
                                                : tr("Saved scenarios (%1)").arg(scenarios.size()));
}

void WhatIfPanel::setRunning(bool running, const QString& what)
{
    running_ = running;
    run_->setEnabled(!running);
    sweep_->setEnabled(!running);
    cancel_->setEnabled(running);
    cancelShortcut_->setEnabled(running);
    runScenario_->setEnabled(!running && currentScenarioRow() >= 0);
    progress_->setEnabled(running);
    progress_->setValue(0);
    progress_->setTextVisible(running);
    progress_->setFormat(what.isEmpty() ? QStringLiteral("%p%") : what + QStringLiteral(" — %p%"));
}

void WhatIfPanel::setProgress(double fraction)
{
    if (!std::isfinite(fraction)) return;
    progress_->setValue(int(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000)));
}

QString WhatIfPanel::message() const
{
    return message_->text();
}

void WhatIfPanel::showMessage(const QString& text, bool error)
{
    message_->setText(text);
    message_->setStyleSheet(error ? QString::fromLatin1(kErrorStyle) : QString());
    message_->setVisible(!text.isEmpty());
}

void WhatIfPanel::showProblem(const QString& format, const whatif::Scenario& s)
{
    showMessage(format.arg(sentence(fromStd(whatif::validate(s)))));
    // Open the section where the missing piece is chosen.
    const size_t need = s.kind == whatif::ScenarioKind::Replay ? 1 : 3;
    if (s.kind == whatif::ScenarioKind::Replay ? s.baselines.size() != need
                                               : s.baselines.size() < need)
        sections_->setCurrentIndex(BaselineSection);
    else if (s.network.empty())
        sections_->setCurrentIndex(NetworkSection);
}

int WhatIfPanel::currentScenarioRow() const
{
    return scenarioList_->currentItem() ? scenarioList_->currentRow() : -1;
}

void WhatIfPanel::run()
{
    if (running_) return;
    whatif::Scenario s = scenario();
    s.sweepParam.clear(); // Run is one run; Sweep runs the values
    s.sweepValues.clear();
    if (const std::string problem = whatif::validate(s); !problem.empty()) {
        showProblem(tr("Cannot run: %1"), s);
        return;
    }
    showMessage({});
    emit runRequested(s, editedSpec());
}

void WhatIfPanel::sweep()
{
    if (running_) return;
    const whatif::Scenario s = scenario();
    if (s.sweepParam.empty()) {
        sections_->setCurrentIndex(SweepSection);
        showMessage(tr("Cannot sweep: choose the parameter to vary in Sweep."));
        return;
    }
    if (s.sweepValues.empty()) {
        sections_->setCurrentIndex(SweepSection);
        showMessage(tr("Cannot sweep: enter the values of %1, comma separated (e.g. "
                       "1ms,2ms,5ms).")
                        .arg(fromStd(s.sweepParam)));
        return;
    }
    if (const std::string problem = whatif::validate(s); !problem.empty()) {
        showProblem(tr("Cannot sweep: %1"), s);
        return;
    }
    // Check every value now rather than after the first runs: spec keys are re-read in memory.
    for (const std::string& v : s.sweepValues) {
        try {
            const whatif::Scenario point = whatif::withParam(s, s.sweepParam, v);
            if (!whatif::isScenarioParam(s.sweepParam))
                (void)specModel_->fileSpec().withOverrides(point.overrides);
        } catch (const std::exception& e) {
            showMessage(tr("Cannot sweep %1 = %2: %3")
                            .arg(fromStd(s.sweepParam), fromStd(v), fromStd(e.what())));
            return;
        }
    }
    showMessage({});
    emit sweepRequested(s, editedSpec());
}

void WhatIfPanel::saveScenario()
{
    const whatif::Scenario s = scenario();
    if (const std::string problem = whatif::validate(s); !problem.empty()) {
        showProblem(tr("Cannot save: %1"), s);
        return;
    }
    showMessage(tr("Saved as \"%1\".").arg(fromStd(s.name)), false);
    emit scenarioSaveRequested(s);
}

void WhatIfPanel::showSection(const QString& name)
{
    static const char* const names[] = {"baselines", "network", "simulation", "sweep", "scenarios"};
    for (int i = 0; i < int(std::size(names)); ++i)
        if (name == QLatin1String(names[i])) sections_->setCurrentIndex(i);
}

} // namespace rankscope
