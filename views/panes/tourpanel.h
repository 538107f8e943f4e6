#pragma once
// A guided tour as a side panel: numbered steps, each with a title and a few sentences, the
// current one expanded with a "Show me" button that makes the application do the step (the
// application decides what that means; this widget only emits stepActivated). Back / Next walk
// the steps; the panel never blocks the window, so a teacher can talk over it.

#include <QString>
#include <QWidget>
#include <vector>

class QLabel;
class QListWidget;
class QPushButton;

namespace rankscope {

class TourPanel : public QWidget
{
    Q_OBJECT
public:
    struct Step
    {
        QString title;
        QString text; ///< rich text allowed
    };

    explicit TourPanel(QWidget* parent = nullptr);

    void setSteps(std::vector<Step> steps);
    const std::vector<Step>& steps() const { return steps_; }
    int currentStep() const { return current_; }
    /// Shows step `index` (clamped) without doing it.
    void setCurrentStep(int index);
    /// Marks step `index` done (a tick in the list).
    void setStepDone(int index, bool done = true);
    bool stepDone(int index) const;

signals:
    /// The user asked the application to do step `index` ("Show me").
    void stepActivated(int index);
    void currentStepChanged(int index);

private:
    void refresh();

    std::vector<Step> steps_;
    std::vector<bool> done_;
    int current_ = 0;
    QListWidget* list_;
    QLabel* title_;
    QLabel* text_;
    QPushButton* show_;
    QPushButton* back_;
    QPushButton* next_;
};

} // namespace rankscope
