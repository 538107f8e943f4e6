#include "model/profile/timelinesummary.h"

#include "model/profile/summarylevels.h"
#include "model/profile/summarysweep.h"
#include "model/support/parallelchunks.h"
#include "model/trace/trace.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

namespace rankscope {

TimelineSummary TimelineSummary::build(const Trace& trace, const ProgressCallback& progress,
                                       unsigned threads)
{
    TimelineSummary s;
    const SummaryLevels geometry =
        SummaryLevels::forRun(trace.beginTime(), trace.endTime(), kMaxBaseBuckets);
    const unsigned shift = geometry.shift;
    s.origin_ = geometry.origin;
    s.end_ = geometry.end;
    s.baseWidth_ = geometry.baseWidth();
    s.levelOffset_ = geometry.offset;
    s.levels_ = geometry.levels();

    const uint32_t ranks = uint32_t(trace.rankCount());
    s.perRank_.resize(ranks);
    uint64_t total = 0;
    for (uint32_t r = 0; r < ranks; ++r)
        total += trace.rankEvents(RankId(r)).size();

    // Ranks are handed out one at a time (their sizes differ); only the calling thread (chunk 0)
    // talks to the progress callback, the others publish their work through `done` and watch
    // `stop`.
    ProgressReporter reporter(progress, total);
    std::atomic<uint32_t> nextRank{0};
    std::atomic<uint64_t> done{0};
    std::atomic<bool> stop{false};
    const unsigned workers = chunkCount(ranks, std::max(1u, threads));
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

void TimelineSummary::sample(RankId rank, double begin, double nsPerPixel,
                             std::span<RegionId> out) const
{
    std::fill(out.begin(), out.end(), RegionId());
    if (!rank.valid() || rank.value >= perRank_.size() || levels_ == 0 || !(nsPerPixel > 0)) return;
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
        bucket >= bucketCount(level))
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
