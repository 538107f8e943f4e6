#pragma once
// SimGrid time-independent (TI) traces as a Trace, for every command that takes a TRACE: a list
// file (`.ti`) naming one action file per rank, as `smpirun -replay` reads it (see tiimport.h
// for the format and the action program the replay uses).
//
// A TI trace has no times; the Trace takes those of a replay on an ideal network (no latency,
// no overhead, no bandwidth limit, eager sends): a compute action lasts its flops at
// TiReadOptions::flopsPerSecond, an MPI call only as long as it waits for a partner. Replaying
// that Trace on a network spec replays the TI actions themselves (tiimport.h).

#include "model/trace/trace.h"

#include <string>

namespace rankscope {

struct TiReadOptions
{
    /// The speed that turns `compute <flops>` into time; SimGrid's hosts of 1 Gflop/s (as
    /// Rankscope's export writes its platform) make one flop one nanosecond.
    double flopsPerSecond = 1e9;
};

/// True for a path ending in ".ti" (any case).
bool isTiPath(const std::string& path);

/// Reads the TI trace whose list file is `path`. Throws TraceError naming file and line.
Trace readTi(const std::string& path, const TiReadOptions& options = {});

} // namespace rankscope
