#include "views/whatif/whatifnetworkpage.h"

#include "views/whatif/specitemmodel.h"
#include "views/whatif/specvaluedelegate.h"
#include "views/whatif/whatifpanel_p.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QShortcut>
#include <QToolButton>
#include <QTreeView>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>

namespace rankscope {

using namespace whatifpanel;

namespace {

void showError(QLabel* label, const QString& text)
{
    label->setText(text);
    label->setVisible(!text.isEmpty());
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

/// "Calibrate to this trace" as a step of the spec's undo stack: Undo brings back the previous
/// baseline spec.
class BaselineCommand : public QUndoCommand
{
public:
    BaselineCommand(WhatIfNetworkPage* page, std::vector<netsim::SpecOverride> after, QString what)
        : QUndoCommand(QObject::tr("calibrate to %1").arg(what)), page_(page),
          before_(page->baselineOverrides()), beforeWhat_(page->baselineWhat()),
          after_(std::move(after)), afterWhat_(std::move(what))
    {
    }
    void undo() override { page_->setBaseline(before_, beforeWhat_); }
    void redo() override { page_->setBaseline(after_, afterWhat_); }

private:
    WhatIfNetworkPage* page_;
    std::vector<netsim::SpecOverride> before_;
    QString beforeWhat_;
    std::vector<netsim::SpecOverride> after_;
    QString afterWhat_;
};

} // namespace

WhatIfNetworkPage::WhatIfNetworkPage(SpecItemModel* specModel, QWidget* parent)
    : QWidget(parent), specModel_(specModel)
{
    auto* column = new QVBoxLayout(this);
    column->setSpacing(4);

    specCombo_ = narrowCombo(this);
    specCombo_->setObjectName(QStringLiteral("specCombo"));
    specCombo_->setPlaceholderText(tr("Choose a network spec…"));
    specCombo_->setToolTip(tr("The network spec to start from; its file is only read, the edits "
                              "below change a copy"));
    specCombo_->addItem(tr("Browse…"));
    specCombo_->setItemData(0, true, kBrowseRole);
    specCombo_->setItemData(0, tr("Open another spec file (*.yaml)"), Qt::ToolTipRole);
    specCombo_->setCurrentIndex(-1);
    auto* specLabel = new QLabel(tr("&Spec:"), this);
    specLabel->setBuddy(specCombo_);
    auto* specRow = new QHBoxLayout;
    specRow->addWidget(specLabel);
    specRow->addWidget(specCombo_, 1);
    column->addLayout(specRow);
    specError_ = errorLabel(QStringLiteral("specError"), this);
    column->addWidget(specError_);

    specTree_ = new QTreeView(this);
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
    editError_ = errorLabel(QStringLiteral("specEditError"), this);
    column->addWidget(editError_);
    // A double-click anywhere on a leaf edits its value (only the value column is editable).
    connect(specTree_, &QTreeView::doubleClicked, this, [this](const QModelIndex& i) {
        const QModelIndex value = i.siblingAtColumn(SpecItemModel::ValueColumn);
        if (i.column() != SpecItemModel::ValueColumn && (value.flags() & Qt::ItemIsEditable))
            specTree_->edit(value);
    });

    QUndoStack* stack = specModel_->undoStack();
    const auto toolButton = [this](const QString& name, const QString& text, const QString& tip) {
        auto* b = new QToolButton(this);
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
            [this] { emit saveSpecRequested(specModel_->edited()); });
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

    calibrate_ = new QPushButton(tr("Calibrate to this trace"), this);
    calibrate_->setObjectName(QStringLiteral("calibrate"));
    calibrate_->setToolTip(tr("Fit the spec's latencies, bandwidths, overheads and eager limit "
                              "to the first baseline trace; the result becomes the baseline "
                              "spec (undoable, saved with the scenario)"));
    connect(calibrate_, &QPushButton::clicked, this, &WhatIfNetworkPage::calibrateRequested);
    baselineLabel_ = new QLabel(this);
    baselineLabel_->setWordWrap(true);
    baselineLabel_->setText(tr("Baseline: the spec file"));
    auto* calibrateRow = new QHBoxLayout;
    calibrateRow->addWidget(calibrate_);
    calibrateRow->addWidget(baselineLabel_, 1);
    column->addLayout(calibrateRow);

    eagerLimit_ = new QLineEdit(this);
    eagerLimit_->setObjectName(QStringLiteral("eagerLimit"));
    eagerLimit_->setClearButtonEnabled(true);
    eagerLimit_->setToolTip(tr("Messages up to this size are sent eagerly; larger ones wait for "
                               "the receiver first (rendezvous). With units, e.g. 64KiB; empty: "
                               "the file's value"));
    auto* eagerLabel = new QLabel(tr("&Eager limit:"), this);
    eagerLabel->setBuddy(eagerLimit_);
    auto* eagerRow = new QHBoxLayout;
    eagerRow->addWidget(eagerLabel);
    eagerRow->addWidget(eagerLimit_, 1);
    column->addLayout(eagerRow);
    connect(eagerLimit_, &QLineEdit::editingFinished, this, &WhatIfNetworkPage::applyEagerLimit);

    connect(specCombo_, &QComboBox::activated, this, &WhatIfNetworkPage::onSpecChosen);

    connect(specModel_, &SpecItemModel::editRejected, this, [this](QString m) {
        // The reader names the whole path; the file name is enough under the tree.
        const QString source = fromStd(specModel_->fileSpec().source);
        if (!source.isEmpty() && m.startsWith(source))
            m.replace(0, source.size(), QFileInfo(source).fileName());
        showError(editError_, m);
    });
    connect(specModel_, &SpecItemModel::editedChanged, this, &WhatIfNetworkPage::onEditedChanged);
    connect(specModel_, &QAbstractItemModel::modelReset, specTree_, &QTreeView::expandAll);
    onEditedChanged();
}

WhatIfNetworkPage::~WhatIfNetworkPage()
{
    disconnectChildren(this);
}

void WhatIfNetworkPage::setBundledSpecs(const QStringList& paths)
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

void WhatIfNetworkPage::onSpecChosen(int index)
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

void WhatIfNetworkPage::selectSpecEntry(const QString& path)
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

void WhatIfNetworkPage::setSpec(const netsim::NetworkSpec& fileSpec,
                                const std::vector<netsim::SpecOverride>& overrides)
{
    showError(specError_, {});
    showError(editError_, {});
    if (!specModel_->hasSpec() || specModel_->fileSpec().source != fileSpec.source)
        setBaseline({}, {}); // calibrated values belong to the file they were fitted to
    specModel_->setSpec(fileSpec, overrides); // emits editedChanged
    selectSpecEntry(fromStd(fileSpec.source));
    specTree_->expandAll();
    specTree_->resizeColumnToContents(SpecItemModel::KeyColumn);
    specTree_->header()->resizeSection(
        SpecItemModel::KeyColumn,
        std::clamp(specTree_->header()->sectionSize(SpecItemModel::KeyColumn), 110, 190));
}

void WhatIfNetworkPage::setSpecError(const QString& message)
{
    showError(specError_, message);
    selectSpecEntry(specModel_->hasSpec() ? fromStd(specModel_->fileSpec().source) : QString());
}

void WhatIfNetworkPage::onEditedChanged()
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
}

void WhatIfNetworkPage::applyEagerLimit()
{
    const std::string text = eagerLimit_->text().trimmed().toStdString();
    if (!specModel_->hasSpec()) return;
    if (text.empty())
        specModel_->resetKey("eager_limit");
    else
        specModel_->setValue("eager_limit", text); // a rejection shows under the tree
}

void WhatIfNetworkPage::applyCalibration(std::vector<netsim::SpecOverride> baseline,
                                         const QString& what)
{
    specModel_->undoStack()->push(new BaselineCommand(this, std::move(baseline), what));
}

void WhatIfNetworkPage::setBaseline(std::vector<netsim::SpecOverride> baseline, const QString& what)
{
    baseline_ = std::move(baseline);
    baselineWhat_ = what;
    // The spec tree shows the calibrated values as edits, the file's beside them.
    specModel_->setBaseline(baseline_);
    if (!baselineLabel_) return;
    if (baseline_.empty()) {
        baselineLabel_->setText(tr("Baseline: the spec file"));
        baselineLabel_->setToolTip({});
        return;
    }
    baselineLabel_->setText(
        tr("Baseline: calibrated to %1 (%n value(s))", nullptr, int(baseline_.size())).arg(what));
    QString tip;
    for (const netsim::SpecOverride& o : baseline_)
        tip += QString::fromStdString(o.key + " = " + o.value) + QLatin1Char('\n');
    baselineLabel_->setToolTip(tip.trimmed());
}

} // namespace rankscope
