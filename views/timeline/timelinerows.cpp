#include "views/timeline/timelinerows.h"

#include <algorithm>

namespace rankscope {

void TimelineRows::chunk(const std::vector<RankId>& ranks, size_t begin, size_t end, size_t size)
{
    for (size_t i = begin; i < end; i += size) {
        Row row;
        row.ranks.assign(ranks.begin() + i, ranks.begin() + std::min(end, i + size));
        rows_.push_back(std::move(row));
    }
}

void TimelineRows::layout(const std::vector<RankId>& ranks, int height)
{
    rows_.clear();
    const size_t n = ranks.size();
    const size_t capacity = size_t(std::max(1, height / kMinRowHeight));
    if (n <= capacity) {
        expanded_.clear();
        chunk(ranks, 0, n, 1);
    } else {
        // The expanded group must still be a run of consecutive displayed ranks.
        size_t first = n;
        if (!expanded_.empty()) {
            auto it = std::search(ranks.begin(), ranks.end(), expanded_.begin(), expanded_.end());
            if (it != ranks.end())
                first = size_t(it - ranks.begin());
            else
                expanded_.clear();
        }
        const size_t e = expanded_.size();
        const size_t budget = capacity > e ? capacity - e : 1;
        const size_t groupSize = std::max<size_t>(1, (n - e + budget - 1) / budget);
        if (e == 0) {
            chunk(ranks, 0, n, groupSize);
        } else {
            chunk(ranks, 0, first, groupSize);
            for (size_t i = first; i < first + e; ++i)
                rows_.push_back({{ranks[i]}, true});
            chunk(ranks, first + e, n, groupSize);
        }
    }
    rowHeight_ =
        rows_.empty() ? kMaxRowHeight : std::clamp(height / int(rows_.size()), 2, kMaxRowHeight);
    uint32_t maxRank = 0;
    for (RankId r : ranks)
        maxRank = std::max(maxRank, r.value + 1);
    rowOfRank_.assign(maxRank, -1);
    for (size_t i = 0; i < rows_.size(); ++i)
        for (RankId r : rows_[i].ranks)
            rowOfRank_[r.value] = int(i);
}

int TimelineRows::rowAt(int y) const
{
    if (y < 0) return -1;
    const int row = y / rowHeight_;
    return row < int(rows_.size()) ? row : -1;
}

bool TimelineRows::expand(int row)
{
    if (row < 0 || row >= int(rows_.size()) || !rows_[row].group()) return false;
    expanded_ = rows_[row].ranks;
    return true;
}

bool TimelineRows::collapse()
{
    if (expanded_.empty()) return false;
    expanded_.clear();
    return true;
}

} // namespace rankscope
