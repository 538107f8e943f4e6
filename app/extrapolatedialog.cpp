#include "app/extrapolatedialog.h"

#include "app/tracedocument.h"
#include "model/deltas/histogram.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

namespace rankscope {

namespace {

constexpr int kMaxTarget = int(extrap::kMaxTargetRanks);
enum MethodChoice
{
    Automatic,
    Both,
    RankscopeOnly,
    ClassicOnly
};

} // namespace

ExtrapolateDialog::ExtrapolateDialog(const QTabWidget* tabs, ExtrapolationJob* job, QWidget* parent)
    : QDialog(parent), job_(job), list_(new QListWidget(this)), target_(new QSpinBox(this)),
      methodBox_(new QComboBox(this)), modeBox_(new QComboBox(this)), bins_(new QSpinBox(this)),
      measuredBox_(new QComboBox(this)), message_(new QLabel(this)),
      startButton_(new QPushButton(tr("&Extrapolate"), this))
{
    setWindowTitle(tr("Extrapolate"));
    list_->setObjectName(QStringLiteral("traceList"));
    list_->setToolTip(tr("The runs at small scales to fit (at least 3 different rank counts)"));
    auto* add = new QPushButton(tr("&Add Traces…"), this);
    add->setToolTip(tr("Open more traces; they appear here when loaded"));
    connect(add, &QPushButton::clicked, this, &ExtrapolateDialog::addTracesRequested);

    target_->setRange(1, kMaxTarget);
    target_->setSuffix(tr(" ranks"));
    target_->setToolTip(tr("The scale to predict"));
    auto* targetRow = new QHBoxLayout;
    targetRow->addWidget(target_, 1);
    for (int factor : {2, 4}) {
        auto* b = new QToolButton(this);
        b->setText(QStringLiteral("×%1").arg(factor));
        b->setToolTip(tr("%1 times the largest chosen scale").arg(factor));
        connect(b, &QToolButton::clicked, this, [this, factor] { presetTarget(factor); });
        targetRow->addWidget(b);
    }
    methodBox_->addItem(tr("Auto (best held-out error)"), Automatic);
    methodBox_->addItem(tr("Both (side by side)"), Both);
    methodBox_->addItem(tr("Rankscope"), RankscopeOnly);
    methodBox_->addItem(tr("Classic"), ClassicOnly);
    methodBox_->setToolTip(
        tr("Auto: runs classic (sum and interval mode) and Rankscope, scores each by how well it "
           "predicts the largest chosen scale from the smaller ones (held-out error), and shows "
           "the winner first with the others beside it.\n"
           "Rankscope: per-interval composition or a direct robust fit of max S(r), PMNF models "
           "chosen by extrapolation error, quantiles.\nClassic: the four models of ScalaExtrap."));
    modeBox_->addItem(tr("Per interval"), int(extrap::Mode::Interval));
    modeBox_->addItem(tr("Sum of deltas"), int(extrap::Mode::Sum));
    modeBox_->setToolTip(tr("What the classic method fits: each execution interval, or the "
                            "per-rank sums directly"));
    bins_->setRange(1, kMaxHistogramBins);
    bins_->setValue(20);
    bins_->setToolTip(tr("Histogram bins"));
    measuredBox_->setToolTip(
        tr("An open trace at the target scale to compare the prediction with"));
    message_->setObjectName(QStringLiteral("validationMessage"));
    message_->setWordWrap(true);

    auto* form = new QFormLayout;
    form->addRow(tr("&Small-scale traces:"), list_);
    form->addRow(QString(), add);
    form->addRow(tr("&Target scale:"), targetRow);
    form->addRow(tr("M&easured at target:"), measuredBox_);
    form->addRow(tr("&Method:"), methodBox_);
    form->addRow(tr("Classic m&ode:"), modeBox_);
    form->addRow(tr("&Bins:"), bins_);
    static_cast<QLabel*>(form->labelForField(targetRow))->setBuddy(target_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons->addButton(startButton_, QDialogButtonBox::AcceptRole);
    startButton_->setDefault(true);
    startButton_->setToolTip(tr("Run in the background; the result opens in a new tab"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] { start(); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(message_);
    layout->addWidget(buttons);

    connect(list_, &QListWidget::itemChanged, this, [this] {
        if (!targetEdited_) presetTarget(2);
        validate();
    });
    connect(target_, &QSpinBox::valueChanged, this, [this] {
        refreshMeasured();
        validate();
    });
    connect(target_, &QSpinBox::editingFinished, this, [this] { targetEdited_ = true; });
    connect(methodBox_, &QComboBox::currentIndexChanged, this, [this] {
        const int m = methodBox_->currentData().toInt();
        modeBox_->setEnabled(m == Both || m == ClassicOnly);
    });
    modeBox_->setEnabled(false); // Auto chooses the classic mode itself
    for (int i = 0; tabs && i < tabs->count(); ++i)
        if (auto* doc = qobject_cast<TraceDocument*>(tabs->widget(i))) addTrace(doc->data());
    presetTarget(2);
    validate();
}

void ExtrapolateDialog::addTrace(const LoadedTrace& trace)
{
    if (!trace.trace) return;
    traces_.push_back(trace);
    auto* item = new QListWidgetItem(
        tr("%1 — %2 ranks").arg(trace.name).arg(trace.trace->rankCount()), list_);
    item->setToolTip(QDir::toNativeSeparators(trace.path));
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(Qt::Checked); // emits itemChanged: target and messages follow
}

void ExtrapolateDialog::setTraceChecked(int row, bool checked)
{
    if (QListWidgetItem* item = list_->item(row))
        item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

int ExtrapolateDialog::traceCount() const
{
    return int(traces_.size());
}

void ExtrapolateDialog::setTarget(uint32_t ranks)
{
    targetEdited_ = true;
    target_->setValue(int(std::min<uint32_t>(ranks, kMaxTarget)));
}

uint32_t ExtrapolateDialog::target() const
{
    return uint32_t(target_->value());
}

std::vector<uint32_t> ExtrapolateDialog::chosenScales() const
{
    std::vector<uint32_t> scales;
    for (int i = 0; i < list_->count(); ++i)
        if (list_->item(i)->checkState() == Qt::Checked)
            scales.push_back(uint32_t(traces_[size_t(i)].trace->rankCount()));
    return scales;
}

void ExtrapolateDialog::presetTarget(int factor)
{
    const std::vector<uint32_t> scales = chosenScales();
    if (scales.empty()) return;
    const uint32_t largest = *std::max_element(scales.begin(), scales.end());
    const QSignalBlocker block(target_);
    target_->setValue(int(std::min<uint64_t>(uint64_t(largest) * uint32_t(factor), kMaxTarget)));
    refreshMeasured();
    validate();
}

void ExtrapolateDialog::refreshMeasured()
{
    const QSignalBlocker block(measuredBox_);
    measuredBox_->clear();
    measuredBox_->addItem(tr("None"), -1);
    int first = 0, notInput = 0; // prefer a trace that is not also an input
    for (size_t i = 0; i < traces_.size(); ++i) {
        if (traces_[i].trace->rankCount() != target()) continue;
        measuredBox_->addItem(tr("%1 (%2 ranks)").arg(traces_[i].name).arg(target()), int(i));
        const int index = measuredBox_->count() - 1;
        if (first == 0) first = index;
        if (notInput == 0 && list_->item(int(i))->checkState() != Qt::Checked) notInput = index;
    }
    measuredBox_->setCurrentIndex(notInput != 0 ? notInput : first);
}

QString ExtrapolateDialog::message() const
{
    return message_->text();
}

bool ExtrapolateDialog::canStart() const
{
    return startButton_->isEnabled();
}

void ExtrapolateDialog::validate()
{
    std::vector<uint32_t> scales = chosenScales();
    QString error, warning;
    std::set<uint32_t> distinct(scales.begin(), scales.end());
    if (traces_.empty()) {
        error = tr("Open traces of the same program at 3 or more scales first.");
    } else if (distinct.size() != scales.size()) {
        for (int i = 0; i < list_->count() && error.isEmpty(); ++i)
            for (int j = 0; j < i && error.isEmpty(); ++j)
                if (list_->item(i)->checkState() == Qt::Checked &&
                    list_->item(j)->checkState() == Qt::Checked &&
                    traces_[size_t(i)].trace->rankCount() == traces_[size_t(j)].trace->rankCount())
                    error = tr("%1 and %2 both have %3 ranks: keep one of them.")
                                .arg(traces_[size_t(j)].name, traces_[size_t(i)].name)
                                .arg(traces_[size_t(i)].trace->rankCount());
    } else if (distinct.size() < 3) {
        QStringList s;
        for (uint32_t n : distinct)
            s << QString::number(n);
        error =
            tr("Choose traces at 3 or more different scales (now %1%2).")
                .arg(distinct.size())
                .arg(s.isEmpty() ? QString() : tr(": %1 ranks").arg(s.join(QStringLiteral(", "))));
    } else if (target() <= *distinct.rbegin()) {
        error = tr("The target (%1 ranks) must be above the largest chosen scale (%2): "
                   "extrapolation predicts a scale that was not run.")
                    .arg(target())
                    .arg(*distinct.rbegin());
    }
    message_->setText(error.isEmpty() ? warning : error);
    message_->setStyleSheet(error.isEmpty() ? QStringLiteral("color: #9a5b00")
                                            : QStringLiteral("color: #b00020"));
    message_->setVisible(!message_->text().isEmpty());
    startButton_->setEnabled(error.isEmpty());
}

ExtrapolationRequest ExtrapolateDialog::request() const
{
    ExtrapolationRequest r;
    for (int i = 0; i < list_->count(); ++i) {
        if (list_->item(i)->checkState() != Qt::Checked) continue;
        r.traces.push_back(traces_[size_t(i)].trace);
        r.names << traces_[size_t(i)].name;
        r.paths << traces_[size_t(i)].path;
    }
    const int m = measuredBox_->currentData().toInt();
    if (m >= 0 && size_t(m) < traces_.size()) {
        r.measured = traces_[size_t(m)].trace;
        r.measuredName = traces_[size_t(m)].name;
        r.measuredPath = traces_[size_t(m)].path;
    }
    r.target = target();
    const int method = methodBox_->currentData().toInt();
    r.automatic = method == Automatic;
    r.rankscope = method != ClassicOnly;
    r.classic = method != RankscopeOnly;
    r.classicMode = extrap::Mode(modeBox_->currentData().toInt());
    r.bins = bins_->value();
    return r;
}

bool ExtrapolateDialog::start()
{
    validate();
    if (!canStart() || !job_) return false;
    job_->start(request());
    accept();
    return true;
}

} // namespace rankscope
