#pragma once
// The communication-matrix pane: a row of controls (metric, collectives on/off, a summary of
// what is shown, progress and Cancel while computing) over the CommMatrixView heat map.
//
// The matrix follows the timeline: setTimeRange and setRanks (the visible range and the rank
// filter) schedule a recomputation off the GUI thread (computeCommMatrix, one pass over the
// message table), debounced so a zoom gesture starts one job, not one per frame. Each job
// carries an id and a cancel flag; a newer request cancels the running job and its result is
// dropped.

#include "model/analysis/commmatrix.h"
#include "model/trace/ids.h"

#include <QWidget>
#include <atomic>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QTimer;
class QToolButton;

namespace rankscope {

class BackgroundJob;

class CommMatrixView;
class Trace;

class CommMatrixPanel : public QWidget
{
    Q_OBJECT
public:
    /// Quiet time after the last range change before a job starts.
    static constexpr int kDebounceMs = 120;

    explicit CommMatrixPanel(QWidget* parent = nullptr);
    /// Cancels the running job and waits for it.
    ~CommMatrixPanel() override;

    /// Shows `trace`'s matrix over the whole run (null clears).
    void setTrace(std::shared_ptr<const Trace> trace);
    /// Restricts the matrix to messages sent in trace time [from, to).
    void setTimeRange(int64_t from, int64_t to);
    /// The ranks shown, in order (empty: all).
    void setRanks(std::vector<RankId> ranks);
    /// Starts the pending computation now instead of after the debounce.
    void recomputeNow();
    /// Stops the running computation (the last matrix stays shown).
    void cancel();

    bool busy() const;
    CommMatrixOptions options() const { return options_; }
    /// "1,234 messages · 5.00 MiB · 12 pairs · sent in [a, b)".
    QString summaryText() const;

    CommMatrixView* view() const { return view_; }
    QComboBox* metricBox() const { return metric_; }
    QCheckBox* collectivesBox() const { return collectives_; }

signals:
    /// A cell was clicked: the ranks of its row (senders) and column (receivers).
    void cellClicked(const std::vector<rankscope::RankId>& senders,
                     const std::vector<rankscope::RankId>& receivers);
    /// A computation finished and its matrix is shown.
    void matrixReady();

private:
    void schedule();
    void start();
    void updateSummary();

    std::shared_ptr<const Trace> trace_;
    CommMatrixOptions options_;
    QComboBox* metric_;
    QCheckBox* collectives_;
    QLabel* summary_;
    QProgressBar* progress_;
    QToolButton* cancel_;
    CommMatrixView* view_;
    QTimer* debounce_;

    BackgroundJob* job_; ///< the matrix, off the GUI thread
    bool cancelled_ = false;
};

} // namespace rankscope
