#pragma once
// The numbers a what-if comparison shows beyond its timelines, computed once (off the GUI thread
// in the GUI) from two analysed runs (the measured or baseline one and the predicted one).
//
// Design note: the Delta times pane bins any (interval, rank) selection on the GUI thread, so
// the delta times themselves are kept, per run, per interval and per rank ("cell"). To bound
// memory on big traces each run keeps at most about `sampleBudget` samples: a rank gets
// budget / ranks of them, shared equally among its cells (at least kMinSamplesPerCell each). A
// cell with more delta times keeps a uniform random subset of them (reservoir sampling with a
// generator seeded from the interval name and rank, so the result is deterministic), and keeps
// its exact count, sum, min and max. A histogram over cells that were all kept whole is exactly
// makeHistogram(samples); otherwise each kept sample stands for count / kept delta times of its
// cell, so counts, mean, min and max stay exact and the bin shape is an unbiased estimate.

#include "model/deltas/histogram.h"
#include "model/support/progressreporter.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rankscope {

class Trace;
struct WaitStateAnalysis;

struct ComparisonData
{
    /// Samples kept per run by default (8 bytes each).
    static constexpr size_t kDefaultSampleBudget = size_t(1) << 19;
    /// A cell keeps at least this many samples whatever the budget.
    static constexpr size_t kMinSamplesPerCell = 16;

    struct Quantity
    {
        std::string name;
        double measuredNs = 0;
        double predictedNs = 0;
        /// (predicted - measured) / measured in %, nullopt when measured is 0.
        std::optional<double> percent() const;
        bool operator==(const Quantity&) const = default;
    };

    /// The delta times of one interval on one rank of one run.
    struct Cell
    {
        uint32_t rank = 0;
        uint64_t count = 0; ///< delta times in the trace
        double totalNs = 0; ///< their sum
        double minNs = 0;
        double maxNs = 0;
        size_t first = 0; ///< kept samples: RunDeltas::samples[first, first + kept)
        size_t kept = 0;
        bool whole() const { return kept == count; }
        bool operator==(const Cell&) const = default;
    };

    /// The delta times of one run.
    struct RunDeltas
    {
        /// Per interval (index into `intervals`): the ranks where it occurs, ascending.
        std::vector<std::vector<Cell>> cells;
        std::vector<double> samples; ///< kept delta times (ns), cell after cell
        uint64_t count = 0;          ///< delta times in the trace
        bool operator==(const RunDeltas&) const = default;
    };

    /// Rows: "Run time", "MPI time (sum over ranks)", "Computation time (sum over ranks)",
    /// "Wait time (all patterns)", then one "Wait: <pattern>" row per pattern present in either
    /// run.
    std::vector<Quantity> summary;
    /// Execution intervals (printed names `A - B`) present in either run, sorted.
    std::vector<std::string> intervals;
    uint32_t measuredRanks = 0;
    uint32_t predictedRanks = 0;
    RunDeltas measuredDeltas;
    RunDeltas predictedDeltas;
    /// Wait time per pattern (ns), measured and predicted, in the order of the summary rows.
    std::vector<std::pair<std::string, std::pair<double, double>>> waitTotals;
    bool cancelled = false; ///< stopped early: the numbers cover part of the runs

    bool operator==(const ComparisonData&) const = default;
};

/// Walks both traces once (run time, MPI time, delta times per interval and rank) and reads the
/// wait totals of both analyses. `progress` sees both traces' events; returning false cancels
/// (the result then has `cancelled` set). Call it off the GUI thread.
std::shared_ptr<const ComparisonData>
buildComparisonData(const Trace& measured, const WaitStateAnalysis& measuredWaits,
                    const Trace& predicted, const WaitStateAnalysis& predictedWaits,
                    const ProgressCallback& progress = {},
                    size_t sampleBudget = ComparisonData::kDefaultSampleBudget);

/// The delta-time histograms (§2, `bins` bins) of interval `interval` (index into
/// data.intervals; -1: all) and rank `rank` (-1: all ranks), measured first. A rank beyond a
/// run's rank count gives nullopt for that run; a selection without delta times in a run gives
/// an empty histogram. Cheap enough for the GUI thread: it bins kept samples only.
std::pair<std::optional<Histogram>, std::optional<Histogram>>
deltaHistograms(const ComparisonData& data, int interval, int rank, int bins = 20);

/// One run's histogram of a selection, as deltaHistograms does it.
std::optional<Histogram> deltaHistogram(const ComparisonData::RunDeltas& run, uint32_t rankCount,
                                        int interval, int rank, int bins = 20);

} // namespace rankscope
