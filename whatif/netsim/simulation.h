#pragma once
// Replays a trace on a described network (ALGORITHMS.md §7): the entry point for the command
// line and the GUI's what-if panel. Deterministic; reports progress and honours cancellation
// through SimulationOptions::progress.

#include "model/support/progressreporter.h"
#include "model/trace/trace.h"
#include "whatif/netsim/actionprogram.h"
#include "whatif/netsim/linkstats.h"
#include "whatif/netsim/networkspec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace rankscope::netsim {

struct SimulationOptions
{
    std::string model = "loggp"; ///< the network model (models() lists those available)
    /// Per-collective algorithm choices ("bcast" -> "binomial"), over the spec's.
    std::vector<std::pair<std::string, std::string>> collectiveAlgorithms;
    double cpuFactor = 1.0;             ///< multiplies every compute time
    std::optional<uint64_t> eagerLimit; ///< overrides the spec's eager limit
    bool buildTrace = false;            ///< also build the simulated Trace
    /// Pairwise exchanges round by round where that gives the same times (pairwiseexchange.h);
    /// false: message by message always (to compare the two).
    bool exchangeByRounds = true;
    /// Also collect what the network did (linkstats.h): SimulationResult::network.
    bool linkStats = false;
    /// With linkStats, simulate() also lists per link its this many heaviest point-to-point
    /// messages (NetworkFigures::heaviest, linkmessages.h); 0: none.
    size_t heaviestPerLink = 0;
    ProgressCallback progress; ///< 0..1; returning false cancels
};

/// One rank's simulated end and time in MPI.
struct RankTimes
{
    uint32_t rank = 0;
    int64_t endNs = 0;
    int64_t mpiNs = 0;      ///< simulated time in MPI calls within the span
    int64_t inputMpiNs = 0; ///< the same, measured (model/analysis/runspan.h)
    bool operator==(const RankTimes&) const = default;
};

/// Measured and predicted run times are taken over one span (model/analysis/runspan.h): from the
/// end of MPI_Init (the last rank's; the replay starts every rank there) to the end of
/// MPI_Finalize.
struct SimulationResult
{
    int64_t predictedRuntimeNs = 0; ///< the span, replayed
    int64_t inputRuntimeNs = 0;     ///< the span, measured
    std::string span;               ///< its name (RunSpan::name())
    int64_t inputWholeRunNs = 0;    ///< the input trace's duration
    /// The replayed span plus the measured time outside it (which the replay does not simulate).
    int64_t predictedWholeRunNs = 0;
    std::vector<RankTimes> perRank;
    uint64_t messages = 0; ///< network transfers simulated (collectives' included)
    std::string model;
    std::optional<Trace> trace; ///< the simulated trace, when asked for
    bool cancelled = false;
    /// Set when `mapping: trace` could not be honoured (traceplacement.h).
    std::string placementNote;
    /// Point-to-point messages replayed as strided halo faces (policy.strided, stridedfaces.h).
    uint64_t stridedFaces = 0;
    /// What the network did, when asked for (SimulationOptions::linkStats); utilisations are
    /// over predictedRuntimeNs.
    std::optional<NetworkFigures> network;

    bool operator==(const SimulationResult& o) const
    {
        const bool traces =
            trace.has_value() == o.trace.has_value() && (!trace || trace->sameContent(*o.trace));
        return traces &&
               std::tie(predictedRuntimeNs, inputRuntimeNs, span, inputWholeRunNs,
                        predictedWholeRunNs, perRank, messages, model, cancelled, placementNote,
                        stridedFaces, network) ==
                   std::tie(o.predictedRuntimeNs, o.inputRuntimeNs, o.span, o.inputWholeRunNs,
                            o.predictedWholeRunNs, o.perRank, o.messages, o.model, o.cancelled,
                            o.placementNote, o.stridedFaces, o.network);
    }
};

/// The network models this build can run ("loggp", "packet", "flow").
std::vector<std::string> models();

/// Replays `trace` on `spec`. Throws TraceError for bad options (unknown model or algorithm)
/// or a machine too small for the trace's ranks.
SimulationResult simulate(const Trace& trace, const NetworkSpec& spec,
                          const SimulationOptions& options);

/// Replays an action program directly (the `collective` command and the benchmark).
SimulationResult simulateProgram(const ActionProgram& program, const NetworkSpec& spec,
                                 const SimulationOptions& options);

/// A program of `ranks` ranks doing one collective `op` of `bytes` at time 0.
ActionProgram singleCollectiveProgram(CollKind kind, uint32_t ranks, uint32_t root, uint64_t bytes);

} // namespace rankscope::netsim
