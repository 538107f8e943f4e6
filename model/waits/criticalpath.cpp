#include "model/waits/criticalpath.h"

#include "model/trace/trace.h"
#include "model/waits/waitstates.h"

#include <algorithm>
#include <cmath>

// Cost: the replay does one binary search per jump over the waits of one rank; the region pass
// reads every event of every rank once (the mean exclusive time per function needs all ranks,
// the segments only the ranks on the path). Memory: the pieces, the segments and a region stack.

namespace rankscope {

namespace {

struct Piece
{
    int64_t begin = 0;
    int64_t end = 0;
};

/// The critical pieces of each rank, in time order, from the backward replay.
std::vector<std::vector<Piece>> replay(const Trace& trace, const WaitStateAnalysis& analysis)
{
    const size_t ranks = trace.rankCount();
    std::vector<std::vector<Piece>> pieces(ranks);
    // The waits of rank r are [first[r], first[r + 1]) of the (rank, begin)-sorted list.
    const std::vector<WaitState>& waits = analysis.waits;
    std::vector<size_t> first(ranks + 1, waits.size());
    for (size_t i = waits.size(); i-- > 0;)
        if (waits[i].rank.value < ranks) first[waits[i].rank.value] = i;
    for (size_t r = ranks; r-- > 0;)
        first[r] = std::min(first[r], first[r + 1]);

    RankId rank;
    int64_t t = 0;
    for (uint32_t r = 0; r < ranks; ++r) {
        const EventStream& events = trace.rankEvents(RankId(r));
        if (events.empty()) continue;
        const int64_t last = events.time(events.size() - 1);
        if (!rank.valid() || last > t) {
            rank = RankId(r);
            t = last;
        }
    }
    if (!rank.valid()) return pieces;

    // Each wait is taken at most once, so the replay ends even on inconsistent clocks.
    std::vector<bool> used(waits.size(), false);
    while (true) {
        const size_t r = rank.value;
        // Waits of one rank lie in successive calls, so their ends ascend with their begins.
        const auto begin = waits.begin() + ptrdiff_t(first[r]);
        auto it = std::partition_point(begin, waits.begin() + ptrdiff_t(first[r + 1]),
                                       [t](const WaitState& w) { return w.end <= t; });
        for (; it != begin; --it) {
            const WaitState& w = *(it - 1);
            if (!used[size_t(it - waits.begin()) - 1] && w.cause.valid() && w.cause.value < ranks &&
                w.cause != rank)
                break;
        }
        if (it == begin) {
            const EventStream& events = trace.rankEvents(rank);
            const int64_t start = events.empty() ? t : events.time(0);
            if (start < t) pieces[r].push_back({start, t});
            break;
        }
        const WaitState& w = *(it - 1);
        used[size_t(it - waits.begin()) - 1] = true;
        if (w.end < t) pieces[r].push_back({w.end, t});
        t = w.end;
        rank = w.cause;
    }
    for (std::vector<Piece>& p : pieces)
        std::reverse(p.begin(), p.end());
    return pieces;
}

/// One rank's forward pass: exclusive time per region and the path's segments on this rank.
class RegionPass
{
public:
    RegionPass(const Trace& trace, std::vector<int64_t>& exclusive,
               std::vector<CriticalSegment>& segments)
        : trace_(trace), exclusive_(exclusive), segments_(segments)
    {
        stack_.reserve(64);
    }

    /// False when `reporter` cancels; `done` counts the events read before this rank.
    bool run(RankId rank, const std::vector<Piece>& pieces, ProgressReporter& reporter,
             uint64_t done)
    {
        const EventStream& events = trace_.rankEvents(rank);
        rank_ = rank;
        pieces_ = &pieces;
        next_ = 0;
        stack_.clear();
        if (events.empty()) return true;
        int64_t prev = events.time(0);
        for (size_t i = 0; i < events.size(); ++i) {
            const int64_t t = events.time(i);
            if (t > prev) {
                attribute(prev, t);
                prev = t;
            }
            const EventKind kind = events.kind(i);
            if (kind == EventKind::Enter) {
                stack_.push_back(events.region(i));
            } else if (kind == EventKind::Leave) {
                // Broken nesting: close the innermost open instance of the region and all above
                // it; a Leave with nothing to close is ignored.
                const auto open = std::find(stack_.rbegin(), stack_.rend(), events.region(i));
                if (open != stack_.rend()) stack_.resize(size_t(stack_.rend() - open) - 1);
            }
            if (!reporter.update(done + i)) return false;
        }
        return true;
    }

private:
    /// [lo, hi) was spent with the top of the stack innermost.
    void attribute(int64_t lo, int64_t hi)
    {
        const RegionId region = stack_.empty() ? RegionId() : stack_.back();
        if (region.valid()) exclusive_[region.value] += hi - lo;
        const std::vector<Piece>& pieces = *pieces_;
        while (next_ < pieces.size() && pieces[next_].end <= lo)
            ++next_;
        for (size_t k = next_; k < pieces.size() && pieces[k].begin < hi; ++k) {
            const int64_t a = std::max(lo, pieces[k].begin);
            const int64_t b = std::min(hi, pieces[k].end);
            if (a >= b) continue;
            if (!segments_.empty() && segments_.back().rank == rank_ && segments_.back().end == a &&
                segments_.back().region == region)
                segments_.back().end = b;
            else
                segments_.push_back({rank_, a, b, region});
        }
    }

    const Trace& trace_;
    std::vector<int64_t>& exclusive_;
    std::vector<CriticalSegment>& segments_;
    std::vector<RegionId> stack_;
    RankId rank_;
    const std::vector<Piece>* pieces_ = nullptr;
    size_t next_ = 0;
};

} // namespace

CriticalPath computeCriticalPath(const Trace& trace, const WaitStateAnalysis& waits,
                                 const ProgressCallback& progress)
{
    CriticalPath path;
    const std::vector<std::vector<Piece>> pieces = replay(trace, waits);

    uint64_t total = 0;
    for (uint32_t r = 0; r < trace.rankCount(); ++r)
        total += trace.rankEvents(RankId(r)).size();
    ProgressReporter reporter(progress, total);
    std::vector<int64_t> exclusive(trace.regions().size(), 0);
    RegionPass pass(trace, exclusive, path.segments);
    uint64_t done = 0;
    for (uint32_t r = 0; r < trace.rankCount(); ++r) {
        if (!pass.run(RankId(r), pieces[r], reporter, done)) {
            path.cancelled = true;
            return path;
        }
        done += trace.rankEvents(RankId(r)).size();
    }
    reporter.report(total);

    std::sort(path.segments.begin(), path.segments.end(),
              [](const CriticalSegment& a, const CriticalSegment& b) { return a.begin < b.begin; });
    path.byRank.assign(trace.rankCount(), 0);
    std::vector<int64_t> onPath(trace.regions().size(), 0);
    for (const CriticalSegment& s : path.segments) {
        path.lengthNs += s.duration();
        path.byRank[s.rank.value] += s.duration();
        if (s.region.valid()) onPath[s.region.value] += s.duration();
    }
    const double ranks = double(std::max<size_t>(trace.rankCount(), 1));
    for (uint32_t f = 0; f < onPath.size(); ++f) {
        if (onPath[f] == 0) continue;
        const double mean = double(exclusive[f]) / ranks;
        const int64_t imbalance = std::max<int64_t>(0, std::llround(double(onPath[f]) - mean));
        path.byFunction.push_back({RegionId(f), onPath[f], mean, imbalance});
    }
    std::stable_sort(
        path.byFunction.begin(), path.byFunction.end(),
        [](const CriticalFunction& a, const CriticalFunction& b) { return a.pathNs > b.pathNs; });
    return path;
}

} // namespace rankscope
