#pragma once
// Reads a Paraver trace (.prv, or gzip-compressed .prv.gz, with the .pcf beside it) into a
// model Trace.
//
// Mapping (docs/design-notes.md, Formats, Paraver): every task of every application is a rank
// (applications one after the other), every thread a location (thread 1 the main one); an
// event of the MPI types (50000001..50000005) enters the MPI call its value names in the .pcf
// (Extrae's numbering without one) and value 0 leaves it; 60000019 "User function" events enter
// and leave user regions; a collective's entry record carries its sizes, root flag and
// communicator (50100001..50100004), which become the collective's end event (when a trace
// has such details, a collective-type call without them, an MPI_Comm_dup say, is no collective
// operation); every
// communication record is a send at its logical send time on the sender's thread and a receive
// at its physical receive time on the receiver's (a non-blocking receive, posted in an
// MPI_Irecv at the logical receive time, also its posting); states are regions on a location
// of their own per thread, so the MPI profile stays the MPI calls'; events of other types are
// kept as misc events named by the .pcf. Errors are TraceError naming the file and line.

#include "model/trace/trace.h"

#include <functional>
#include <string>

namespace rankscope {

struct ParaverReadOptions
{
    /// Called with the fraction read (0..1), at most ~100 times; returning false cancels the
    /// import (readParaver throws Cancelled).
    std::function<bool(double fraction)> progress;
    /// More than 1: cut the text on a second thread while it is parsed, then build the
    /// locations and match messages on that many threads (the trace is the same).
    unsigned threads = 1;
};

/// Whether `path` names a Paraver trace by its extension (.prv or .prv.gz, any case).
bool isParaverPath(const std::string& path);

/// Reads the Paraver trace `path`; its labels come from the .pcf beside it when there is one.
Trace readParaver(const std::string& path, const ParaverReadOptions& options = {});

} // namespace rankscope
