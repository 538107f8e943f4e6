#include "views/whatifpanel.h"

#include "whatif/netsim/collectivealgorithm.h"
#include "whatif/netsim/simulation.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
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
#include <QStyledItemDelegate>
#include <QToolBox>
#include <QToolButton>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>
#include <cmath>

namespace rankscope {

namespace {

constexpr int kMaxTarget = 16'777'216;
constexpr int kPathRole = Qt::UserRole;
constexpr int kRanksRole = Qt::UserRole + 1;
constexpr int kBrowseRole = Qt::UserRole + 2;
enum Section
{
    BaselineSection,
    NetworkSection,
    SimulationSection,
    SweepSection,
    ScenarioSection
};

const char* const kErrorStyle = "color: #c62828;";

// Edits a spec value in the tree: a combo of the known values where the key has some (link
// classes, topologies, algorithms...), else a line edit. The model checks the value.
class SpecValueDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override
    {
        const QStringList known = index.data(SpecEditModel::SuggestionsRole).toStringList();
        if (known.isEmpty()) return QStyledItemDelegate::createEditor(parent, option, index);
        auto* combo = new QComboBox(parent);
        combo->setEditable(true);
        combo->addItems(known);
        combo->setToolTip(index.data(Qt::ToolTipRole).toString());
        // Choosing from the list is the whole edit: commit at once.
        connect(combo, &QComboBox::activated, this, [this, combo] {
            auto* self = const_cast<SpecValueDelegate*>(this);
            emit self->commitData(combo);
            emit self->closeEditor(combo);
        });
        return combo;
    }
    void setEditorData(QWidget* editor, const QModelIndex& index) const override
    {
        if (auto* combo = qobject_cast<QComboBox*>(editor))
            combo->setCurrentText(index.data(Qt::EditRole).toString());
        else
            QStyledItemDelegate::setEditorData(editor, index);
    }
    void setModelData(QWidget* editor, QAbstractItemModel* model,
                      const QModelIndex& index) const override
    {
        if (auto* combo = qobject_cast<QComboBox*>(editor))
            model->setData(index, combo->currentText());
        else
            QStyledItemDelegate::setModelData(editor, model, index);
    }
};

QString fromStd(const std::string& s)
{
    return QString::fromStdString(s);
}

QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// "the scenario has no name" -> "The scenario has no name."
QString sentence(QString text)
{
    if (!text.isEmpty()) text[0] = text[0].toUpper();
    if (!text.endsWith('.')) text += '.';
    return text;
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

void showError(QLabel* label, const QString& text)
{
    label->setText(text);
    label->setVisible(!text.isEmpty());
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

WhatIfPanel::WhatIfPanel(QWidget* parent) : QWidget(parent), specModel_(new SpecEditModel(this))
{
    sections_ = new QToolBox(this);
    sections_->setObjectName(QStringLiteral("sections"));
    sections_->addItem(createBaselinePage(), tr("Baselines and scale"));
    sections_->addItem(createNetworkPage(), tr("Network"));
    sections_->addItem(createSimulationPage(), tr("Simulation"));
    sections_->addItem(createSweepPage(), tr("Sweep"));
    sections_->addItem(createScenarioPage(), tr("Saved scenarios"));
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

    connect(specModel_, &SpecEditModel::editRejected, this, [this](QString m) {
        // The reader names the whole path; the file name is enough under the tree.
        const QString source = fromStd(specModel_->fileSpec().source);
        if (!source.isEmpty() && m.startsWith(source))
            m.replace(0, source.size(), QFileInfo(source).fileName());
        showError(editError_, m);
    });
    connect(specModel_, &SpecEditModel::editedChanged, this, &WhatIfPanel::onEditedChanged);
    connect(specModel_, &QAbstractItemModel::modelReset, specTree_, &QTreeView::expandAll);

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

    updateKind();
    onEditedChanged();
    setRunning(false);
}

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
    specTree_->setItemDelegateForColumn(SpecEditModel::ValueColumn,
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
    header->setSectionResizeMode(SpecEditModel::KeyColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(SpecEditModel::ValueColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(SpecEditModel::FileValueColumn, QHeaderView::Interactive);
    header->resizeSection(SpecEditModel::KeyColumn, 150);
    header->resizeSection(SpecEditModel::FileValueColumn, 90);
    column->addWidget(specTree_, 1);
    editError_ = errorLabel(QStringLiteral("specEditError"), page);
    column->addWidget(editError_);
    // A double-click anywhere on a leaf edits its value (only the value column is editable).
    connect(specTree_, &QTreeView::doubleClicked, this, [this](const QModelIndex& i) {
        const QModelIndex value = i.siblingAtColumn(SpecEditModel::ValueColumn);
        if (i.column() != SpecEditModel::ValueColumn && (value.flags() & Qt::ItemIsEditable))
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
    connect(resetSpec_, &QToolButton::clicked, specModel_, &SpecEditModel::resetAll);
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

void WhatIfPanel::setOpenTraces(const std::vector<TraceChoice>& traces)
{
    // Keep what is chosen; a chosen trace that is no longer open stays, marked so.
    QStringList checked;
    for (int i = 0; i < baselines_->count(); ++i)
        if (baselines_->item(i)->checkState() == Qt::Checked)
            checked << baselines_->item(i)->data(kPathRole).toString();
    const QString compared = compareWith_->currentData().toString();

    const QSignalBlocker block(baselines_);
    baselines_->clear();
    compareWith_->clear();
    compareWith_->addItem(QString(), QString());
    const auto add = [this](const QString& label, const QString& path, uint32_t ranks) {
        auto* item = new QListWidgetItem(label, baselines_);
        item->setData(kPathRole, path);
        item->setData(kRanksRole, ranks);
        item->setToolTip(QDir::toNativeSeparators(path));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
        compareWith_->addItem(label, path);
        compareWith_->setItemData(compareWith_->count() - 1, item->toolTip(), Qt::ToolTipRole);
        return item;
    };
    for (const TraceChoice& t : traces)
        add(tr("%1 (%2 ranks)").arg(t.name).arg(t.ranks), t.path, t.ranks);
    for (const QString& path : checked)
        if (std::none_of(traces.begin(), traces.end(),
                         [&](const TraceChoice& t) { return t.path == path; }))
            add(tr("%1 (not open)").arg(QFileInfo(path).fileName()), path, 0);
    for (int i = 0; i < baselines_->count(); ++i)
        if (checked.contains(baselines_->item(i)->data(kPathRole).toString()))
            baselines_->item(i)->setCheckState(Qt::Checked);
    int c = compareWith_->findData(compared);
    if (c < 0) {
        compareWith_->addItem(tr("%1 (not open)").arg(QFileInfo(compared).fileName()), compared);
        c = compareWith_->count() - 1;
    }
    compareWith_->setCurrentIndex(c);
    updateKind();
}

void WhatIfPanel::updateKind()
{
    const bool scale = kind_->currentData().toInt() == int(whatif::ScenarioKind::Scale);
    for (QWidget* w : {static_cast<QWidget*>(target_), static_cast<QWidget*>(targetPresets_),
                       static_cast<QWidget*>(method_), static_cast<QWidget*>(seed_)})
        w->setEnabled(scale);
    compareWith_->setItemText(0, scale ? tr("(none)") : tr("(baseline)"));
    compareWith_->setItemData(0,
                              scale ? tr("No measured run at the target to compare with")
                                    : tr("Compare the replay with the baseline trace itself"),
                              Qt::ToolTipRole);
    int checked = 0;
    for (int i = 0; i < baselines_->count(); ++i)
        checked += baselines_->item(i)->checkState() == Qt::Checked;
    if (baselines_->count() == 0)
        baselineHint_->setText(tr("No trace is open: open traces to use them as baselines."));
    else if (scale)
        baselineHint_->setText(
            tr("Check three or more traces at different scales (%1 checked).").arg(checked));
    else
        baselineHint_->setText(tr("Check the one trace to replay."));
    updateAutoName();
}

void WhatIfPanel::onBaselineChanged(QListWidgetItem* item)
{
    // A replay has one baseline: checking another one moves the check.
    if (item->checkState() == Qt::Checked &&
        kind_->currentData().toInt() == int(whatif::ScenarioKind::Replay)) {
        const QSignalBlocker block(baselines_);
        for (int i = 0; i < baselines_->count(); ++i)
            if (baselines_->item(i) != item) baselines_->item(i)->setCheckState(Qt::Unchecked);
    }
    if (!targetEdited_ && largestBaseline() > 0)
        target_->setValue(int(std::min<uint64_t>(uint64_t(largestBaseline()) * 2, kMaxTarget)));
    updateKind();
}

uint32_t WhatIfPanel::largestBaseline() const
{
    uint32_t largest = 0;
    for (int i = 0; i < baselines_->count(); ++i)
        if (baselines_->item(i)->checkState() == Qt::Checked)
            largest = std::max(largest, baselines_->item(i)->data(kRanksRole).toUInt());
    return largest;
}

void WhatIfPanel::fillTargetMenu()
{
    QMenu* menu = targetPresets_->menu();
    menu->clear();
    const uint32_t largest = largestBaseline();
    const auto set = [this](uint64_t ranks) {
        target_->setValue(int(std::min<uint64_t>(ranks, kMaxTarget)));
        targetEdited_ = true;
    };
    for (int factor : {2, 4, 8, 16}) {
        QAction* a = menu->addAction(largest ? tr("×%1 of the largest baseline (%2 ranks)")
                                                   .arg(factor)
                                                   .arg(uint64_t(largest) * factor)
                                             : tr("×%1 of the largest baseline").arg(factor));
        a->setEnabled(largest > 0);
        connect(a, &QAction::triggered, this,
                [set, largest, factor] { set(uint64_t(largest) * factor); });
    }
    menu->addSeparator();
    for (int ranks : {64, 256, 1024, 4096})
        connect(menu->addAction(tr("%1 ranks").arg(ranks)), &QAction::triggered, this,
                [set, ranks] { set(ranks); });
}

void WhatIfPanel::setBundledSpecs(const QStringList& paths)
{
    const QString current =
        specModel_->hasSpec() ? fromStd(specModel_->fileSpec().source) : QString();
    const QSignalBlocker block(specCombo_);
    specCombo_->clear();
    for (const QString& path : paths) {
        specCombo_->addItem(QFileInfo(path).completeBaseName(), path);
        specCombo_->setItemData(specCombo_->count() - 1, QDir::toNativeSeparators(path),
                                Qt::ToolTipRole);
    }
    specCombo_->insertSeparator(specCombo_->count());
    specCombo_->addItem(tr("Browse…"));
    specCombo_->setItemData(specCombo_->count() - 1, true, kBrowseRole);
    specCombo_->setItemData(specCombo_->count() - 1, tr("Open another spec file (*.yaml)"),
                            Qt::ToolTipRole);
    selectSpecEntry(current);
}

void WhatIfPanel::onSpecChosen(int index)
{
    const QString current =
        specModel_->hasSpec() ? fromStd(specModel_->fileSpec().source) : QString();
    if (specCombo_->itemData(index, kBrowseRole).toBool()) {
        // Stay on the shown spec until the app has read the new one (setSpec).
        selectSpecEntry(current);
        const QString dir = current.isEmpty() ? QString() : QFileInfo(current).absolutePath();
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Network Spec"), dir,
                                                          tr("Network specs (*.yaml *.yml)"));
        if (!path.isEmpty()) emit specFileRequested(path);
        return;
    }
    const QString path = specCombo_->itemData(index, kPathRole).toString();
    if (!path.isEmpty() && path != current) emit specFileRequested(path);
}

void WhatIfPanel::selectSpecEntry(const QString& path)
{
    const QSignalBlocker block(specCombo_);
    if (path.isEmpty()) {
        specCombo_->setCurrentIndex(-1);
        return;
    }
    int i = specCombo_->findData(path);
    for (int j = 0; i < 0 && j < specCombo_->count(); ++j) {
        const QString p = specCombo_->itemData(j, kPathRole).toString();
        if (!p.isEmpty() && QFileInfo(p) == QFileInfo(path)) i = j;
    }
    if (i < 0) {
        // A spec from elsewhere (Browse…, a session): listed above the bundled ones.
        specCombo_->insertItem(0, QFileInfo(path).completeBaseName(), path);
        specCombo_->setItemData(0, QDir::toNativeSeparators(path), Qt::ToolTipRole);
        i = 0;
    }
    specCombo_->setCurrentIndex(i);
}

void WhatIfPanel::setSpec(const netsim::NetworkSpec& fileSpec,
                          const std::vector<netsim::SpecOverride>& overrides)
{
    showError(specError_, {});
    showError(editError_, {});
    specModel_->setSpec(fileSpec, overrides); // emits editedChanged
    selectSpecEntry(fromStd(fileSpec.source));
    specTree_->expandAll();
    specTree_->resizeColumnToContents(SpecEditModel::KeyColumn);
    specTree_->header()->resizeSection(
        SpecEditModel::KeyColumn,
        std::clamp(specTree_->header()->sectionSize(SpecEditModel::KeyColumn), 110, 190));
    fillSweepParams();
}

void WhatIfPanel::setSpecError(const QString& message)
{
    showError(specError_, message);
    selectSpecEntry(specModel_->hasSpec() ? fromStd(specModel_->fileSpec().source) : QString());
}

void WhatIfPanel::onEditedChanged()
{
    const bool has = specModel_->hasSpec();
    const netsim::NetworkSpec& spec = specModel_->edited();
    showError(editError_, {});
    resetSpec_->setEnabled(!specModel_->overrides().empty());
    saveSpec_->setEnabled(has);
    // The eager limit line shows its edit; the file's value is the placeholder.
    const auto& o = specModel_->overrides();
    const auto eager = std::find_if(
        o.begin(), o.end(), [](const netsim::SpecOverride& e) { return e.key == "eager_limit"; });
    eagerLimit_->setEnabled(has);
    eagerLimit_->setText(eager != o.end() ? fromStd(eager->value) : QString());
    const std::string fileEager = specModel_->fileValue("eager_limit");
    eagerLimit_->setPlaceholderText(!has ? QString()
                                    : fileEager.empty()
                                        ? tr("%1 bytes (default)").arg(spec.eagerLimit)
                                        : tr("%1 (file)").arg(fromStd(fileEager)));
    // "(spec default: X)": the spec's choice, else the simulator's default.
    for (QComboBox* combo : collectives_) {
        const std::string op = combo->objectName().mid(int(qstrlen("collective."))).toStdString();
        std::string alg = has ? spec.collectiveAlgorithm(op) : std::string();
        if (alg.empty())
            if (const auto kind = netsim::collKindFromName(op))
                alg = std::string(netsim::algorithmName(netsim::defaultAlgorithm(*kind)));
        combo->setItemText(0, tr("(spec default: %1)").arg(fromStd(alg)));
        combo->setItemData(0, tr("Keep the spec's algorithm for %1").arg(fromStd(op)),
                           Qt::ToolTipRole);
    }
    updateAutoName();
}

void WhatIfPanel::applyEagerLimit()
{
    const std::string text = eagerLimit_->text().trimmed().toStdString();
    if (!specModel_->hasSpec()) return;
    if (text.empty())
        specModel_->resetKey("eager_limit");
    else
        specModel_->setValue("eager_limit", text); // a rejection shows under the tree
}

void WhatIfPanel::updateSweepHint()
{
    const std::string param = sweepParam_->currentText().trimmed().toStdString();
    QString text;
    if (param.empty())
        text = tr("Choose a parameter: Sweep then runs the scenario once per value, each with "
                  "the other controls as they are.");
    else if (param == "target")
        text = tr("target: the rank count of a scale prediction.");
    else if (param == "cpu_factor")
        text = tr("cpu_factor: multiplies every compute phase (0.5 = CPUs twice as fast).");
    else {
        const QString help = SpecEditModel::describeKey(param);
        const std::string inFile = specModel_->fileValue(param);
        text = fromStd(param) + QStringLiteral(": ") + (help.isEmpty() ? tr("a spec key") : help);
        if (!inFile.empty()) text += tr(" (in file: %1)").arg(fromStd(inFile));
        text += '.';
    }
    sweepHint_->setText(text);
}

void WhatIfPanel::fillSweepParams()
{
    const QString current = sweepParam_->currentText();
    const QSignalBlocker block(sweepParam_);
    sweepParam_->clear();
    sweepParam_->addItem(QString());
    sweepParam_->setItemData(0, tr("No sweep"), Qt::ToolTipRole);
    sweepParam_->addItem(QStringLiteral("target"));
    sweepParam_->setItemData(1, tr("Scale prediction: the rank count"), Qt::ToolTipRole);
    sweepParam_->addItem(QStringLiteral("cpu_factor"));
    sweepParam_->setItemData(2, tr("Multiplies every compute phase"), Qt::ToolTipRole);
    if (specModel_->hasSpec())
        for (const auto& [key, value] : specModel_->fileSpec().overridableKeys()) {
            sweepParam_->addItem(fromStd(key));
            sweepParam_->setItemData(sweepParam_->count() - 1,
                                     SpecEditModel::describeKey(key) +
                                         tr(" (in file: %1)").arg(fromStd(value)),
                                     Qt::ToolTipRole);
        }
    sweepParam_->setCurrentText(current);
    updateSweepHint();
}

QString WhatIfPanel::autoName() const
{
    const QString spec = specModel_->hasSpec() ? fromStd(specModel_->fileSpec().name) : QString();
    QString name = kind_->currentData().toInt() == int(whatif::ScenarioKind::Scale)
                       ? tr("Scale to %1 ranks").arg(target_->value())
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
    s.kind = whatif::ScenarioKind(kind_->currentData().toInt());
    for (int i = 0; i < baselines_->count(); ++i)
        if (baselines_->item(i)->checkState() == Qt::Checked)
            s.baselines.push_back(baselines_->item(i)->data(kPathRole).toString().toStdString());
    s.compareWith = compareWith_->currentData().toString().toStdString();
    if (specModel_->hasSpec()) s.network = specModel_->fileSpec().source;
    s.overrides = specModel_->overrides();
    s.model = model_->currentData().toString().toStdString();
    for (QComboBox* combo : collectives_)
        if (const QString alg = combo->currentData().toString(); !alg.isEmpty())
            s.collectives.emplace_back(
                combo->objectName().mid(int(qstrlen("collective."))).toStdString(),
                alg.toStdString());
    s.cpuFactor = cpuFactor_->value();
    if (s.kind == whatif::ScenarioKind::Scale) {
        s.target = uint32_t(target_->value());
        s.method = method_->currentData().toString().toStdString();
        s.seed = uint64_t(seed_->value());
    }
    s.sweepParam = sweepParam_->currentText().trimmed().toStdString();
    for (const QString& v : sweepValues_->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (const QString t = v.trimmed(); !t.isEmpty()) s.sweepValues.push_back(t.toStdString());
    return s;
}

void WhatIfPanel::setScenario(const whatif::Scenario& s, const netsim::NetworkSpec& fileSpec)
{
    QStringList problems;
    name_->setText(fromStd(s.name));
    kind_->setCurrentIndex(kind_->findData(int(s.kind)));

    // Baselines first, in the scenario's order; traces not open are listed, marked so.
    {
        const QSignalBlocker block(baselines_);
        for (int i = 0; i < baselines_->count(); ++i)
            baselines_->item(i)->setCheckState(Qt::Unchecked);
        for (size_t b = 0; b < s.baselines.size(); ++b) {
            const QString path = fromStd(s.baselines[b]);
            QListWidgetItem* item = nullptr;
            for (int i = 0; i < baselines_->count() && !item; ++i)
                if (baselines_->item(i)->data(kPathRole).toString() == path)
                    item = baselines_->takeItem(i);
            if (!item) {
                item = new QListWidgetItem(tr("%1 (not open)").arg(QFileInfo(path).fileName()));
                item->setData(kPathRole, path);
                item->setData(kRanksRole, 0u);
                item->setToolTip(QDir::toNativeSeparators(path));
                item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            }
            baselines_->insertItem(int(b), item);
            item->setCheckState(Qt::Checked);
        }
    }
    int c = compareWith_->findData(fromStd(s.compareWith));
    if (c < 0) {
        compareWith_->addItem(tr("%1 (not open)").arg(QFileInfo(fromStd(s.compareWith)).fileName()),
                              fromStd(s.compareWith));
        c = compareWith_->count() - 1;
    }
    compareWith_->setCurrentIndex(c);

    setSpec(fileSpec, s.overrides);

    int m = model_->findData(fromStd(s.model));
    if (m < 0) {
        model_->addItem(fromStd(s.model), fromStd(s.model));
        m = model_->count() - 1;
    }
    model_->setCurrentIndex(m);
    for (QComboBox* combo : collectives_)
        combo->setCurrentIndex(0);
    for (const auto& [op, alg] : s.collectives) {
        auto* combo = findChild<QComboBox*>(QStringLiteral("collective.") + fromStd(op));
        const int a = combo ? combo->findData(fromStd(alg)) : -1;
        if (a > 0)
            combo->setCurrentIndex(a);
        else
            problems << tr("unknown algorithm %1 for %2 ignored").arg(fromStd(alg), fromStd(op));
    }
    cpuFactor_->setValue(s.cpuFactor);
    if (s.kind == whatif::ScenarioKind::Scale) {
        target_->setValue(int(std::clamp<uint32_t>(s.target, 1, kMaxTarget)));
        targetEdited_ = true;
        const int method = method_->findData(fromStd(s.method));
        if (method >= 0)
            method_->setCurrentIndex(method);
        else
            problems << tr("unknown method %1 ignored").arg(fromStd(s.method));
        if (s.seed > uint64_t(INT_MAX))
            problems << tr("seed %1 too large for the control").arg(s.seed);
        seed_->setValue(int(std::min<uint64_t>(s.seed, INT_MAX)));
    }
    sweepParam_->setCurrentText(fromStd(s.sweepParam));
    QStringList values;
    for (const std::string& v : s.sweepValues)
        values << fromStd(v);
    sweepValues_->setText(values.join(QStringLiteral(", ")));
    updateKind();
    showMessage(problems.isEmpty() ? QString()
                                   : tr("Scenario loaded, but: %1.").arg(problems.join(", ")));
}

netsim::NetworkSpec WhatIfPanel::editedSpec() const
{
    return specModel_->edited();
}

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
    static const char* const names[] = {"baselines", "network", "simulation", "sweep",
                                        "scenarios"};
    for (int i = 0; i < int(std::size(names)); ++i)
        if (name == QLatin1String(names[i])) sections_->setCurrentIndex(i);
}

} // namespace rankscope
