#pragma once
// SimGrid as a peer engine: one scenario replayed by Rankscope's own simulator and by SimGrid's
// offline SMPI replay (`smpirun -replay`), for `simulate --engine simgrid`, `scenario run` and
// the GUI's what-if panel alike. The trace becomes an action program (as Rankscope replays it);
// Rankscope replays it on the spec, and the same program is written as SimGrid time-independent
// traces with a platform from the spec (simgridexport.h), replayed by smpirun with Paje tracing
// on, and SimGrid's Paje trace is imported as its predicted trace. Both engines' predicted run
// times (the program from its start to the last rank's end), their difference and each
// engine's wall-clock time are the result.
//
// smpirun runs as a child process whose output is collected; a cancel check is polled while it
// runs, and cancelling kills it and removes the temporary folder. Plain C++, no Qt: the GUI
// calls it from a worker thread.

#include "importers/simgrid/simgridexport.h"
#include "model/trace/trace.h"
#include "whatif/netsim/networkspec.h"
#include "whatif/netsim/simulation.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

namespace rankscope::bench {

struct SimGridEngineRequest
{
    netsim::NetworkSpec spec;          ///< the spec both engines replay on (edits applied)
    netsim::SimulationOptions options; ///< Rankscope's replay: model, algorithms, CPU factor
    std::string source;                ///< the trace's name, for messages
    /// Where the TI traces, platform and SimGrid's Paje trace go; empty: a temporary folder,
    /// removed afterwards (also when cancelled or failed).
    std::string workDir;
    std::string smpirun; ///< smpirun's path; empty: found on PATH
    /// Polled while the engines run (smpirun every 50 ms); returning true stops the work
    /// (runSimGridEngine throws Cancelled). May be empty.
    std::function<bool()> cancelled;
    /// Receives the fraction done (0..1) at each stage. May be empty.
    std::function<void(double)> progress;
};

struct SimGridEngineResult
{
    std::string model;                  ///< Rankscope's network model
    int64_t rankscopeNs = 0;            ///< Rankscope's predicted run time
    double rankscopeWallSeconds = 0;    ///< its replay's wall-clock time
    int64_t simgridNs = 0;              ///< SimGrid's, from the end of its Paje trace
    double simgridReportedSeconds = -1; ///< the "Simulated time" smpirun printed (-1: none)
    double smpirunSeconds = 0;          ///< smpirun, start to exit
    double exportSeconds = 0;           ///< writing the TI traces and platform
    double importSeconds = 0;           ///< reading SimGrid's Paje trace
    /// (SimGrid - Rankscope) / Rankscope in %; 0 when Rankscope's time is 0.
    double differencePercent = 0;
    SimGridExport exported;              ///< what was written (paths empty when temporary)
    std::shared_ptr<Trace> simgridTrace; ///< SimGrid's predicted trace (its Paje output)
    std::string pajeFile;                ///< the kept Paje trace; empty when temporary
    std::string placementNote;           ///< how ranks were placed on the spec's nodes, if said

    /// SimGrid's whole cost: export, smpirun and import.
    double simgridWallSeconds() const { return exportSeconds + smpirunSeconds + importSeconds; }
};

/// SimGrid is not installed: smpirun is not on PATH. The message says how to install it.
class SimGridUnavailable : public std::runtime_error
{
public:
    SimGridUnavailable();
};

/// Full path of smpirun on PATH, or empty.
std::string findSmpirun();

/// Runs both engines on `trace`. Throws SimGridUnavailable without smpirun, TraceError when
/// the program or spec cannot be written for SimGrid (naming request.source) or smpirun fails
/// (with the tail of its output), and Cancelled when request.cancelled says so.
SimGridEngineResult runSimGridEngine(const Trace& trace, const SimGridEngineRequest& request);

} // namespace rankscope::bench
