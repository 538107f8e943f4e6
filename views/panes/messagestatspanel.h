#pragma once
// The message-statistics pane: the groups of messages (all, each call site of the send, each
// communicator) as a tree with their count, bytes and mean and maximum transfer time, beside the
// histograms of the selected group's message sizes, transfer times and bandwidths
// (model/analysis/messagestats.h; the same numbers as `rankscope-cli messages`).

#include <QWidget>
#include <memory>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace rankscope {

class Log2HistogramChart;
struct MessageGroup;
struct MessageStatistics;

class MessageStatsPanel : public QWidget
{
    Q_OBJECT
public:
    enum Column
    {
        GroupColumn,
        CountColumn,
        BytesColumn,
        MeanColumn,
        MaxColumn,
        ColumnCount
    };

    explicit MessageStatsPanel(QWidget* parent = nullptr);

    /// Shows `stats` with "All messages" selected (null clears).
    void setStatistics(std::shared_ptr<const MessageStatistics> stats);
    /// Shows the histograms of the group of `item` (an item of tree()).
    void selectGroup(QTreeWidgetItem* item);
    /// The group whose histograms are shown (null when none).
    const MessageGroup* shownGroup() const { return shown_; }

    QTreeWidget* tree() const { return tree_; }
    QLabel* summary() const { return summary_; }
    Log2HistogramChart* sizeChart() const { return size_; }
    Log2HistogramChart* timeChart() const { return time_; }
    Log2HistogramChart* bandwidthChart() const { return bandwidth_; }

private:
    void showGroup(const MessageGroup* group);

    std::shared_ptr<const MessageStatistics> stats_;
    const MessageGroup* shown_ = nullptr;
    QTreeWidget* tree_;
    QLabel* summary_;
    Log2HistogramChart* size_;
    Log2HistogramChart* time_;
    Log2HistogramChart* bandwidth_;
};

} // namespace rankscope
