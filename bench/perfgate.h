#pragma once
// The performance gate (scripts/perf-gate.sh): short versions of the benchmarks whose figures
// are ratios measured in the same run, so that they do not depend on how fast the machine is:
// the import against the decoding floor on the same file, a replay, a wait-state analysis and
// an extrapolation against a fixed reference loop, a timeline frame against a reference paint.
// Every ratio is "higher is better" (reference time / measured time, or floor time / import
// time) and is sampled several times, the reference and the work in turn, so that a load on
// the machine weighs on both alike; the spread of the samples is the run's measured noise.

#include <string>
#include <vector>

namespace rankscope::bench {

struct GateRatio
{
    std::string name;            ///< key in bench/thresholds.yaml
    std::string what;            ///< one line for the report
    std::vector<double> samples; ///< one ratio per repetition
};

struct GateOptions
{
    std::string data = "build/bench-data"; ///< where the gate's generated trace is kept
    std::string sharedTraces;              ///< the shared Score-P traces (NPB MG), or empty
    int repeat = 5;
    std::vector<std::string> only; ///< case names to run (import, replay, frame, waits, extrap)
};

/// Seconds of the fixed reference loop: a binary heap of timestamps (what an event-driven replay
/// does), scattered and sequential reads over a 32 MiB table (what the import and the analyses
/// do to their columns). Its work never changes; only the machine's speed changes its time.
double referenceLoopSeconds();

/// The ratios of the non-GUI cases (import, replay, waits, extrap) named in options.only (all
/// when empty). Throws std::runtime_error when a case cannot run.
std::vector<GateRatio> measureCoreRatios(const GateOptions& options);

/// The timeline frame against the reference paint (needs a QApplication).
std::vector<GateRatio> measureFrameRatios(const GateOptions& options);

/// The gate's verdict on one ratio: the median of its samples, the noise (half the samples'
/// range relative to the median) and whether the median is worse than the threshold by more
/// than the noise.
struct GateVerdict
{
    double median = 0;
    double noise = 0;
    double threshold = 0;
    bool hasThreshold = false;
    bool fails = false;
};
GateVerdict judge(const std::vector<double>& samples, const double* threshold);

} // namespace rankscope::bench
