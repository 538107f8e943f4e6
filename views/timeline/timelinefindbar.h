#pragma once
// The find bar over a timeline (Ctrl+F): a field for a function, call site or rank
// (TimelineFinder), Previous / Next buttons (Shift+Enter / Enter, Shift+F3 / F3) that select the
// previous / next occurrence in time, and a line saying what was found. Escape closes it.

#include <QWidget>

class QLabel;
class QLineEdit;
class QToolButton;

namespace rankscope {

class TimelineView;

class TimelineFindBar : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineFindBar(TimelineView* timeline, QWidget* parent = nullptr);

    /// Shows the bar and puts the cursor in its field, the text selected.
    void activate();
    /// Finds the next (`forward`) or previous occurrence of the field's text; false when none.
    bool findNext(bool forward = true);
    QLineEdit* field() const { return field_; }
    /// What the last search said ("MPI_Recv on rank 3 at 1.274320050 s", "No later ...").
    QString status() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    TimelineView* timeline_;
    QLineEdit* field_;
    QToolButton* previous_;
    QToolButton* next_;
    QLabel* status_;
};

} // namespace rankscope
