#pragma once
// The call-path profile pane: the expandable call tree (CallTreeItemModel) beside the
// distribution over ranks of the selected call path's inclusive time (RankDistribution).

#include <QWidget>
#include <memory>

class QTreeView;

namespace rankscope {

class CallTreeItemModel;
class RankDistribution;
class Trace;
struct CallTree;

class CallTreePanel : public QWidget
{
    Q_OBJECT
public:
    explicit CallTreePanel(QWidget* parent = nullptr);

    /// Shows `tree` of `trace` with its first levels expanded; null clears.
    void setTree(std::shared_ptr<const Trace> trace, std::shared_ptr<const CallTree> tree);

    CallTreeItemModel* model() const { return model_; }
    QTreeView* view() const { return view_; }
    RankDistribution* distribution() const { return distribution_; }

private:
    void showNode(const class QModelIndex& index);

    CallTreeItemModel* model_;
    QTreeView* view_;
    RankDistribution* distribution_;
};

} // namespace rankscope
