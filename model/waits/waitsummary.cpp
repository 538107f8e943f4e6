#include "model/waits/waitsummary.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace rankscope {

std::span<const WaitState> rankWaits(const WaitStateAnalysis& analysis, RankId rank)
{
    const auto byRank = [](const WaitState& w, uint32_t r) { return w.rank.value < r; };
    const auto first =
        std::lower_bound(analysis.waits.begin(), analysis.waits.end(), rank.value, byRank);
    const auto last = std::lower_bound(first, analysis.waits.end(), rank.value + 1, byRank);
    return {first, last};
}

namespace {

/// Builds one rank's cells from its waits; `sums` is scratch (per pattern, level-0 buckets).
void summariseRank(std::span<const WaitState> waits, const SummaryLevels& g,
                   std::array<std::vector<int64_t>, kWaitPatternCount>& sums,
                   std::vector<uint8_t>& cells)
{
    uint64_t count = g.bucketCount(0);
    for (auto& s : sums)
        s.assign(count, 0);
    const int64_t width = g.baseWidth();
    for (const WaitState& w : waits) {
        const int64_t b = std::max(w.begin, g.origin);
        const int64_t e = std::min(w.end, g.end);
        if (e <= b) continue;
        std::vector<int64_t>& s = sums[size_t(w.pattern)];
        const uint64_t first = uint64_t(b - g.origin) >> g.shift;
        const uint64_t last = std::min(count - 1, uint64_t(e - 1 - g.origin) >> g.shift);
        for (uint64_t k = first; k <= last; ++k) {
            const int64_t lo = g.origin + int64_t(k) * width;
            s[k] += std::min(e, lo + width) - std::max(b, lo);
        }
    }
    cells.assign(g.cellCount(), 0);
    for (unsigned level = 0; level < g.levels(); ++level) {
        const int64_t w = int64_t(g.width(level));
        for (uint64_t k = 0; k < count; ++k) {
            size_t best = 0;
            int64_t total = 0;
            for (size_t p = 0; p < kWaitPatternCount; ++p) {
                total += sums[p][k];
                if (sums[p][k] > sums[best][k]) best = p;
            }
            if (total == 0) continue;
            // The share of the bucket's part inside the run, rounded up so any wait shows.
            const int64_t lo = g.origin + int64_t(k) * w;
            const int64_t span = std::max<int64_t>(1, std::min(g.end, lo + w) - lo);
            const int step = int(std::clamp<int64_t>((total * WaitCell::kSteps + span - 1) / span,
                                                     1, WaitCell::kSteps));
            cells[g.offset[level] + k] = WaitCell::make(WaitPattern(best), step).value;
        }
        // Fold pairs into the next level, in place (index k reads 2k and 2k + 1 >= k).
        const uint64_t next = (count + 1) / 2;
        for (auto& s : sums) {
            for (uint64_t k = 0; k < next; ++k)
                s[k] = s[2 * k] + (2 * k + 1 < count ? s[2 * k + 1] : 0);
        }
        count = next;
    }
}

} // namespace

WaitSummary WaitSummary::build(const WaitStateAnalysis& analysis, size_t rankCount,
                               int64_t runBegin, int64_t runEnd)
{
    WaitSummary s;
    s.levels_ = SummaryLevels::forRun(runBegin, runEnd, kMaxBaseBuckets);
    s.perRank_.resize(rankCount);
    std::array<std::vector<int64_t>, kWaitPatternCount> sums;
    for (size_t r = 0; r < rankCount; ++r) {
        const std::span<const WaitState> waits = rankWaits(analysis, RankId(uint32_t(r)));
        if (!waits.empty()) summariseRank(waits, s.levels_, sums, s.perRank_[r]);
    }
    return s;
}

void WaitSummary::sample(RankId rank, double begin, double nsPerPixel,
                         std::span<WaitCell> out) const
{
    std::fill(out.begin(), out.end(), WaitCell());
    if (!rank.valid() || rank.value >= perRank_.size() || perRank_[rank.value].empty() ||
        !(nsPerPixel > 0))
        return;
    const unsigned level = levels_.levelFor(nsPerPixel);
    const double inverseWidth = 1.0 / levels_.width(level); // a power of two: exact
    const uint8_t* cells = perRank_[rank.value].data() + levels_.offset[level];
    const uint64_t buckets = levels_.bucketCount(level);
    const double origin = double(levels_.origin), end = double(levels_.end);
    for (size_t i = 0; i < out.size(); ++i) {
        const double centre = begin + (double(i) + 0.5) * nsPerPixel;
        if (!(centre >= origin && centre < end)) continue;
        const uint64_t b = uint64_t((centre - origin) * inverseWidth);
        if (b < buckets) out[i].value = cells[b];
    }
}

WaitCell WaitSummary::cell(RankId rank, unsigned level, uint64_t bucket) const
{
    if (!rank.valid() || rank.value >= perRank_.size() || perRank_[rank.value].empty() ||
        level >= levels_.levels() || bucket >= levels_.bucketCount(level))
        return {};
    return {perRank_[rank.value][levels_.offset[level] + bucket]};
}

size_t WaitSummary::memoryBytes() const
{
    size_t bytes = sizeof(*this) + levels_.offset.capacity() * sizeof(uint64_t) +
                   perRank_.capacity() * sizeof(std::vector<uint8_t>);
    for (const auto& r : perRank_)
        bytes += r.capacity();
    return bytes;
}

std::span<const uint8_t> WaitSummary::rankCells(RankId rank) const
{
    if (!rank.valid() || rank.value >= perRank_.size()) return {};
    return perRank_[rank.value];
}

WaitSummary WaitSummary::coarsened(unsigned drop) const
{
    if (levels_.levels() == 0) return *this;
    drop = std::min(drop, levels_.levels() - 1);
    SummaryLevels g = levels_;
    g.shift += drop;
    const uint64_t skip = levels_.offset[drop];
    g.offset.erase(g.offset.begin(), g.offset.begin() + drop);
    for (uint64_t& o : g.offset)
        o -= skip;
    std::vector<std::vector<uint8_t>> cells(perRank_.size());
    for (size_t r = 0; r < perRank_.size(); ++r)
        if (!perRank_[r].empty())
            cells[r].assign(perRank_[r].begin() + ptrdiff_t(skip), perRank_[r].end());
    return fromCells(g, std::move(cells));
}

WaitSummary WaitSummary::fromCells(const SummaryLevels& levels,
                                   std::vector<std::vector<uint8_t>> perRank)
{
    if (levels.offset.size() < 2 || levels.offset.front() != 0 || levels.shift > 62 ||
        !std::is_sorted(levels.offset.begin(), levels.offset.end()) || levels.end < levels.origin)
        throw std::invalid_argument("wait summary: inconsistent level geometry");
    for (size_t r = 0; r < perRank.size(); ++r) {
        if (!perRank[r].empty() && perRank[r].size() != levels.cellCount())
            throw std::invalid_argument("wait summary: rank " + std::to_string(r) + " has " +
                                        std::to_string(perRank[r].size()) + " cells, not " +
                                        std::to_string(levels.cellCount()));
        for (uint8_t v : perRank[r])
            if (v != 0 && ((v >> 5) > kWaitPatternCount || (v & 31) == 0))
                throw std::invalid_argument("wait summary: rank " + std::to_string(r) +
                                            " has a cell that is no wait");
    }
    WaitSummary s;
    s.levels_ = levels;
    s.perRank_ = std::move(perRank);
    return s;
}

} // namespace rankscope
