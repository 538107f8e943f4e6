#pragma once
// Reads a Paje trace (.paje), as SimGrid's SMPI writes it with tracing/smpi or Rankscope's Paje
// export writes it (pajeexport.h), into a model Trace with the same MPI call records, messages
// and collectives an OTF2 import gives.
//
// Mapping (docs/design-notes.md, Formats, Paje; the details in pajebuild.cpp): containers named
// "rank N" / "rank-N" are ranks; their pushed, popped and set states are regions (SimGrid's
// PMPI_Send, action_allreduce, smpi_replay_run_init... become MPI_Send, MPI_Allreduce,
// MPI_Init); every link is a message, sent at its start from the sender's rank and received at
// its end on the receiver's, in the MPI call open there; collectives come from Rankscope's
// Collective events, or from SimGrid's collective states (on MPI_COMM_WORLD). Events the model
// has no place for (variables, unknown event numbers) are skipped and counted in the trace's
// warnings; what cannot be read (a field missing, an unclosed quote, a bad time) is a
// TraceError naming the file and line.

#include "model/trace/trace.h"

#include <functional>
#include <string>

namespace rankscope {

struct PajeReadOptions
{
    /// Called with the fraction read (0..1), at most ~100 times; returning false cancels the
    /// import (readPaje throws Cancelled).
    std::function<bool(double fraction)> progress;
    /// More than 1: cut the text on a second thread while it is parsed, then build the
    /// locations and match messages on that many threads (the trace is the same).
    unsigned threads = 1;
};

/// Whether `path` names a Paje trace by its extension (.paje, any case).
bool isPajePath(const std::string& path);

/// Reads the Paje trace `path`. Throws TraceError.
Trace readPaje(const std::string& path, const PajeReadOptions& options = {});

} // namespace rankscope
