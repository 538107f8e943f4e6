#pragma once
// The figures the comparison view shows for two runs, and `rankscope-cli compare` prints:
// run time (over the span of model/analysis/runspan.h), MPI time and computation time summed over
// ranks, wait time in all and per pattern, each with its difference.
//
// Definitions: run time is RunSpan::duration() (end of MPI_Init to end of MPI_Finalize); MPI
// time sums RunSpan::ranks[].mpiNs (the MPI calls after MPI_Init, MPI_Finalize included);
// computation time sums the delta times (model/deltas/deltascanner.h: between MPI_Init and
// MPI_Finalize); wait times come from the wait-state analysis of each run.

#include "model/waits/waitstates.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rankscope {

class Trace;

/// One run's figures.
struct RunFigures
{
    int64_t runNs = 0;
    int64_t mpiNs = 0;
    int64_t computeNs = 0;
    int64_t waitNs = 0;
    std::array<int64_t, kWaitPatternCount> waitByPattern{};
    bool operator==(const RunFigures&) const = default;
};

/// One row of a comparison: a quantity in run A and run B.
struct ComparisonRow
{
    std::string key;  ///< machine name: "run", "mpi", "computation", "wait", "wait_late_sender"...
    std::string name; ///< as the view labels it: "Run time", "Wait: Late Sender"...
    double a = 0, b = 0;
    double difference() const { return b - a; }
    /// (b - a) / a in %, nothing when a is 0.
    std::optional<double> percent() const;
    bool operator==(const ComparisonRow&) const = default;
};

/// The figures of `trace` with its wait-state analysis.
RunFigures runFigures(const Trace& trace, const WaitStateAnalysis& waits);

/// Run, MPI, computation and all-pattern wait time, then one row per wait pattern present in
/// either run (in pattern order).
std::vector<ComparisonRow> comparisonRows(const RunFigures& a, const RunFigures& b);

} // namespace rankscope
