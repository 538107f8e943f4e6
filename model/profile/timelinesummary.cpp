#include "model/profile/timelinesummary.h"

#include "model/profile/summarylevels.h"
#include "model/profile/summarysweep.h"
#include "model/support/parallelchunks.h"
#include "model/trace/trace.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

namespace rankscope {

TimelineSummary TimelineSummary::build(const Trace& trace, const ProgressCallback& progress,
                                       unsigned threads)
{
    return buildOn(trace,
                   SummaryLevels::forRun(trace.beginTime(), trace.endTime(), kMaxBaseBuckets), 0,
                   uint32_t(trace.rankCount()), progress, threads);
}

TimelineSummary TimelineSummary::buildRanks(const Trace& trace, int64_t runBegin, int64_t runEnd,
                                            uint32_t firstRank, uint32_t endRank)
{
    return buildOn(trace, SummaryLevels::forRun(runBegin, runEnd, kMaxBaseBuckets), firstRank,
                   std::min<uint32_t>(endRank, uint32_t(trace.rankCount())), {}, 1);
}

TimelineSummary TimelineSummary::buildOn(const Trace& trace, const SummaryLevels& geometry,
                                         uint32_t first, uint32_t endRank,
                                         const ProgressCallback& progress, unsigned threads)
{
    TimelineSummary s;
    const unsigned shift = geometry.shift;
    s.origin_ = geometry.origin;
    s.end_ = geometry.end;
    s.baseWidth_ = geometry.baseWidth();
    s.levelOffset_ = geometry.offset;
    s.levels_ = geometry.levels();

    s.perRank_.resize(trace.rankCount());
    const uint32_t ranks = endRank;
    uint64_t total = 0;
    for (uint32_t r = first; r < ranks; ++r)
        total += trace.rankEvents(RankId(r)).size();

    // Ranks are handed out one at a time (their sizes differ); only the calling thread (chunk 0)
    // talks to the progress callback, the others publish their work through `done` and watch
    // `stop`.
    ProgressReporter reporter(progress, total);
    std::atomic<uint32_t> nextRank{first};
    std::atomic<uint64_t> done{0};
    std::atomic<bool> stop{false};
    const unsigned workers = chunkCount(ranks - first, std::max(1u, threads));
    std::atomic<unsigned> running{workers};
    parallelChunks(workers, workers, [&](size_t, size_t, unsigned chunk) {
        const bool reports = chunk == 0;
        const std::function<bool(uint64_t)> tick = [&](uint64_t events) {
            const uint64_t d = done.fetch_add(events, std::memory_order_relaxed) + events;
            if (reports && !reporter.update(d)) stop.store(true);
            return !stop.load(std::memory_order_relaxed);
        };
        try {
            SummarySweep sweep(s.origin_, s.end_, shift, s.levelOffset_, trace.regions().size());
            for (uint32_t r = nextRank++; r < ranks && !stop.load(); r = nextRank++) {
                std::vector<uint32_t>& cells = s.perRank_[r].cells;
                cells.resize(s.levelOffset_.back());
                if (!sweep.run(trace.rankEvents(RankId(r)), cells.data(), tick)) break;
            }
        } catch (...) {
            // Stop the others and let the calling thread stop waiting; parallelChunks rethrows.
            stop.store(true);
            --running;
            throw;
        }
        --running;
        // The calling thread keeps reporting (and relaying a cancel) until the others finish.
        while (reports && running.load() > 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            if (!reporter.update(done.load())) stop.store(true);
        }
    });
    if (stop.load() || !reporter.report(total)) {
        TimelineSummary cancelled;
        cancelled.cancelled_ = true;
        return cancelled;
    }
    return s;
}

SummaryLevels TimelineSummary::geometry() const
{
    SummaryLevels g;
    g.origin = origin_;
    g.end = end_;
    while ((int64_t(1) << g.shift) < baseWidth_)
        ++g.shift;
    g.offset = levelOffset_;
    return g;
}

std::span<const uint32_t> TimelineSummary::rankCells(RankId rank) const
{
    if (!rank.valid() || rank.value >= perRank_.size()) return {};
    return perRank_[rank.value].cells;
}

TimelineSummary TimelineSummary::coarsened(unsigned drop) const
{
    if (levels_ == 0) return *this;
    drop = std::min(drop, levels_ - 1);
    SummaryLevels g = geometry();
    g.shift += drop;
    const uint64_t skip = levelOffset_[drop];
    g.offset.erase(g.offset.begin(), g.offset.begin() + drop);
    for (uint64_t& o : g.offset)
        o -= skip;
    std::vector<std::vector<uint32_t>> cells(perRank_.size());
    for (size_t r = 0; r < perRank_.size(); ++r)
        if (!perRank_[r].cells.empty())
            cells[r].assign(perRank_[r].cells.begin() + ptrdiff_t(skip), perRank_[r].cells.end());
    return fromCells(g, std::move(cells));
}

TimelineSummary TimelineSummary::fromCells(const SummaryLevels& geometry,
                                           std::vector<std::vector<uint32_t>> perRank)
{
    if (geometry.offset.size() < 2 || geometry.offset.front() != 0 || geometry.shift > 62 ||
        !std::is_sorted(geometry.offset.begin(), geometry.offset.end()) ||
        geometry.end < geometry.origin)
        throw std::invalid_argument("timeline summary: inconsistent level geometry");
    TimelineSummary s;
    s.origin_ = geometry.origin;
    s.end_ = geometry.end;
    s.baseWidth_ = int64_t(1) << geometry.shift;
    s.levelOffset_ = geometry.offset;
    s.levels_ = geometry.levels();
    s.perRank_.resize(perRank.size());
    for (size_t r = 0; r < perRank.size(); ++r) {
        if (!perRank[r].empty() && perRank[r].size() != geometry.cellCount())
            throw std::invalid_argument("timeline summary: rank " + std::to_string(r) + " has " +
                                        std::to_string(perRank[r].size()) + " cells, not " +
                                        std::to_string(geometry.cellCount()));
        s.perRank_[r].cells = std::move(perRank[r]);
    }
    return s;
}

void TimelineSummary::sample(RankId rank, double begin, double nsPerPixel,
                             std::span<RegionId> out) const
{
    std::fill(out.begin(), out.end(), RegionId());
    if (!rank.valid() || rank.value >= perRank_.size() || levels_ == 0 || !(nsPerPixel > 0) ||
        perRank_[rank.value].cells.empty())
        return;
    unsigned level = 0;
    while (level + 1 < levels_ && double(baseWidth_) * double(uint64_t(1) << level) < nsPerPixel)
        ++level;
    // The width is a power of two, so multiplying by its inverse is exact (same as dividing).
    const double inverseWidth = 1.0 / (double(baseWidth_) * double(uint64_t(1) << level));
    const uint32_t* cells = perRank_[rank.value].cells.data() + levelOffset_[level];
    const uint64_t buckets = bucketCount(level);
    const double origin = double(origin_);
    const double end = double(end_);
    for (size_t i = 0; i < out.size(); ++i) {
        const double centre = begin + (double(i) + 0.5) * nsPerPixel;
        if (!(centre >= origin && centre < end)) continue;
        const uint64_t b = uint64_t((centre - origin) * inverseWidth);
        if (b < buckets) out[i] = RegionId(cells[b]);
    }
}

RegionId TimelineSummary::cell(RankId rank, unsigned level, uint64_t bucket) const
{
    if (!rank.valid() || rank.value >= perRank_.size() || level >= levels_ ||
        bucket >= bucketCount(level) || perRank_[rank.value].cells.empty())
        return {};
    return RegionId(perRank_[rank.value].cells[levelOffset_[level] + bucket]);
}

uint64_t TimelineSummary::bucketCount(unsigned level) const
{
    return level < levels_ ? levelOffset_[level + 1] - levelOffset_[level] : 0;
}

size_t TimelineSummary::memoryBytes() const
{
    size_t bytes = sizeof(*this) + perRank_.capacity() * sizeof(RankLevels) +
                   levelOffset_.capacity() * sizeof(uint64_t);
    for (const RankLevels& r : perRank_)
        bytes += r.cells.capacity() * sizeof(uint32_t);
    return bytes;
}

} // namespace rankscope
