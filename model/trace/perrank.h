#pragma once
// Runs one per-rank analysis over every rank of a trace, in rank order, and turns each rank's
// progress (the fraction of its own events) into progress over the whole trace. Shared by the
// analyses that are computed rank by rank and merged (intervals, profile, ...).

#include "model/support/progressreporter.h"
#include "model/trace/trace.h"

#include <cstdint>
#include <vector>

namespace rankscope {

/// Calls analyse(rank, rankProgress) for each rank and collects the results; stops after a
/// result whose `cancelled` is set (the cancelled result is still returned, last).
template <class Result, class Analyse>
std::vector<Result> analyseEachRank(const Trace& trace, const ProgressCallback& progress,
                                    Analyse&& analyse)
{
    uint64_t total = 0;
    for (uint32_t r = 0; r < trace.rankCount(); ++r)
        total += trace.rankEvents(RankId(r)).size();

    std::vector<Result> results;
    results.reserve(trace.rankCount());
    uint64_t done = 0;
    for (uint32_t r = 0; r < trace.rankCount(); ++r) {
        const uint64_t events = trace.rankEvents(RankId(r)).size();
        ProgressCallback rankProgress;
        if (progress) {
            rankProgress = [&progress, done, events, total](double f) {
                return progress(total == 0 ? 1.0
                                           : (double(done) + f * double(events)) / double(total));
            };
        }
        results.push_back(analyse(RankId(r), rankProgress));
        if (results.back().cancelled) break;
        done += events;
    }
    return results;
}

} // namespace rankscope
