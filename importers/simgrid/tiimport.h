#pragma once
// Reads SimGrid time-independent (TI) traces into Rankscope's action program (whatif/netsim),
// the input of its own replay, and from there into a Trace (tireader.h).
//
// Format (SimGrid's "Trace Replay and Offline SMPI", the actions as SimGrid 3.32's smpi_replay
// parses them): the list file names one action file per rank in rank order (a path relative to
// the list file's folder, or absolute); a list of a single file names one file holding every
// rank's actions. An action line is "<rank> <action> <arguments>"; empty lines and lines
// starting with '#' are skipped. In a per-rank file the leading rank is not checked (SimGrid
// does not either); in a shared file it says whose action the line is.
//   init [datatype]            sizes are counts of MPI_BYTE, of MPI_DOUBLE with an argument
//   finalize
//   compute <flops>            sleep <seconds>
//   send|isend <dst> <tag> <size> [datatype]     recv|irecv <src> <tag> <size> [datatype]
//   wait <src> <dst> <tag>     the oldest pending request with that key
//   waitall                    every pending request, oldest first
//   test <src> <dst> <tag>     a call that does not wait (the request stays pending)
//   barrier   bcast <size> [root [dt]]   reduce <size> <flops> [root [dt]]
//   allreduce <size> <flops> [dt]        alltoall <send> <recv> [dt dt]
//   allgather <send> <recv> [dt dt]      gather|scatter <send> <recv> [root [dt dt]]
//   reducescatter <recv count per rank...> <flops> [dt]
//   alltoallv <send buffer> <send counts...> <recv buffer> <recv counts...>
//   gatherv <send> <recv counts...> [root]   allgatherv <send> <recv counts...>
//   scatterv <send counts...> <recv> [root]
//   comm_size, comm_split, comm_dup, location: bookkeeping, no time
// Datatypes are SimGrid's ids of the types its TI tracing writes (0 double, 1 int, 2 char,
// 3 short, 4 long, 5 float, 6 byte). Collectives run on MPI_COMM_WORLD; the k-th collective of
// every rank is one operation. Its size is Rankscope's M (collectiveschedule.h): the whole
// operation for allgather, gather, scatter, alltoall and reduce-scatter (each rank's share times
// the ranks), the buffer for the others; v-variants become their plain kind with the counts
// summed. Point-to-point messages pair as MPI does: the k-th send from s to d with tag t goes to
// the k-th receive on d from s with tag t (the sender's size counts).
//
// Bad input: a line missing arguments, a number that is not one, a partner or root outside the
// ranks, an unknown datatype, ranks whose collectives disagree, a missing rank file: TraceError
// "file:line: ...". An unknown action is skipped, counted and warned about with the file and
// line of its first occurrence; sends or receives without a partner, and waits without a
// pending request, are warnings with counts.

#include "importers/simgrid/tireader.h"
#include "whatif/netsim/actionprogram.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rankscope {

/// The MPI call of an Enter action of a TI program (Action::ref of that Enter).
enum class TiCall : uint8_t
{
    Init,
    Finalize,
    Send,
    Isend,
    Recv,
    Irecv,
    Wait,
    Waitall,
    Test,
    Barrier,
    Bcast,
    Reduce,
    Allreduce,
    Allgather,
    Gather,
    Scatter,
    Alltoall,
    ReduceScatter,
    Alltoallv,
    Gatherv,
    Allgatherv,
    Scatterv,
    Count
};

/// The MPI function name of `call` ("MPI_Isend").
const char* tiCallName(TiCall call);

struct TiImport
{
    std::string listPath;
    std::vector<std::string> rankFiles;
    /// The replay's input: every MPI call an Enter (ref: its TiCall) ... Leave; all ranks start
    /// at 0; a message whose partner never appears has that end at kNoRank.
    netsim::ActionProgram program;
    /// Per message: its tag, the ranks its actions name (sender, receiver; also for a message
    /// without partner), and whether the send and the receive were blocking (bit 0, bit 1).
    std::vector<int32_t> tags;
    std::vector<std::pair<uint32_t, uint32_t>> ends;
    std::vector<uint8_t> blocking;
    std::vector<std::string> warnings;
    uint64_t actions = 0;        ///< action lines read
    uint64_t skippedActions = 0; ///< unknown actions
    uint64_t unmatchedSends = 0;
    uint64_t unmatchedRecvs = 0;
    uint64_t strayWaits = 0; ///< wait without a pending request
    /// A first-line comment "# rankscope: written from a partial trace ..." of an action file
    /// (model/trace/partialmark.h), and where it was.
    std::string partialMark;
    std::string partialMarkWhere;
};

/// Reads the TI trace whose list file is `path` (any name). Throws TraceError.
TiImport readTiProgram(const std::string& path, const TiReadOptions& options = {});

/// The Trace of an import (see tireader.h). Throws TraceError when ranks wait for each other
/// forever (a receive whose send comes after a blocking receive of the sender's).
Trace tiTrace(const TiImport& import, const TiReadOptions& options = {});

} // namespace rankscope
