#pragma once
// The POP efficiency metrics (the Performance Optimisation and Productivity centre's method, as
// BSC's BasicAnalysis and Cube's POP advisor compute them) of one run and of a set of runs of
// one program at several rank counts.
//
// With U(r) the useful (non-MPI) time of rank r in the run span T (model/analysis/usefultime.h):
//   LB = mean U / max U, CommE = max U / T, PE = LB x CommE;
//   from a replay on the ideal network (idealNetworkSpec: zero latency, unlimited bandwidth, zero
//   overheads), T_ideal, SerE = max U / T_ideal and TE = T_ideal / T, so CommE = SerE x TE;
//   with PAPI_TOT_INS and PAPI_TOT_CYC: IPC = useful instructions / useful cycles (the counter
//   deltas of non-MPI regions, exclusive, over the whole trace), and the useful instructions.
// Across runs (the reference is the run of fewest ranks): CompScal = sum U(ref) / sum U(run)
// (weak scaling: x p / p_ref), GE = PE x CompScal, IPC scalability = IPC / IPC(ref), instruction
// scalability = instructions(ref) / instructions(run) (weak: x p / p_ref).
// A metric that cannot be computed is absent (nullopt) and listed in `missing` with the reason;
// never 0. The replay is the one `simulate` runs (netsim::simulate), on the ideal spec.

#include "whatif/netsim/networkspec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rankscope {
class Trace;
}

namespace rankscope::pop {

/// A metric left out and why; `metric` is its JSON key ("ipc", "serialisation_efficiency").
struct MissingMetric
{
    std::string metric;
    std::string reason;
    bool operator==(const MissingMetric&) const = default;
};

struct RunMetrics
{
    std::string trace; ///< its label (the path the user gave)
    uint32_t ranks = 0;
    int64_t spanNs = 0;                 ///< T
    std::vector<int64_t> useful;        ///< U(r), ns
    double loadBalance = 0;             ///< LB
    double communicationEfficiency = 0; ///< CommE
    double parallelEfficiency = 0;      ///< PE
    std::optional<int64_t> idealSpanNs; ///< T_ideal
    std::optional<double> serialisationEfficiency;
    std::optional<double> transferEfficiency;
    std::optional<double> computationScalability;
    std::optional<double> globalEfficiency;
    std::optional<double> ipc;
    std::optional<double> instructions; ///< useful instructions, all ranks
    std::optional<double> ipcScalability;
    std::optional<double> instructionScalability;
    std::vector<MissingMetric> missing;
    bool operator==(const RunMetrics&) const = default;
};

struct PopOptions
{
    bool weak = false; ///< weak scaling: CompScal and instruction scalability x p / p_ref
};

/// The ideal network of `ranks` ranks: one node holding every rank, no intra-node link (a
/// message costs nothing: zero latency, unlimited bandwidth), no protocol costs, zero LogGP
/// overheads. The eager limit stays the netsim's default, so a rendezvous send still waits for
/// its receive: that is serialisation, not transfer.
netsim::NetworkSpec idealNetworkSpec(uint32_t ranks);

/// The metrics of one run (no scalability: that needs the set). Throws TraceError naming
/// `label` for a trace without events, without MPI_Init or with an empty span.
RunMetrics runMetrics(const Trace& trace, const std::string& label);

/// The metrics of every trace of a set, in ascending rank order (stable), with the scalability
/// metrics against the first (fewest ranks). Throws TraceError naming the trace for an empty
/// set, a trace runMetrics refuses, or a set that is not one program (extrap::checkSameProgram).
std::vector<RunMetrics> popMetrics(const std::vector<const Trace*>& traces,
                                   const std::vector<std::string>& labels,
                                   const PopOptions& options = {});

} // namespace rankscope::pop
