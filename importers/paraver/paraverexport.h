#pragma once
// Writes a model Trace as a Paraver trace: the .prv, and the .pcf and .row beside it, so that
// Paraver (and Dimemas, which reads the same format) opens what Rankscope imported, predicted
// or simulated.
//
// Mapping (docs/design-notes.md, Formats, Paraver), the reverse of paraverreader.h: one
// application; a rank is a task, its CPU-thread locations with events its threads (the main
// location thread 1); each thread one CPU, on the rank's host as a node (one node when no host
// is recorded); an MPI call is an event of the MPI type of its role (50000001 point-to-point,
// 50000002 collective and barrier, 50000003 other) valued by Extrae's number for its name (a
// number from 1000 on for names Extrae does not number), and value 0 at its Leave; a
// collective's sizes, root flag and communicator follow at its begin (50100001..50100004);
// other regions are 60000019 "User function" events (a Leave closes the regions opened inside
// its region first, a Leave without an open region is dropped, and regions still open at a
// thread's last event are closed there, as the model's analyses close them); every matched
// message is a
// communication record written at its send: logical and physical send at the send event, the
// physical receive at the receive event, the logical receive where the receive was posted
// (the MpiIrecvRequest of a non-blocking receive, the Enter of the MPI call of a blocking
// one); every communicator is a "c:" record (id = its index + 1). States: a trace read from
// Paraver writes its state locations back as state records; in a trace without any, each
// thread is Running (state 1) from its first to its last event. Times are ns from the trace's start
// (or from its earliest event when that is earlier). Misc events, request completions and tests,
// unmatched messages and device or metric locations are not written (counted in the report).

#include "model/trace/trace.h"

#include <cstdint>
#include <string>

namespace rankscope {

struct ParaverExportReport
{
    uint64_t eventRecords = 0;      ///< "2:" records
    uint64_t stateRecords = 0;      ///< "1:" records
    uint64_t communications = 0;    ///< "3:" records: matched messages
    uint64_t unmatchedMessages = 0; ///< messages with one end only: not written
    uint64_t skippedEvents = 0;     ///< misc, request and test events: not written
    uint64_t skippedLocations = 0;  ///< device, metric and empty extra locations
    uint64_t bytes = 0;             ///< size of the .prv text
    std::string pcfPath;
    std::string rowPath;
};

/// Writes `trace` to `path` (a .prv; run.prv also writes run.pcf and run.row), each file
/// replaced atomically. Throws TraceError "<file>: cannot write ...".
ParaverExportReport writeParaverTrace(const Trace& trace, const std::string& path);

} // namespace rankscope
