#include "views/whatif/whatifpanel.h"

#include "views/whatif/whatifpanel_p.h"
#include "whatif/netsim/collectivealgorithm.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QToolBox>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>
#include <cmath>

namespace rankscope {

using namespace whatifpanel;

namespace {

void showError(QLabel* label, const QString& text)
{
    label->setText(text);
    label->setVisible(!text.isEmpty());
}

} // namespace

WhatIfPanel::~WhatIfPanel()
{
    for (QObject* child : findChildren<QObject*>())
        child->disconnect(this);
}

WhatIfPanel::WhatIfPanel(QWidget* parent) : QWidget(parent), specModel_(new SpecItemModel(this))
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

    connect(specModel_, &SpecItemModel::editRejected, this, [this](QString m) {
        // The reader names the whole path; the file name is enough under the tree.
        const QString source = fromStd(specModel_->fileSpec().source);
        if (!source.isEmpty() && m.startsWith(source))
            m.replace(0, source.size(), QFileInfo(source).fileName());
        showError(editError_, m);
    });
    connect(specModel_, &SpecItemModel::editedChanged, this, &WhatIfPanel::onEditedChanged);
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
    if (!specModel_->hasSpec() || specModel_->fileSpec().source != fileSpec.source)
        setBaseline({}, {}); // calibrated values belong to the file they were fitted to
    specModel_->setSpec(fileSpec, overrides); // emits editedChanged
    selectSpecEntry(fromStd(fileSpec.source));
    specTree_->expandAll();
    specTree_->resizeColumnToContents(SpecItemModel::KeyColumn);
    specTree_->header()->resizeSection(
        SpecItemModel::KeyColumn,
        std::clamp(specTree_->header()->sectionSize(SpecItemModel::KeyColumn), 110, 190));
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
        const QString help = SpecItemModel::describeKey(param);
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
                                     SpecItemModel::describeKey(key) +
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
    s.baselineOverrides = baseline_;
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
    setBaseline(s.baselineOverrides, s.baselineOverrides.empty() ? QString() : tr("saved"));

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

} // namespace rankscope
