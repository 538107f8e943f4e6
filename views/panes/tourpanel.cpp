#include "views/panes/tourpanel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

namespace rankscope {

TourPanel::TourPanel(QWidget* parent)
    : QWidget(parent), list_(new QListWidget(this)), title_(new QLabel(this)),
      text_(new QLabel(this)), show_(new QPushButton(tr("Show me"), this)),
      back_(new QPushButton(tr("Back"), this)), next_(new QPushButton(tr("Next"), this))
{
    list_->setObjectName(QStringLiteral("tourSteps"));
    list_->setToolTip(tr("The steps of the tour; click one to read it"));
    list_->setMaximumHeight(190);
    title_->setObjectName(QStringLiteral("tourTitle"));
    QFont big = title_->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.15);
    title_->setFont(big);
    title_->setWordWrap(true);
    text_->setObjectName(QStringLiteral("tourText"));
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::RichText);
    text_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    text_->setMinimumHeight(120);
    show_->setObjectName(QStringLiteral("tourShow"));
    show_->setDefault(true);
    show_->setToolTip(tr("Let Rankscope do this step for you (Ctrl+Shift+Space)"));
    show_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Space));
    back_->setToolTip(tr("The previous step (Alt+PgUp)"));
    back_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_PageUp));
    next_->setToolTip(tr("The next step (Alt+PgDown)"));
    next_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_PageDown));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(back_);
    buttons->addStretch(1);
    buttons->addWidget(show_);
    buttons->addWidget(next_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(list_);
    layout->addWidget(title_);
    layout->addWidget(text_, 1);
    layout->addLayout(buttons);

    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row != current_) setCurrentStep(row);
    });
    connect(show_, &QPushButton::clicked, this, [this] {
        if (current_ < int(steps_.size())) emit stepActivated(current_);
    });
    connect(back_, &QPushButton::clicked, this, [this] { setCurrentStep(current_ - 1); });
    connect(next_, &QPushButton::clicked, this, [this] { setCurrentStep(current_ + 1); });
    refresh();
}

void TourPanel::setSteps(std::vector<Step> steps)
{
    steps_ = std::move(steps);
    done_.assign(steps_.size(), false);
    current_ = 0;
    refresh();
}

void TourPanel::setCurrentStep(int index)
{
    if (steps_.empty()) return;
    const int clamped = std::clamp(index, 0, int(steps_.size()) - 1);
    const bool changed = clamped != current_;
    current_ = clamped;
    refresh();
    if (changed) emit currentStepChanged(current_);
}

void TourPanel::setStepDone(int index, bool done)
{
    if (index < 0 || index >= int(done_.size())) return;
    done_[size_t(index)] = done;
    refresh();
}

bool TourPanel::stepDone(int index) const
{
    return index >= 0 && index < int(done_.size()) && done_[size_t(index)];
}

void TourPanel::refresh()
{
    const QSignalBlocker block(list_);
    list_->clear();
    for (size_t i = 0; i < steps_.size(); ++i)
        list_->addItem(QStringLiteral("%1 %2. %3")
                           .arg(done_[i] ? QChar(0x2713) : QChar(0x2022))
                           .arg(i + 1)
                           .arg(steps_[i].title));
    const bool any = !steps_.empty();
    if (any) {
        list_->setCurrentRow(current_);
        title_->setText(tr("Step %1 of %2: %3")
                            .arg(current_ + 1)
                            .arg(steps_.size())
                            .arg(steps_[size_t(current_)].title));
        text_->setText(steps_[size_t(current_)].text);
    } else {
        title_->setText(tr("No tour"));
        text_->clear();
    }
    show_->setEnabled(any);
    back_->setEnabled(any && current_ > 0);
    next_->setEnabled(any && current_ + 1 < int(steps_.size()));
}

} // namespace rankscope
