#include "views/timeline/timelinefindbar.h"

#include "views/timeline/timelineview.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QToolButton>

namespace rankscope {

TimelineFindBar::TimelineFindBar(TimelineView* timeline, QWidget* parent)
    : QWidget(parent), timeline_(timeline), field_(new QLineEdit(this)),
      previous_(new QToolButton(this)), next_(new QToolButton(this)), status_(new QLabel(this))
{
    setObjectName(QStringLiteral("timelineFindBar"));
    field_->setPlaceholderText(tr("Function, call site or rank (e.g. MPI_Wait, solver.c:120, "
                                  "rank 12)"));
    field_->setClearButtonEnabled(true);
    field_->setMinimumWidth(field_->fontMetrics().horizontalAdvance(field_->placeholderText()) +
                            40);
    previous_->setText(tr("Previous"));
    previous_->setToolTip(tr("Previous occurrence in time (Shift+Enter, Shift+F3)"));
    next_->setText(tr("Next"));
    next_->setToolTip(tr("Next occurrence in time (Enter, F3)"));
    auto* close = new QToolButton(this);
    close->setIcon(style()->standardIcon(QStyle::SP_DialogCloseButton));
    close->setAutoRaise(true);
    close->setToolTip(tr("Close the find bar (Esc)"));
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    layout->addWidget(new QLabel(tr("Find:"), this));
    layout->addWidget(field_);
    layout->addWidget(previous_);
    layout->addWidget(next_);
    layout->addWidget(status_, 1);
    layout->addWidget(close);

    // Shift+Enter must reach us before the field turns it into returnPressed.
    field_->installEventFilter(this);
    connect(field_, &QLineEdit::returnPressed, this, [this] { findNext(true); });
    connect(previous_, &QToolButton::clicked, this, [this] { findNext(false); });
    connect(next_, &QToolButton::clicked, this, [this] { findNext(true); });
    connect(close, &QToolButton::clicked, this, [this] {
        hide();
        timeline_->setFocus();
    });
    hide();
}

void TimelineFindBar::activate()
{
    show();
    field_->setFocus(Qt::ShortcutFocusReason);
    field_->selectAll();
}

bool TimelineFindBar::findNext(bool forward)
{
    if (field_->text().trimmed().isEmpty()) {
        activate();
        return false;
    }
    show();
    bool found = false;
    status_->setText(timeline_->find(field_->text(), forward, &found));
    status_->setStyleSheet(found ? QString() : QStringLiteral("color: #b00020"));
    return found;
}

QString TimelineFindBar::status() const
{
    return status_->text();
}

bool TimelineFindBar::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == field_ && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) &&
            (key->modifiers() & Qt::ShiftModifier)) {
            findNext(false);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void TimelineFindBar::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape) {
        hide();
        timeline_->setFocus();
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace rankscope
