#include "views/whatif/whatifsweeppage.h"

#include "views/whatif/specitemmodel.h"
#include "views/whatif/whatifpanel_p.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <cctype>

namespace rankscope {

using namespace whatifpanel;

WhatIfSweepPage::WhatIfSweepPage(const SpecItemModel* specModel, QWidget* parent)
    : QWidget(parent), specModel_(specModel)
{
    auto* form = compactForm();
    setLayout(form);
    param_ = narrowCombo(this);
    param_->setObjectName(QStringLiteral("sweepParam"));
    param_->setEditable(true);
    param_->setInsertPolicy(QComboBox::NoInsert);
    param_->lineEdit()->setPlaceholderText(tr("no sweep"));
    param_->setToolTip(tr("The parameter to vary: target (ranks), cpu_factor, or any key of "
                          "the spec (links.wan.latency, eager_limit...)"));
    form->addRow(tr("&Parameter:"), param_);
    values_ = new QLineEdit(this);
    values_->setObjectName(QStringLiteral("sweepValues"));
    values_->setPlaceholderText(tr("e.g. 1ms,2ms,5ms,10ms,20ms"));
    values_->setClearButtonEnabled(true);
    values_->setToolTip(tr("The values to try, comma separated, with units where the key "
                           "has them; one run per value"));
    form->addRow(tr("&Values:"), values_);
    hint_ = new QLabel(this);
    hint_->setWordWrap(true);
    hint_->setForegroundRole(QPalette::PlaceholderText);
    form->addRow(hint_);
    connect(param_, &QComboBox::currentTextChanged, this, &WhatIfSweepPage::updateHint);
    updateHint();
}

WhatIfSweepPage::~WhatIfSweepPage()
{
    disconnectChildren(this);
}

void WhatIfSweepPage::updateHint()
{
    const std::string param = param_->currentText().trimmed().toStdString();
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
    hint_->setText(text);
}

void WhatIfSweepPage::fillParams()
{
    const QString current = param_->currentText();
    const QSignalBlocker block(param_);
    param_->clear();
    param_->addItem(QString());
    param_->setItemData(0, tr("No sweep"), Qt::ToolTipRole);
    param_->addItem(QStringLiteral("target"));
    param_->setItemData(1, tr("Scale prediction: the rank count"), Qt::ToolTipRole);
    param_->addItem(QStringLiteral("cpu_factor"));
    param_->setItemData(2, tr("Multiplies every compute phase"), Qt::ToolTipRole);
    if (specModel_->hasSpec())
        for (const auto& [key, value] : specModel_->fileSpec().overridableKeys()) {
            // Only numbers (with or without a unit) can be swept: not names, mappings or
            // topologies.
            if (value.empty() || !(std::isdigit(static_cast<unsigned char>(value[0])) ||
                                   value[0] == '.' || value[0] == '-' || value[0] == '+'))
                continue;
            param_->addItem(fromStd(key));
            param_->setItemData(param_->count() - 1,
                                SpecItemModel::describeKey(key) +
                                    tr(" (in file: %1)").arg(fromStd(value)),
                                Qt::ToolTipRole);
        }
    param_->setCurrentText(current);
    updateHint();
}

void WhatIfSweepPage::fillScenario(whatif::Scenario& s) const
{
    s.sweepParam = param_->currentText().trimmed().toStdString();
    for (const QString& v : values_->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (const QString t = v.trimmed(); !t.isEmpty()) s.sweepValues.push_back(t.toStdString());
}

void WhatIfSweepPage::setScenario(const whatif::Scenario& s)
{
    param_->setCurrentText(fromStd(s.sweepParam));
    QStringList values;
    for (const std::string& v : s.sweepValues)
        values << fromStd(v);
    values_->setText(values.join(QStringLiteral(", ")));
}

} // namespace rankscope
