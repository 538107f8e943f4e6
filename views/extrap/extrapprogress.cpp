#include "views/extrap/extrapprogress.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

namespace rankscope {

namespace {
constexpr int kSteps = 1000;
} // namespace

ExtrapProgress::ExtrapProgress(QWidget* parent)
    : QWidget(parent), label_(new QLabel(this)), bar_(new QProgressBar(this)),
      cancel_(new QToolButton(this))
{
    bar_->setRange(0, kSteps);
    bar_->setMaximumWidth(180);
    bar_->setFormat(QStringLiteral("%p%"));
    cancel_->setObjectName(QStringLiteral("cancelExtrapolationButton"));
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop the extrapolation; no tab is opened"));
    connect(cancel_, &QToolButton::clicked, this, &ExtrapProgress::cancelRequested);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label_);
    layout->addWidget(bar_);
    layout->addWidget(cancel_);
    setBusy(false);
}

void ExtrapProgress::setBusy(bool busy, const QString& text)
{
    label_->setText(text);
    bar_->setValue(0);
    setVisible(busy);
}

void ExtrapProgress::setProgress(double fraction)
{
    bar_->setValue(int(fraction * kSteps));
}

} // namespace rankscope
