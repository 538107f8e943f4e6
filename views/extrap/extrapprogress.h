#pragma once
// The status-bar strip of a running extrapolation: what runs, a progress bar and Cancel. Hidden
// while nothing runs, so it can sit in the status bar next to the loading strip.

#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace rankscope {

class ExtrapProgress : public QWidget
{
    Q_OBJECT
public:
    explicit ExtrapProgress(QWidget* parent = nullptr);

    /// Shows `text` and the bar, or hides everything when `busy` is false.
    void setBusy(bool busy, const QString& text = {});
    void setProgress(double fraction);
    QToolButton* cancelButton() const { return cancel_; }

signals:
    void cancelRequested();

private:
    QLabel* label_;
    QProgressBar* bar_;
    QToolButton* cancel_;
};

} // namespace rankscope
