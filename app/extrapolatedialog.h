#pragma once
// "Extrapolate…": pick the small-scale traces among the open ones (their scales come from the
// rank counts), the target scale, the method(s), the classic mode and the bins; the measured
// trace at the target is picked automatically when one is open (or "none"). Problems show
// inline while the user edits; the Extrapolate button starts the background job and closes.

#include "app/extrapolationjob.h"
#include "app/loadedtrace.h"

#include <QDialog>
#include <vector>

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTabWidget;

namespace rankscope {

class ExtrapolateDialog : public QDialog
{
    Q_OBJECT
public:
    /// Offers the traces of the TraceDocument tabs of `tabs`; starts jobs on `job`.
    ExtrapolateDialog(const QTabWidget* tabs, ExtrapolationJob* job, QWidget* parent = nullptr);

    /// Adds a trace loaded while the dialog is open (checked).
    void addTrace(const LoadedTrace& trace);
    /// Checks or unchecks the trace at `row` of the list.
    void setTraceChecked(int row, bool checked);
    int traceCount() const;
    void setTarget(uint32_t ranks);
    uint32_t target() const;
    /// The request the current choices make (valid or not).
    ExtrapolationRequest request() const;
    /// The inline message: errors block the Extrapolate button, warnings do not.
    QString message() const;
    bool canStart() const;
    /// Starts the job and closes the dialog; false (and nothing happens) when invalid.
    bool start();

    QPushButton* startButton() const { return startButton_; }
    QComboBox* measuredBox() const { return measuredBox_; }
    QComboBox* methodBox() const { return methodBox_; }
    QComboBox* modeBox() const { return modeBox_; }

signals:
    /// "Add Traces…": the window opens its file dialog; loaded traces come back via addTrace.
    void addTracesRequested();

private:
    std::vector<uint32_t> chosenScales() const;
    void validate();
    void refreshMeasured();
    void presetTarget(int factor);

    ExtrapolationJob* job_;
    std::vector<LoadedTrace> traces_;
    QListWidget* list_;
    QSpinBox* target_;
    QComboBox* methodBox_;
    QComboBox* modeBox_;
    QSpinBox* bins_;
    QComboBox* measuredBox_;
    QLabel* message_;
    QPushButton* startButton_;
    bool targetEdited_ = false;
};

} // namespace rankscope
