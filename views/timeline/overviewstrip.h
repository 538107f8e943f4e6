#pragma once
// The whole run at a glance above the timeline (Vampir's and Tracy's overview): per pixel
// column, the share of ranks in MPI and in computation, with the timeline's visible window
// drawn on it. Clicking centres the window there; dragging the window pans the timeline.
// Columns line up with the timeline's plot area; up to kMaxSampledRanks ranks, spread evenly,
// are sampled from the timeline summary, so the strip costs the same at any rank count.

#include <QWidget>
#include <memory>
#include <vector>

namespace rankscope {

class Trace;
class TimelineSummary;
class TimelineView;

class OverviewStrip : public QWidget
{
    Q_OBJECT
public:
    static constexpr size_t kMaxSampledRanks = 64;

    explicit OverviewStrip(TimelineView* timeline, QWidget* parent = nullptr);

    /// The run shown (the timeline's trace and summary; both stay alive while shown).
    void setTrace(std::shared_ptr<const Trace> trace,
                  std::shared_ptr<const TimelineSummary> summary);

    /// Per pixel column of the plot area: the share (0..1) of sampled ranks in an MPI call,
    /// and in computation (any other region); computed for the current width.
    const std::vector<float>& mpiShare() const;
    const std::vector<float>& computeShare() const;
    /// The x range (widget coordinates) of the timeline's visible window on the strip.
    std::pair<int, int> windowPixels() const;

    /// A named time range drawn over the strip (a bookmark), in displayed time (ns).
    struct Mark
    {
        QString name;
        double begin = 0, end = 0;
    };
    void setMarks(std::vector<Mark> marks);
    const std::vector<Mark>& marks() const { return marks_; }
    /// The x range (widget coordinates) of mark `i` on the strip, at least 3 px wide.
    std::pair<int, int> markPixels(size_t i) const;
    /// The mark under widget x in the marks' lane at the top of the strip, or -1; of marks
    /// that overlap there, the narrowest (drawn on top; the last of equal ones).
    int markAt(double x) const;

signals:
    /// Mark `i` was clicked: the document shows its range.
    void markActivated(int i);

public:
    QSize sizeHint() const override { return {400, 30}; }
    QSize minimumSizeHint() const override { return {100, 22}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    void ensureColumns() const;
    double runBegin() const; ///< displayed time of the run's start
    double runSpan() const;
    double timeAt(double x) const; ///< displayed time at widget x
    /// The x range (widget coordinates) of [begin, end) in displayed time, clamped to the plot
    /// and at least 3 px wide.
    std::pair<int, int> rangePixels(double begin, double end) const;
    void moveWindowTo(double centreNs);

    TimelineView* timeline_;
    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const TimelineSummary> summary_;
    mutable std::vector<float> mpi_, compute_;
    mutable int columnsLeft_ = -1, columnsWidth_ = -1;
    mutable int64_t columnsOffset_ = 0;
    double dragGrab_ = -1; ///< while dragging: the grabbed point's offset in the window (ns)
    std::vector<Mark> marks_;
};

} // namespace rankscope
