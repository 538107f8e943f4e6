// WhatIfPanel's section pages and footer: the controls, their tooltips and their wiring (the
// behaviour they call lives in whatifpanel.cpp).
#include "views/whatif/specvaluedelegate.h"
#include "views/whatif/whatifpanel.h"
#include "views/whatif/whatifpanel_p.h"
#include "whatif/netsim/collectivealgorithm.h"
#include "whatif/netsim/simulation.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QToolButton>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>
#include <climits>

namespace rankscope {

using namespace whatifpanel;

namespace {

QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QComboBox* narrowCombo(QWidget* parent)
{
    // Long entries (paths, "(spec default: extended_van_de_geijn)") must not widen the dock.
    auto* combo = new QComboBox(parent);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(8);
    return combo;
}

QFormLayout* compactForm()
{
    auto* form = new QFormLayout;
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setLabelAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    return form;
}

QLabel* errorLabel(const QString& objectName, QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setStyleSheet(QString::fromLatin1(kErrorStyle));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->hide();
    return label;
}

struct ModelHelp
{
    const char* name;
    const char* help;
};
constexpr ModelHelp kModelHelp[] = {
    {"loggp",
     QT_TRANSLATE_NOOP("rankscope::WhatIfPanel", "LogGP: each message costs latency, CPU overheads "
                                                 "and size / bandwidth; links are never shared")},
    {"packet",
     QT_TRANSLATE_NOOP("rankscope::WhatIfPanel", "Packets hop through the switches and queue at "
                                                 "busy links (contention, store-and-forward or "
                                                 "cut-through)")},
    {"flow",
     QT_TRANSLATE_NOOP("rankscope::WhatIfPanel", "Messages are flows that share each link's "
                                                 "bandwidth fairly (max-min)")},
};

} // namespace

QWidget* WhatIfPanel::createBaselinePage()
{
    auto* page = new QWidget;
    auto* form = compactForm();
    auto* outer = new QVBoxLayout(page);
    outer->addLayout(form);
    outer->addStretch(1); // the list keeps its size; the space goes below the controls

    kind_ = narrowCombo(page);
    kind_->setObjectName(QStringLiteral("kind"));
    kind_->addItem(tr("Network replay"), int(whatif::ScenarioKind::Replay));
    kind_->addItem(tr("Scale prediction"), int(whatif::ScenarioKind::Scale));
    kind_->setItemData(0,
                       tr("Replay one measured trace on another network: same computation, "
                          "new message and collective times"),
                       Qt::ToolTipRole);
    kind_->setItemData(1,
                       tr("Predict a run at a scale never measured from runs at three or more "
                          "scales, timed on the network"),
                       Qt::ToolTipRole);
    kind_->setToolTip(tr("Network replay: one trace on another network. Scale prediction: a "
                         "larger run from three or more smaller ones"));
    form->addRow(tr("&Kind:"), kind_);

    baselines_ = new QListWidget(page);
    baselines_->setObjectName(QStringLiteral("baselines"));
    baselines_->setToolTip(tr("The open traces to start from: check one for a replay, three or "
                              "more at different scales for a prediction"));
    baselines_->setMinimumHeight(90);
    baselineHint_ = new QLabel(page);
    baselineHint_->setWordWrap(true);
    baselineHint_->setForegroundRole(QPalette::PlaceholderText);
    auto* baselineBox = new QVBoxLayout;
    baselineBox->setSpacing(2);
    baselineBox->addWidget(baselines_, 1);
    baselineBox->addWidget(baselineHint_);
    form->addRow(tr("&Baselines:"), baselineBox);
    static_cast<QLabel*>(form->labelForField(baselineBox))->setBuddy(baselines_);

    compareWith_ = narrowCombo(page);
    compareWith_->setObjectName(QStringLiteral("compareWith"));
    compareWith_->addItem(tr("(baseline)"), QString());
    compareWith_->setToolTip(tr("A measured run to put next to the result (for a prediction: a "
                                "run at the target scale)"));
    form->addRow(tr("Com&pare with:"), compareWith_);

    target_ = new QSpinBox(page);
    target_->setObjectName(QStringLiteral("target"));
    target_->setRange(1, kMaxTarget);
    target_->setValue(1024);
    target_->setSuffix(tr(" ranks"));
    target_->setToolTip(tr("The rank count to predict; the machine grows to hold it"));
    targetPresets_ = new QToolButton(page);
    targetPresets_->setObjectName(QStringLiteral("targetPresets"));
    targetPresets_->setText(tr("Presets"));
    targetPresets_->setPopupMode(QToolButton::InstantPopup);
    targetPresets_->setToolTip(tr("Multiples of the largest baseline, and common scales"));
    auto* presets = new QMenu(targetPresets_);
    targetPresets_->setMenu(presets);
    connect(presets, &QMenu::aboutToShow, this, &WhatIfPanel::fillTargetMenu);
    auto* targetRow = new QHBoxLayout;
    targetRow->addWidget(target_, 1);
    targetRow->addWidget(targetPresets_);
    form->addRow(tr("&Target:"), targetRow);
    static_cast<QLabel*>(form->labelForField(targetRow))->setBuddy(target_);

    method_ = narrowCombo(page);
    method_->setObjectName(QStringLiteral("method"));
    method_->addItem(tr("Rankscope"), QStringLiteral("rankscope"));
    method_->addItem(tr("Classic"), QStringLiteral("classic"));
    method_->setToolTip(tr("Rankscope: per-interval composition, PMNF models, quantiles. "
                           "Classic: the four models of ScalaExtrap"));
    form->addRow(tr("&Method:"), method_);
    seed_ = new QSpinBox(page);
    seed_->setObjectName(QStringLiteral("seed"));
    seed_->setRange(0, INT_MAX);
    seed_->setValue(1);
    seed_->setToolTip(tr("Seed of the sampling of the predicted compute times: the same seed "
                         "gives the same trace"));
    form->addRow(tr("See&d:"), seed_);

    connect(kind_, &QComboBox::currentIndexChanged, this, &WhatIfPanel::updateKind);
    connect(baselines_, &QListWidget::itemChanged, this, &WhatIfPanel::onBaselineChanged);
    connect(target_, &QSpinBox::valueChanged, this, &WhatIfPanel::updateAutoName);
    connect(target_, &QSpinBox::editingFinished, this, [this] { targetEdited_ = true; });
    return page;
}

QWidget* WhatIfPanel::createNetworkPage()
{
    auto* page = new QWidget;
    auto* column = new QVBoxLayout(page);
    column->setSpacing(4);

    specCombo_ = narrowCombo(page);
    specCombo_->setObjectName(QStringLiteral("specCombo"));
    specCombo_->setPlaceholderText(tr("Choose a network spec…"));
    specCombo_->setToolTip(tr("The network spec to start from; its file is only read, the edits "
                              "below change a copy"));
    specCombo_->addItem(tr("Browse…"));
    specCombo_->setItemData(0, true, kBrowseRole);
    specCombo_->setItemData(0, tr("Open another spec file (*.yaml)"), Qt::ToolTipRole);
    specCombo_->setCurrentIndex(-1);
    auto* specLabel = new QLabel(tr("&Spec:"), page);
    specLabel->setBuddy(specCombo_);
    auto* specRow = new QHBoxLayout;
    specRow->addWidget(specLabel);
    specRow->addWidget(specCombo_, 1);
    column->addLayout(specRow);
    specError_ = errorLabel(QStringLiteral("specError"), page);
    column->addWidget(specError_);

    specTree_ = new QTreeView(page);
    specTree_->setObjectName(QStringLiteral("specTree"));
    specTree_->setModel(specModel_);
    specTree_->setItemDelegateForColumn(SpecItemModel::ValueColumn,
                                        new SpecValueDelegate(specTree_));
    specTree_->setAlternatingRowColors(true);
    specTree_->setUniformRowHeights(true);
    specTree_->setIndentation(12);
    specTree_->setEditTriggers(QAbstractItemView::DoubleClicked |
                               QAbstractItemView::EditKeyPressed |
                               QAbstractItemView::SelectedClicked);
    specTree_->setToolTip(tr("A copy of the spec: double-click a value (or F2) to edit it; "
                             "edited values are bold. Ctrl+Z undoes"));
    QHeaderView* header = specTree_->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(SpecItemModel::KeyColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(SpecItemModel::ValueColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(SpecItemModel::FileValueColumn, QHeaderView::Interactive);
    header->resizeSection(SpecItemModel::KeyColumn, 150);
    header->resizeSection(SpecItemModel::FileValueColumn, 90);
    column->addWidget(specTree_, 1);
    editError_ = errorLabel(QStringLiteral("specEditError"), page);
    column->addWidget(editError_);
    // A double-click anywhere on a leaf edits its value (only the value column is editable).
    connect(specTree_, &QTreeView::doubleClicked, this, [this](const QModelIndex& i) {
        const QModelIndex value = i.siblingAtColumn(SpecItemModel::ValueColumn);
        if (i.column() != SpecItemModel::ValueColumn && (value.flags() & Qt::ItemIsEditable))
            specTree_->edit(value);
    });

    QUndoStack* stack = specModel_->undoStack();
    const auto toolButton = [page](const QString& name, const QString& text, const QString& tip) {
        auto* b = new QToolButton(page);
        b->setObjectName(name);
        b->setText(text);
        b->setToolTip(tip);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        return b;
    };
    undo_ = toolButton(QStringLiteral("undoSpec"), tr("Undo"), tr("Undo the last edit (Ctrl+Z)"));
    redo_ = toolButton(QStringLiteral("redoSpec"), tr("Redo"),
                       tr("Redo the edit undone last (Ctrl+Shift+Z)"));
    resetSpec_ = toolButton(QStringLiteral("resetSpec"), tr("Reset edits"),
                            tr("Back to the file's values (undoable)"));
    saveSpec_ = toolButton(QStringLiteral("saveSpec"), tr("Save spec as…"),
                           tr("Write the edited spec to a new file (the original stays as is)"));
    connect(undo_, &QToolButton::clicked, stack, &QUndoStack::undo);
    connect(redo_, &QToolButton::clicked, stack, &QUndoStack::redo);
    connect(resetSpec_, &QToolButton::clicked, specModel_, &SpecItemModel::resetAll);
    connect(saveSpec_, &QToolButton::clicked, this,
            [this] { emit saveSpecRequested(editedSpec()); });
    connect(stack, &QUndoStack::canUndoChanged, undo_, &QToolButton::setEnabled);
    connect(stack, &QUndoStack::canRedoChanged, redo_, &QToolButton::setEnabled);
    connect(stack, &QUndoStack::undoTextChanged, this, [this](const QString& text) {
        undo_->setToolTip(text.isEmpty() ? tr("Undo the last edit (Ctrl+Z)")
                                         : tr("Undo: %1 (Ctrl+Z)").arg(text));
    });
    connect(stack, &QUndoStack::redoTextChanged, this, [this](const QString& text) {
        redo_->setToolTip(text.isEmpty() ? tr("Redo the edit undone last (Ctrl+Shift+Z)")
                                         : tr("Redo: %1 (Ctrl+Shift+Z)").arg(text));
    });
    undo_->setEnabled(false);
    redo_->setEnabled(false);
    auto* undoKey =
        new QShortcut(QKeySequence::Undo, specTree_, nullptr, nullptr, Qt::WidgetShortcut);
    auto* redoKey =
        new QShortcut(QKeySequence::Redo, specTree_, nullptr, nullptr, Qt::WidgetShortcut);
    connect(undoKey, &QShortcut::activated, stack, &QUndoStack::undo);
    connect(redoKey, &QShortcut::activated, stack, &QUndoStack::redo);
    auto* buttons = new QHBoxLayout;
    buttons->setSpacing(2);
    buttons->addWidget(undo_);
    buttons->addWidget(redo_);
    buttons->addWidget(resetSpec_);
    buttons->addStretch(1);
    buttons->addWidget(saveSpec_);
    column->addLayout(buttons);

    calibrate_ = new QPushButton(tr("Calibrate to this trace"), page);
    calibrate_->setObjectName(QStringLiteral("calibrate"));
    calibrate_->setToolTip(tr("Fit the spec's latencies, bandwidths, overheads and eager limit "
                              "to the first baseline trace; the result becomes the baseline "
                              "spec (undoable, saved with the scenario)"));
    connect(calibrate_, &QPushButton::clicked, this, &WhatIfPanel::calibrateRequested);
    baselineLabel_ = new QLabel(page);
    baselineLabel_->setWordWrap(true);
    baselineLabel_->setText(tr("Baseline: the spec file"));
    auto* calibrateRow = new QHBoxLayout;
    calibrateRow->addWidget(calibrate_);
    calibrateRow->addWidget(baselineLabel_, 1);
    column->addLayout(calibrateRow);

    eagerLimit_ = new QLineEdit(page);
    eagerLimit_->setObjectName(QStringLiteral("eagerLimit"));
    eagerLimit_->setClearButtonEnabled(true);
    eagerLimit_->setToolTip(tr("Messages up to this size are sent eagerly; larger ones wait for "
                               "the receiver first (rendezvous). With units, e.g. 64KiB; empty: "
                               "the file's value"));
    auto* eagerLabel = new QLabel(tr("&Eager limit:"), page);
    eagerLabel->setBuddy(eagerLimit_);
    auto* eagerRow = new QHBoxLayout;
    eagerRow->addWidget(eagerLabel);
    eagerRow->addWidget(eagerLimit_, 1);
    column->addLayout(eagerRow);
    connect(eagerLimit_, &QLineEdit::editingFinished, this, &WhatIfPanel::applyEagerLimit);

    connect(specCombo_, &QComboBox::activated, this, &WhatIfPanel::onSpecChosen);
    return page;
}

QWidget* WhatIfPanel::createSimulationPage()
{
    auto* page = new QWidget;
    auto* form = compactForm();
    page->setLayout(form);

    model_ = narrowCombo(page);
    model_->setObjectName(QStringLiteral("model"));
    for (const std::string& m : netsim::models()) {
        model_->addItem(fromStd(m), fromStd(m));
        for (const ModelHelp& h : kModelHelp)
            if (m == h.name) model_->setItemData(model_->count() - 1, tr(h.help), Qt::ToolTipRole);
    }
    model_->setToolTip(tr("How messages cross the network: loggp (no contention), packet "
                          "(packets queue at links), flow (flows share links)"));
    form->addRow(tr("Net&work model:"), model_);

    cpuFactor_ = new QDoubleSpinBox(page);
    cpuFactor_->setObjectName(QStringLiteral("cpuFactor"));
    cpuFactor_->setRange(0.01, 100);
    cpuFactor_->setSingleStep(0.1);
    cpuFactor_->setDecimals(2);
    cpuFactor_->setValue(1.0);
    cpuFactor_->setSuffix(QStringLiteral(" ×"));
    cpuFactor_->setToolTip(tr("Multiplies every compute phase between MPI calls: 0.5 models CPUs "
                              "twice as fast; the network is unchanged"));
    form->addRow(tr("&CPU factor:"), cpuFactor_);

    auto* heading = new QLabel(tr("Collective algorithms"), page);
    QFont bold = heading->font();
    bold.setBold(true);
    heading->setFont(bold);
    heading->setToolTip(tr("Which algorithm each collective operation runs; the first entry keeps "
                           "the spec's choice"));
    form->addRow(heading);
    for (int k = int(netsim::CollKind::Barrier); k <= int(netsim::CollKind::ReduceScatter); ++k) {
        const auto kind = netsim::CollKind(k);
        const QString op = fromView(netsim::collKindName(kind));
        auto* combo = narrowCombo(page);
        combo->setObjectName(QStringLiteral("collective.") + op);
        combo->addItem(QString(), QString()); // "(spec default: X)", filled by onEditedChanged
        for (std::string_view alg : netsim::algorithmNames(kind))
            combo->addItem(fromView(alg), fromView(alg));
        combo->setToolTip(tr("The algorithm every MPI %1 of the replay runs (and so which "
                             "messages cross which links)")
                              .arg(op));
        connect(combo, &QComboBox::currentIndexChanged, combo, [combo](int index) {
            QFont font = combo->font();
            font.setBold(index > 0); // a choice of this run, not the spec's
            combo->setFont(font);
        });
        form->addRow(op + QLatin1Char(':'), combo);
        collectives_.push_back(combo);
    }
    return page;
}

QWidget* WhatIfPanel::createSweepPage()
{
    auto* page = new QWidget;
    auto* form = compactForm();
    page->setLayout(form);
    sweepParam_ = narrowCombo(page);
    sweepParam_->setObjectName(QStringLiteral("sweepParam"));
    sweepParam_->setEditable(true);
    sweepParam_->setInsertPolicy(QComboBox::NoInsert);
    sweepParam_->lineEdit()->setPlaceholderText(tr("no sweep"));
    sweepParam_->setToolTip(tr("The parameter to vary: target (ranks), cpu_factor, or any key of "
                               "the spec (links.wan.latency, eager_limit...)"));
    form->addRow(tr("&Parameter:"), sweepParam_);
    sweepValues_ = new QLineEdit(page);
    sweepValues_->setObjectName(QStringLiteral("sweepValues"));
    sweepValues_->setPlaceholderText(tr("e.g. 1ms,2ms,5ms,10ms,20ms"));
    sweepValues_->setClearButtonEnabled(true);
    sweepValues_->setToolTip(tr("The values to try, comma separated, with units where the key "
                                "has them; one run per value"));
    form->addRow(tr("&Values:"), sweepValues_);
    sweepHint_ = new QLabel(page);
    sweepHint_->setWordWrap(true);
    sweepHint_->setForegroundRole(QPalette::PlaceholderText);
    form->addRow(sweepHint_);
    connect(sweepParam_, &QComboBox::currentTextChanged, this, &WhatIfPanel::updateSweepHint);
    updateSweepHint();
    return page;
}

QWidget* WhatIfPanel::createScenarioPage()
{
    auto* page = new QWidget;
    auto* column = new QVBoxLayout(page);
    scenarioList_ = new QListWidget(page);
    scenarioList_->setObjectName(QStringLiteral("scenarioList"));
    scenarioList_->setToolTip(tr("Scenarios of this session: double-click to load one into the "
                                 "controls; right-click for more"));
    scenarioList_->setContextMenuPolicy(Qt::ActionsContextMenu);
    column->addWidget(scenarioList_, 1);

    const auto button = [page](const QString& name, const QString& text, const QString& tip) {
        auto* b = new QPushButton(text, page);
        b->setObjectName(name);
        b->setToolTip(tip);
        b->setEnabled(false);
        return b;
    };
    loadScenario_ = button(QStringLiteral("loadScenario"), tr("&Load"),
                           tr("Put the selected scenario into the controls (Enter)"));
    runScenario_ =
        button(QStringLiteral("runScenario"), tr("R&un"), tr("Run the selected scenario as saved"));
    removeScenario_ = button(QStringLiteral("removeScenario"), tr("Re&move"),
                             tr("Remove the selected scenario from the session (Del)"));
    auto* buttonRow = new QHBoxLayout;
    buttonRow->addWidget(loadScenario_);
    buttonRow->addWidget(runScenario_);
    buttonRow->addStretch(1);
    buttonRow->addWidget(removeScenario_);
    column->addLayout(buttonRow);

    const auto act = [this](QPushButton* b, auto signal) {
        connect(b, &QPushButton::clicked, this, [this, signal] {
            if (const int row = currentScenarioRow(); row >= 0) emit(this->*signal)(row);
        });
        auto* a = new QAction(b->text().remove('&'), scenarioList_);
        a->setToolTip(b->toolTip());
        connect(a, &QAction::triggered, b, &QPushButton::click);
        scenarioList_->addAction(a);
        return a;
    };
    act(loadScenario_, &WhatIfPanel::scenarioActivated);
    QAction* runAction = act(runScenario_, &WhatIfPanel::scenarioRunRequested);
    act(removeScenario_, &WhatIfPanel::scenarioRemoveRequested);
    connect(scenarioList_, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { emit scenarioActivated(scenarioList_->row(item)); });
    connect(scenarioList_, &QListWidget::currentRowChanged, this, [this, runAction](int row) {
        loadScenario_->setEnabled(row >= 0);
        runScenario_->setEnabled(row >= 0 && !running_);
        runAction->setEnabled(row >= 0 && !running_);
        removeScenario_->setEnabled(row >= 0);
    });
    auto* del =
        new QShortcut(QKeySequence::Delete, scenarioList_, nullptr, nullptr, Qt::WidgetShortcut);
    connect(del, &QShortcut::activated, removeScenario_, &QPushButton::click);
    return page;
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

} // namespace rankscope
