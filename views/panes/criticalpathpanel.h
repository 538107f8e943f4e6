#pragma once
// The critical-path pane: the path's length and where it runs (ranks, segments) over the
// critical-path profile per function (CriticalPathItemModel), sorted by time on the path.

#include <QWidget>
#include <memory>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace rankscope {

class CriticalPathItemModel;
class Trace;
struct CriticalPath;

class CriticalPathPanel : public QWidget
{
    Q_OBJECT
public:
    explicit CriticalPathPanel(QWidget* parent = nullptr);

    /// Shows `path` of `trace`; null clears.
    void setPath(std::shared_ptr<const Trace> trace, std::shared_ptr<const CriticalPath> path);

    CriticalPathItemModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    QLabel* summary() const { return summary_; }

private:
    CriticalPathItemModel* model_;
    QSortFilterProxyModel* sorted_;
    QTableView* table_;
    QLabel* summary_;
};

} // namespace rankscope
