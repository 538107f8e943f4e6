#pragma once
// SimGrid as a peer engine (`simulate --engine simgrid`, bench/netsim): writes a Rankscope action
// program as a SimGrid time-independent (TI) trace with a platform equivalent to the Rankscope
// network spec (one crossbar, one fat tree whose links are all of one class, or crossbar
// clusters joined by wide-area links), and runs
// SimGrid's offline SMPI replay (`smpirun -replay`) on it.
//
// Format: SimGrid's "Trace Replay and Offline SMPI"
// (https://simgrid.org/doc/latest/app_smpi.html#trace-replay-and-offline-smpi): one text file
// per rank of lines "<rank> <action> <arguments>", and a list file naming the rank files in rank
// order. The actions and arguments used here are the ones SimGrid 3.32's replay parses (checked
// against smpirun 3.32 on small exports): init, finalize, compute <flops>,
// isend <dst> <tag> <bytes>, irecv <src> <tag> <bytes>, wait <src> <dst> <tag>, barrier,
// bcast <bytes> <root>, reduce <bytes> <flops> <root>, allreduce <bytes> <flops>,
// allgather <send> <recv>, gather <send> <recv> <root>, scatter <send> <recv> <root>,
// alltoall <send> <recv>, reducescatter <recv count per rank...> <flops>. Sizes are bytes
// (`init` without arguments makes MPI_BYTE the datatype); collective sizes are per rank.
// Platform: https://simgrid.org/doc/latest/Platform.html (a <cluster> without backbone; a fat
// tree as a <cluster topology="FAT_TREE">; clusters as one <cluster> each, with a router, in a
// zone of full routing whose zoneRoutes cross one wide-area <link> per pair of clusters).
// Plain C++ (no Qt): the export is a few large sequential writes.

#include "whatif/netsim/actionprogram.h"
#include "whatif/netsim/networkspec.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rankscope::bench {

/// What an export wrote (absolute paths) and how many TI actions of each kind.
struct SimGridExport
{
    std::string dir;
    std::string listFile; ///< trace.ti: the rank files, one per line in rank order (for -replay)
    std::string platformFile; ///< the cluster (for -platform)
    std::string hostFile;     ///< rank r on host node-r (for -hostfile)
    uint32_t ranks = 0;
    uint64_t computes = 0;
    uint64_t isends = 0;
    uint64_t irecvs = 0;
    uint64_t waits = 0;
    uint64_t collectives = 0;
    /// Messages left out: without a partner in the trace, or a rank's message to itself (see
    /// simgridexport.cpp).
    uint64_t skippedMessages = 0;
    uint64_t bytes = 0; ///< size of the rank files

    uint64_t actions() const { return computes + isends + irecvs + waits + collectives; }
};

/// Writes `program` as a TI trace into `dir` (created; replaced when it exists), with a platform
/// and hostfile equivalent to `spec`. Throws std::runtime_error when SimGrid's replay cannot
/// express the program or the spec: a collective on a communicator other than the world, a
/// spec that is not one crossbar, fat-tree or clusters network with one rank per node.
SimGridExport exportSimGridTrace(const netsim::ActionProgram& program,
                                 const netsim::NetworkSpec& spec, const std::string& dir);

/// Writes `program` as a TI trace without platform: the list file `listFile` and beside it
/// one file per rank, "<list stem>-rank-<r>.txt", named relative to the list's folder (what
/// `convert -o OUT.ti` writes). The set is written in a hidden folder beside the list and moved
/// into place when complete and synced, the list last (model/support/staging.h). It replaces
/// only a set this function wrote: TraceError when the list names other files, or when a rank
/// file's name is taken by a file no list names. Throws std::runtime_error for a collective on
/// a communicator other than the world, TraceError naming the list for a failed write.
/// A non-empty `partialMark` (model/trace/partialmark.h: the program's trace was partial) is
/// written as the first line of rank 0's file, a comment SimGrid's replay skips.
SimGridExport writeTiTrace(const netsim::ActionProgram& program, const std::string& listFile,
                           const std::string& partialMark = {});

/// The `--cfg=` options that make SMPI's model what `spec` says (overheads, eager limit, protocol
/// table, collective algorithms) rather than SMPI's calibrated defaults (see the .cpp).
std::vector<std::string> simgridOptions(const netsim::NetworkSpec& spec, uint32_t ranks);

/// Full path of `program` on PATH, or empty when it is not there.
std::string findOnPath(const std::string& program);

struct SimGridRun
{
    std::string command;
    int exitCode = -1;
    double wallSeconds = 0;       ///< the whole smpirun process, start to exit
    double simulatedSeconds = -1; ///< the replay's predicted run time (-1: not printed)
    double engineSeconds = -1;    ///< SimGrid's own timer, after parsing and platform setup
    std::string output;           ///< what smpirun printed (stdout and stderr)
    bool cancelled = false;       ///< stopped by the cancel check (smpirun was killed)
};

/// Runs `smpirun -replay` on an export once and times it. `cancelled` (may be empty) is polled
/// while smpirun runs; when it returns true smpirun is killed (SimGridRun::cancelled).
SimGridRun runSimGridReplay(const std::string& smpirun, const SimGridExport& e,
                            const std::vector<std::string>& options,
                            const std::function<bool()>& cancelled = {});

/// The `--cfg=` options that make the replay write its Paje trace to `pajeFile` (tracing/smpi,
/// compute phases as states, times with 9 decimals: ns).
std::vector<std::string> simgridTracingOptions(const std::string& pajeFile);

} // namespace rankscope::bench
