#include "views/whatif/whatifsimulationpage.h"

#include "views/whatif/specitemmodel.h"
#include "views/whatif/whatifpanel_p.h"
#include "whatif/netsim/collectivealgorithm.h"
#include "whatif/netsim/simulation.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <algorithm>

namespace rankscope {

using namespace whatifpanel;

namespace {

QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

/// The collective operation a combo chooses for ("collective.bcast" -> "bcast").
std::string collectiveOf(const QComboBox* combo)
{
    return combo->objectName().mid(int(qstrlen("collective."))).toStdString();
}

struct ModelHelp
{
    const char* name;
    const char* help;
};
constexpr ModelHelp kModelHelp[] = {
    {"loggp", QT_TRANSLATE_NOOP("rankscope::WhatIfSimulationPage",
                                "LogGP: each message costs latency, CPU overheads "
                                "and size / bandwidth; links are never shared")},
    {"packet", QT_TRANSLATE_NOOP("rankscope::WhatIfSimulationPage",
                                 "Packets hop through the switches and queue at "
                                 "busy links (contention, store-and-forward or "
                                 "cut-through)")},
    {"flow", QT_TRANSLATE_NOOP("rankscope::WhatIfSimulationPage",
                               "Messages are flows that share each link's "
                               "bandwidth fairly (max-min)")},
};

} // namespace

WhatIfSimulationPage::WhatIfSimulationPage(const SpecItemModel* specModel, QWidget* parent)
    : QWidget(parent), specModel_(specModel)
{
    auto* form = compactForm();
    setLayout(form);

    engine_ = narrowCombo(this);
    engine_->setObjectName(QStringLiteral("engine"));
    engine_->addItem(tr("Rankscope"), QStringLiteral("rankscope"));
    engine_->setItemData(0, tr("Rankscope's own replay of the trace on the spec"), Qt::ToolTipRole);
    engine_->addItem(tr("SimGrid (smpirun)"), QStringLiteral("simgrid"));
    form->addRow(tr("&Engine:"), engine_);
    updateEngineAvailability();

    model_ = narrowCombo(this);
    model_->setObjectName(QStringLiteral("model"));
    for (const std::string& m : netsim::models()) {
        model_->addItem(fromStd(m), fromStd(m));
        for (const ModelHelp& h : kModelHelp)
            if (m == h.name) model_->setItemData(model_->count() - 1, tr(h.help), Qt::ToolTipRole);
    }
    model_->setToolTip(tr("How messages cross the network: loggp (no contention), packet "
                          "(packets queue at links), flow (flows share links)"));
    form->addRow(tr("Net&work model:"), model_);

    cpuFactor_ = new QDoubleSpinBox(this);
    cpuFactor_->setObjectName(QStringLiteral("cpuFactor"));
    cpuFactor_->setRange(0.01, 100);
    cpuFactor_->setSingleStep(0.1);
    cpuFactor_->setDecimals(2);
    cpuFactor_->setValue(1.0);
    cpuFactor_->setSuffix(QStringLiteral(" ×"));
    cpuFactor_->setToolTip(tr("Multiplies every compute phase between MPI calls: 0.5 models CPUs "
                              "twice as fast; the network is unchanged"));
    form->addRow(tr("&CPU factor:"), cpuFactor_);

    auto* heading = new QLabel(tr("Collective algorithms"), this);
    QFont bold = heading->font();
    bold.setBold(true);
    heading->setFont(bold);
    heading->setToolTip(tr("Which algorithm each collective operation runs; the first entry keeps "
                           "the spec's choice"));
    form->addRow(heading);
    for (int k = int(netsim::CollKind::Barrier); k <= int(netsim::CollKind::ReduceScatter); ++k) {
        const auto kind = netsim::CollKind(k);
        const QString op = fromView(netsim::collKindName(kind));
        auto* combo = narrowCombo(this);
        combo->setObjectName(QStringLiteral("collective.") + op);
        combo->addItem(QString(), QString()); // "(spec default: X)", see updateSpecDefaults
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

    connect(specModel_, &SpecItemModel::editedChanged, this,
            &WhatIfSimulationPage::updateSpecDefaults);
    updateSpecDefaults();
}

WhatIfSimulationPage::~WhatIfSimulationPage()
{
    disconnectChildren(this);
}

void WhatIfSimulationPage::updateEngineAvailability()
{
    const bool have = !QStandardPaths::findExecutable(QStringLiteral("smpirun")).isEmpty();
    if (auto* items = qobject_cast<QStandardItemModel*>(engine_->model()))
        if (QStandardItem* simgrid = items->item(1)) simgrid->setEnabled(have);
    const QString install = tr("SimGrid's smpirun is not on PATH: install it with "
                               "`apt-get install libsimgrid-dev` (Debian, Ubuntu), or put "
                               "smpirun on PATH");
    engine_->setItemData(1,
                         have ? tr("Also replay the same action program with SimGrid's "
                                   "smpirun -replay on a platform from the spec, and open its "
                                   "predicted trace beside Rankscope's")
                              : install,
                         Qt::ToolTipRole);
    engine_->setToolTip(
        tr("Who replays the scenario: Rankscope's simulator, or SimGrid's smpirun as well "
           "(both predicted run times, their difference and each engine's wall-clock are "
           "shown in the result's Summary)") +
        (have ? QString() : QStringLiteral("\n") + install));
}

void WhatIfSimulationPage::showEvent(QShowEvent* event)
{
    updateEngineAvailability();
    QWidget::showEvent(event);
}

void WhatIfSimulationPage::updateSpecDefaults()
{
    const bool has = specModel_->hasSpec();
    const netsim::NetworkSpec& spec = specModel_->edited();
    for (QComboBox* combo : collectives_) {
        const std::string op = collectiveOf(combo);
        std::string alg = has ? spec.collectiveAlgorithm(op) : std::string();
        if (alg.empty())
            if (const auto kind = netsim::collKindFromName(op))
                alg = std::string(netsim::algorithmName(netsim::defaultAlgorithm(*kind)));
        combo->setItemText(0, tr("(spec default: %1)").arg(fromStd(alg)));
        combo->setItemData(0, tr("Keep the spec's algorithm for %1").arg(fromStd(op)),
                           Qt::ToolTipRole);
    }
}

void WhatIfSimulationPage::fillScenario(whatif::Scenario& s) const
{
    s.engine = engine_->currentData().toString().toStdString();
    s.model = model_->currentData().toString().toStdString();
    for (QComboBox* combo : collectives_)
        if (const QString alg = combo->currentData().toString(); !alg.isEmpty())
            s.collectives.emplace_back(collectiveOf(combo), alg.toStdString());
    s.cpuFactor = cpuFactor_->value();
}

void WhatIfSimulationPage::setScenario(const whatif::Scenario& s, QStringList& problems)
{
    const int e = engine_->findData(fromStd(s.engine));
    if (e < 0) problems << tr("unknown engine %1 ignored").arg(fromStd(s.engine));
    engine_->setCurrentIndex(std::max(e, 0));
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
}

} // namespace rankscope
