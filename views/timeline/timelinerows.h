#pragma once
// Which ranks each timeline row shows. When every displayed rank fits at kMinRowHeight (4 px:
// enough to see a rank's colours; labels are then drawn on every n-th row), each gets its own
// row; otherwise consecutive ranks (in display order) are grouped so the rows fit
// the height, and a group row shows what dominates the group. One group at a time can be
// expanded: its ranks get rows of their own and the others are regrouped around them.

#include "model/trace/ids.h"

#include <vector>

namespace rankscope {

class TimelineRows
{
public:
    static constexpr int kMinRowHeight = 4;
    /// Rows share the height out, as far as this: a trace of few ranks fills the timeline (at
    /// 36 px, 8 ranks left 45 % of it empty and 2 ranks 75 %), as in Vampir and Paraver.
    static constexpr int kMaxRowHeight = 400;

    struct Row
    {
        std::vector<RankId> ranks;
        bool expanded = false; ///< a rank of the expanded group
        bool group() const { return ranks.size() > 1; }
    };

    /// Lays out `ranks` (display order) in `height` pixels.
    void layout(const std::vector<RankId>& ranks, int height);

    const std::vector<Row>& rows() const { return rows_; }
    int rowHeight() const { return rowHeight_; }
    /// Row under y (relative to the rows' top), -1 when none.
    int rowAt(int y) const;
    /// Row showing `rank`, -1 when it is not displayed.
    int rowOf(RankId rank) const
    {
        return rank.valid() && rank.value < rowOfRank_.size() ? rowOfRank_[rank.value] : -1;
    }

    /// Expands the group in `row` (returns false if it is not a group).
    bool expand(int row);
    /// Expands the group showing `rank` (returns false if its row is not a group).
    bool expandRank(RankId rank) { return expand(rowOf(rank)); }
    /// Collapses the expanded group (returns false if none is expanded).
    bool collapse();
    bool hasExpanded() const { return !expanded_.empty(); }

private:
    void chunk(const std::vector<RankId>& ranks, size_t begin, size_t end, size_t size);

    std::vector<Row> rows_;
    std::vector<int> rowOfRank_;
    std::vector<RankId> expanded_; ///< ranks of the expanded group, in display order
    int rowHeight_ = kMaxRowHeight;
};

} // namespace rankscope
