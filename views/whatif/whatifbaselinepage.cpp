#include "views/whatif/whatifbaselinepage.h"

#include "views/whatif/whatifpanel_p.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>

namespace rankscope {

using namespace whatifpanel;

WhatIfBaselinePage::WhatIfBaselinePage(QWidget* parent) : QWidget(parent)
{
    auto* form = compactForm();
    auto* outer = new QVBoxLayout(this);
    outer->addLayout(form);
    outer->addStretch(1); // the list keeps its size; the space goes below the controls

    kind_ = narrowCombo(this);
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

    baselines_ = new QListWidget(this);
    baselines_->setObjectName(QStringLiteral("baselines"));
    baselines_->setToolTip(tr("The open traces to start from: check one for a replay, three or "
                              "more at different scales for a prediction"));
    baselines_->setMinimumHeight(90);
    baselineHint_ = new QLabel(this);
    baselineHint_->setWordWrap(true);
    baselineHint_->setForegroundRole(QPalette::PlaceholderText);
    auto* baselineBox = new QVBoxLayout;
    baselineBox->setSpacing(2);
    baselineBox->addWidget(baselines_, 1);
    baselineBox->addWidget(baselineHint_);
    form->addRow(tr("&Baselines:"), baselineBox);
    static_cast<QLabel*>(form->labelForField(baselineBox))->setBuddy(baselines_);

    compareWith_ = narrowCombo(this);
    compareWith_->setObjectName(QStringLiteral("compareWith"));
    compareWith_->addItem(tr("(baseline)"), QString());
    compareWith_->setToolTip(tr("A measured run to put next to the result (for a prediction: a "
                                "run at the target scale)"));
    form->addRow(tr("Com&pare with:"), compareWith_);

    target_ = new QSpinBox(this);
    target_->setObjectName(QStringLiteral("target"));
    target_->setRange(1, kMaxTarget);
    target_->setValue(1024);
    target_->setSuffix(tr(" ranks"));
    target_->setToolTip(tr("The rank count to predict; the machine grows to hold it"));
    targetPresets_ = new QToolButton(this);
    targetPresets_->setObjectName(QStringLiteral("targetPresets"));
    targetPresets_->setText(tr("Presets"));
    targetPresets_->setPopupMode(QToolButton::InstantPopup);
    targetPresets_->setToolTip(tr("Multiples of the largest baseline, and common scales"));
    auto* presets = new QMenu(targetPresets_);
    targetPresets_->setMenu(presets);
    connect(presets, &QMenu::aboutToShow, this, &WhatIfBaselinePage::fillTargetMenu);
    auto* targetRow = new QHBoxLayout;
    targetRow->addWidget(target_, 1);
    targetRow->addWidget(targetPresets_);
    form->addRow(tr("&Target:"), targetRow);
    static_cast<QLabel*>(form->labelForField(targetRow))->setBuddy(target_);

    method_ = narrowCombo(this);
    method_->setObjectName(QStringLiteral("method"));
    method_->addItem(tr("Rankscope"), QStringLiteral("rankscope"));
    method_->addItem(tr("Classic"), QStringLiteral("classic"));
    method_->setToolTip(tr("Rankscope: per-interval composition, PMNF models, quantiles. "
                           "Classic: the four models of ScalaExtrap"));
    form->addRow(tr("&Method:"), method_);
    seed_ = new QSpinBox(this);
    seed_->setObjectName(QStringLiteral("seed"));
    seed_->setRange(0, INT_MAX);
    seed_->setValue(1);
    seed_->setToolTip(tr("Seed of the sampling of the predicted compute times: the same seed "
                         "gives the same trace"));
    form->addRow(tr("See&d:"), seed_);

    connect(kind_, &QComboBox::currentIndexChanged, this, &WhatIfBaselinePage::updateKind);
    connect(baselines_, &QListWidget::itemChanged, this, &WhatIfBaselinePage::onBaselineChanged);
    connect(target_, &QSpinBox::valueChanged, this, &WhatIfBaselinePage::changed);
    connect(target_, &QSpinBox::editingFinished, this, [this] { targetEdited_ = true; });
    updateKind();
}

WhatIfBaselinePage::~WhatIfBaselinePage()
{
    disconnectChildren(this);
}

void WhatIfBaselinePage::setOpenTraces(const std::vector<WhatIfTraceChoice>& traces)
{
    // Keep what is chosen; a chosen trace that is no longer open stays, marked so. What was
    // only offered (the trace in view) follows the view.
    QStringList checked;
    for (int i = 0; i < baselines_->count(); ++i)
        if (baselines_->item(i)->checkState() == Qt::Checked)
            checked << baselines_->item(i)->data(kPathRole).toString();
    const bool traceInView = std::any_of(traces.begin(), traces.end(),
                                         [](const WhatIfTraceChoice& t) { return t.active; });
    if (!baselinesChosen_ && traceInView) checked.clear();
    if (!baselinesChosen_)
        checked.removeIf([&](const QString& path) {
            return std::none_of(traces.begin(), traces.end(),
                                [&](const WhatIfTraceChoice& t) { return t.path == path; });
        });
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
    for (const WhatIfTraceChoice& t : traces)
        add(tr("%1 (%2 ranks)").arg(t.name).arg(t.ranks), t.path, t.ranks);
    for (const QString& path : checked)
        if (std::none_of(traces.begin(), traces.end(),
                         [&](const WhatIfTraceChoice& t) { return t.path == path; }))
            add(tr("%1 (not open)").arg(QFileInfo(path).fileName()), path, 0);
    // Nothing chosen yet: the trace in view is the likely baseline.
    if (checked.isEmpty())
        for (const WhatIfTraceChoice& t : traces)
            if (t.active) checked << t.path;
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

whatif::ScenarioKind WhatIfBaselinePage::kind() const
{
    return whatif::ScenarioKind(kind_->currentData().toInt());
}

int WhatIfBaselinePage::target() const
{
    return target_->value();
}

void WhatIfBaselinePage::updateKind()
{
    const bool scale = kind() == whatif::ScenarioKind::Scale;
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
    emit changed();
}

void WhatIfBaselinePage::onBaselineChanged(QListWidgetItem* item)
{
    baselinesChosen_ = true;
    // A replay has one baseline: checking another one moves the check.
    if (item->checkState() == Qt::Checked && kind() == whatif::ScenarioKind::Replay) {
        const QSignalBlocker block(baselines_);
        for (int i = 0; i < baselines_->count(); ++i)
            if (baselines_->item(i) != item) baselines_->item(i)->setCheckState(Qt::Unchecked);
    }
    if (!targetEdited_ && largestBaseline() > 0)
        target_->setValue(int(std::min<uint64_t>(uint64_t(largestBaseline()) * 2, kMaxTarget)));
    updateKind();
}

uint32_t WhatIfBaselinePage::largestBaseline() const
{
    uint32_t largest = 0;
    for (int i = 0; i < baselines_->count(); ++i)
        if (baselines_->item(i)->checkState() == Qt::Checked)
            largest = std::max(largest, baselines_->item(i)->data(kRanksRole).toUInt());
    return largest;
}

void WhatIfBaselinePage::fillTargetMenu()
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

void WhatIfBaselinePage::fillScenario(whatif::Scenario& s) const
{
    s.kind = kind();
    for (int i = 0; i < baselines_->count(); ++i)
        if (baselines_->item(i)->checkState() == Qt::Checked)
            s.baselines.push_back(baselines_->item(i)->data(kPathRole).toString().toStdString());
    s.compareWith = compareWith_->currentData().toString().toStdString();
    if (s.kind == whatif::ScenarioKind::Scale) {
        s.target = uint32_t(target_->value());
        s.method = method_->currentData().toString().toStdString();
        s.seed = uint64_t(seed_->value());
    }
}

void WhatIfBaselinePage::setScenario(const whatif::Scenario& s, QStringList& problems)
{
    kind_->setCurrentIndex(kind_->findData(int(s.kind)));

    // Baselines first, in the scenario's order; traces not open are listed, marked so.
    baselinesChosen_ = true;
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
}

} // namespace rankscope
