#pragma once
// Two runs (typically measured and predicted) stacked, sharing one time axis: zooming or
// panning either timeline moves the other to the same displayed window. The runs can be
// aligned at their own time zero or at the end of MPI_Init (the latest Leave of MPI_Init over
// all ranks), so start-up differences do not hide the differences that matter. A summary strip
// underneath compares run time and MPI time.

#include "views/timeline/timelineview.h"

#include <QString>
#include <QWidget>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;

namespace rankscope {

struct WaitStateAnalysis;
class WaitSummary;

class SummaryStrip;
class Trace;
class TimelineSummary;
struct Profile;
struct TimelineIndex;

class ComparisonView : public QWidget
{
    Q_OBJECT
public:
    enum class Alignment
    {
        AbsoluteTime,
        EndOfMpiInit
    };

    /// One compared run: its name and the data loaded for it (kept alive while shown).
    struct Run
    {
        QString name;
        std::shared_ptr<const Trace> trace;
        std::shared_ptr<const TimelineSummary> summary;
        std::shared_ptr<const Profile> profile;
        std::shared_ptr<const TimelineIndex> index;     ///< may be null (then built on show)
        std::shared_ptr<const WaitStateAnalysis> waits; ///< may be null (no overlay)
        std::shared_ptr<const WaitSummary> waitSummary; ///< may be null (then built on show)
    };

    explicit ComparisonView(QWidget* parent = nullptr);

    /// Shows `first` above `second`, aligned as chosen (EndOfMpiInit by default).
    void setRuns(Run first, Run second);
    const Run& run(int index) const { return runs_[size_t(index)]; }
    TimelineView* timeline(int index) const { return views_[size_t(index)]; }

    void setAlignment(Alignment alignment);
    Alignment alignment() const { return alignment_; }

    /// The latest Leave of MPI_Init / MPI_Init_thread over all ranks (trace time, ns); nullopt
    /// when no rank calls it.
    static std::optional<int64_t> endOfMpiInit(const Trace& trace);

signals:
    void selectionChanged(const rankscope::TimelineSelection& selection);

private:
    void applyAlignment();
    void couple(int from, double beginNs, double endNs);

    std::array<Run, 2> runs_;
    std::array<TimelineView*, 2> views_{};
    std::array<QLabel*, 2> titles_{};
    std::array<std::optional<int64_t>, 2> initEnd_;
    QComboBox* alignBox_;
    SummaryStrip* strip_;
    Alignment alignment_ = Alignment::EndOfMpiInit;
    bool coupling_ = false; // guards against the echo of our own setVisibleRange
};

} // namespace rankscope
