#include "views/whatif/whatifpanel.h"

#include "views/whatif/whatifnetworkpage.h"
#include "views/whatif/whatifpanel_p.h"
#include "views/whatif/whatifscenariopage.h"
#include "views/whatif/whatifsimulationpage.h"
#include "views/whatif/whatifsweeppage.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QToolBox>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace rankscope {

using namespace whatifpanel;

namespace {

enum Section
{
    BaselineSection,
    NetworkSection,
    SimulationSection,
    SweepSection,
    ScenarioSection
};

/// "the scenario has no name" -> "The scenario has no name."
QString sentence(QString text)
{
    if (!text.isEmpty()) text[0] = text[0].toUpper();
    if (!text.endsWith('.')) text += '.';
    return text;
}

} // namespace

WhatIfPanel::~WhatIfPanel()
{
    disconnectChildren(this);
}

WhatIfPanel::WhatIfPanel(QWidget* parent) : QWidget(parent), specModel_(new SpecItemModel(this))
{
    sections_ = new QToolBox(this);
    sections_->setObjectName(QStringLiteral("sections"));
    baselinePage_ = new WhatIfBaselinePage;
    sections_->addItem(baselinePage_, tr("Baselines and scale"));
    networkPage_ = new WhatIfNetworkPage(specModel_);
    sections_->addItem(networkPage_, tr("Network"));
    simulationPage_ = new WhatIfSimulationPage(specModel_);
    sections_->addItem(simulationPage_, tr("Simulation"));
    sweepPage_ = new WhatIfSweepPage(specModel_);
    sections_->addItem(sweepPage_, tr("Sweep"));
    scenarioPage_ = new WhatIfScenarioPage;
    sections_->addItem(scenarioPage_, tr("Saved scenarios"));
    sections_->setItemToolTip(BaselineSection, tr("What to start from: the traces and the scale"));
    sections_->setItemToolTip(NetworkSection, tr("The machine: a copy of a network spec to edit"));
    sections_->setItemToolTip(SimulationSection,
                              tr("How the network is modelled: model, collective algorithms, CPU"));
    sections_->setItemToolTip(SweepSection, tr("One parameter and the values to try"));
    sections_->setItemToolTip(ScenarioSection, tr("Named scenarios of this session"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(6);
    layout->addWidget(sections_, 1);
    layout->addWidget(createFooter());

    connect(baselinePage_, &WhatIfBaselinePage::changed, this, &WhatIfPanel::updateAutoName);
    connect(specModel_, &SpecItemModel::editedChanged, this, &WhatIfPanel::updateAutoName);
    connect(networkPage_, &WhatIfNetworkPage::specFileRequested, this,
            &WhatIfPanel::specFileRequested);
    connect(networkPage_, &WhatIfNetworkPage::saveSpecRequested, this,
            &WhatIfPanel::saveSpecRequested);
    connect(networkPage_, &WhatIfNetworkPage::calibrateRequested, this,
            &WhatIfPanel::calibrateRequested);
    connect(scenarioPage_, &WhatIfScenarioPage::loadRequested, this,
            &WhatIfPanel::scenarioActivated);
    connect(scenarioPage_, &WhatIfScenarioPage::runRequested, this,
            &WhatIfPanel::scenarioRunRequested);
    connect(scenarioPage_, &WhatIfScenarioPage::removeRequested, this,
            &WhatIfPanel::scenarioRemoveRequested);

    auto* runKey = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this, nullptr, nullptr,
                                 Qt::WidgetWithChildrenShortcut);
    auto* runEnter = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Enter), this, nullptr, nullptr,
                                   Qt::WidgetWithChildrenShortcut);
    connect(runKey, &QShortcut::activated, this, &WhatIfPanel::run);
    connect(runEnter, &QShortcut::activated, this, &WhatIfPanel::run);
    // Only while running, so Esc still closes editors and popups otherwise.
    cancelShortcut_ = new QShortcut(QKeySequence(Qt::Key_Escape), this, nullptr, nullptr,
                                    Qt::WidgetWithChildrenShortcut);
    cancelShortcut_->setEnabled(false);
    connect(cancelShortcut_, &QShortcut::activated, this, &WhatIfPanel::cancelRequested);

    updateAutoName();
    setRunning(false);
}

QWidget* WhatIfPanel::createFooter()
{
    auto* footer = new QWidget(this);
    auto* column = new QVBoxLayout(footer);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(4);

    name_ = new QLineEdit(footer);
    name_->setObjectName(QStringLiteral("scenarioName"));
    name_->setClearButtonEnabled(true);
    name_->setToolTip(tr("The scenario's name in the session (empty: the name shown in grey)"));
    auto* save = new QPushButton(tr("Save scenario"), footer);
    save->setObjectName(QStringLiteral("saveScenario"));
    save->setToolTip(tr("Keep these controls as a named scenario of the session (a scenario of "
                        "the same name is replaced)"));
    connect(save, &QPushButton::clicked, this, &WhatIfPanel::saveScenario);
    auto* nameLabel = new QLabel(tr("&Name:"), footer);
    nameLabel->setBuddy(name_);
    auto* nameRow = new QHBoxLayout;
    nameRow->addWidget(nameLabel);
    nameRow->addWidget(name_, 1);
    nameRow->addWidget(save);
    column->addLayout(nameRow);

    message_ = new QLabel(footer);
    message_->setObjectName(QStringLiteral("message"));
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_->hide();
    column->addWidget(message_);

    progress_ = new QProgressBar(footer);
    progress_->setObjectName(QStringLiteral("progress"));
    progress_->setRange(0, 1000);
    progress_->setToolTip(tr("Progress of the running replay, prediction or sweep"));
    column->addWidget(progress_);

    run_ = new QPushButton(tr("&Run"), footer);
    run_->setObjectName(QStringLiteral("run"));
    run_->setToolTip(tr("Run this scenario once in the background; the result opens in a new "
                        "tab (Ctrl+Return)"));
    run_->setDefault(true);
    sweep_ = new QPushButton(tr("S&weep"), footer);
    sweep_->setObjectName(QStringLiteral("sweep"));
    sweep_->setToolTip(tr("Run the scenario once per value of the sweep parameter and compare "
                          "the results"));
    cancel_ = new QPushButton(tr("Cancel"), footer);
    cancel_->setObjectName(QStringLiteral("cancel"));
    cancel_->setToolTip(tr("Stop the running job (Esc)"));
    connect(run_, &QPushButton::clicked, this, &WhatIfPanel::run);
    connect(sweep_, &QPushButton::clicked, this, &WhatIfPanel::sweep);
    connect(cancel_, &QPushButton::clicked, this, &WhatIfPanel::cancelRequested);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_, 1);
    buttons->addWidget(sweep_, 1);
    buttons->addWidget(cancel_, 1);
    column->addLayout(buttons);

    connect(name_, &QLineEdit::textChanged, this, [this] { showMessage({}); });
    return footer;
}

void WhatIfPanel::setOpenTraces(const std::vector<TraceChoice>& traces)
{
    baselinePage_->setOpenTraces(traces);
}

void WhatIfPanel::setBundledSpecs(const QStringList& paths)
{
    networkPage_->setBundledSpecs(paths);
}

void WhatIfPanel::setSpec(const netsim::NetworkSpec& fileSpec,
                          const std::vector<netsim::SpecOverride>& overrides)
{
    networkPage_->setSpec(fileSpec, overrides);
    sweepPage_->fillParams();
}

void WhatIfPanel::setSpecError(const QString& message)
{
    networkPage_->setSpecError(message);
}

netsim::NetworkSpec WhatIfPanel::editedSpec() const
{
    return specModel_->edited();
}

void WhatIfPanel::applyCalibration(std::vector<netsim::SpecOverride> baseline, const QString& what)
{
    networkPage_->applyCalibration(std::move(baseline), what);
}

const std::vector<netsim::SpecOverride>& WhatIfPanel::baselineOverrides() const
{
    return networkPage_->baselineOverrides();
}

QPushButton* WhatIfPanel::calibrateButton() const
{
    return networkPage_->calibrateButton();
}

QLabel* WhatIfPanel::baselineLabel() const
{
    return networkPage_->baselineLabel();
}

QString WhatIfPanel::autoName() const
{
    const QString spec = specModel_->hasSpec() ? fromStd(specModel_->fileSpec().name) : QString();
    QString name = baselinePage_->kind() == whatif::ScenarioKind::Scale
                       ? tr("Scale to %1 ranks").arg(baselinePage_->target())
                       : tr("Replay");
    if (!spec.isEmpty()) name += tr(" on %1").arg(spec);
    if (!specModel_->overrides().empty()) name += tr(" (edited)");
    return name;
}

void WhatIfPanel::updateAutoName()
{
    if (name_) name_->setPlaceholderText(autoName());
}

whatif::Scenario WhatIfPanel::scenario() const
{
    whatif::Scenario s;
    s.name = name_->text().trimmed().toStdString();
    if (s.name.empty()) s.name = autoName().toStdString();
    baselinePage_->fillScenario(s);
    if (specModel_->hasSpec()) s.network = specModel_->fileSpec().source;
    s.baselineOverrides = networkPage_->baselineOverrides();
    s.overrides = specModel_->overrides();
    simulationPage_->fillScenario(s);
    sweepPage_->fillScenario(s);
    return s;
}

void WhatIfPanel::setScenario(const whatif::Scenario& s, const netsim::NetworkSpec& fileSpec)
{
    name_->setText(fromStd(s.name));
    // What cannot be shown is listed in the order of the sections below the baselines, then
    // the scale fields (method, seed).
    QStringList problems, scaleProblems;
    baselinePage_->setScenario(s, scaleProblems);
    setSpec(fileSpec, s.overrides);
    networkPage_->setBaseline(s.baselineOverrides,
                              s.baselineOverrides.empty() ? QString() : tr("saved"));
    simulationPage_->setScenario(s, problems);
    sweepPage_->setScenario(s);
    problems += scaleProblems;
    baselinePage_->updateKind();
    showMessage(problems.isEmpty() ? QString()
                                   : tr("Scenario loaded, but: %1.").arg(problems.join(", ")));
}

void WhatIfPanel::setScenarios(const std::vector<whatif::Scenario>& scenarios)
{
    scenarioPage_->setScenarios(scenarios);
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
    scenarioPage_->setRunning(running);
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
