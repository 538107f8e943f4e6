#pragma once
// The call-path profile (model/profile/calltree.h) as an expandable tree, as Cube shows it: one
// item per call path with inclusive and exclusive time and visits over all ranks and the spread
// of inclusive time over ranks. Children come by descending inclusive time. Display text is
// formatted; SortRole gives the raw number, NodeRole the node's index in CallTree::nodes.

#include <QAbstractItemModel>
#include <memory>
#include <vector>

namespace rankscope {

class Trace;
struct CallTree;

class CallTreeItemModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        InclusiveColumn,
        ExclusiveColumn,
        VisitsColumn,
        InclusiveMinColumn,
        InclusiveMeanColumn,
        InclusiveMaxColumn,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int NodeRole = Qt::UserRole + 2;

    explicit CallTreeItemModel(QObject* parent = nullptr);

    /// Shows `tree` of `trace` (both stay alive while shown); null clears.
    void setTree(std::shared_ptr<const Trace> trace, std::shared_ptr<const CallTree> tree);
    const std::shared_ptr<const CallTree>& tree() const { return tree_; }
    const std::shared_ptr<const Trace>& trace() const { return trace_; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    const std::vector<uint32_t>* childrenOf(const QModelIndex& parent) const;
    QVariant sortValue(uint32_t node, int column) const;

    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const CallTree> tree_;
    std::vector<int> rowInParent_; ///< per node: its row under its parent (or among the roots)
};

} // namespace rankscope
