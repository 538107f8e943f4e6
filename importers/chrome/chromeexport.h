#pragma once
// Writes a model Trace in the Chrome Trace Event Format (JSON object form), which the Perfetto
// UI and chrome://tracing open.
//
// Format: "Trace Event Format" (the Chromium/Catapult definition,
// https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU, linked from
// catapult's docs/trace-event-format.md): a {"traceEvents": [...]} object; ts and dur in
// microseconds (fractions allowed); complete events ph "X" (ts + dur); flow events ph "s"
// (start) and ph "f" (finish) paired by cat, name and id, each bound to the slice of its thread
// at its ts ("bp": "e" binds the finish to the enclosing slice instead of the next one);
// metadata events ph "M" (process_name, process_sort_index, process_labels, thread_name,
// thread_sort_index); "displayTimeUnit" only changes how a viewer displays times.
//
// Mapping (docs/design-notes.md, Formats):
// - a rank is a process: pid = rank + 1 (pid 0 is the kernel's idle task to Perfetto, which
//   then renames its threads), named "Rank N", sorted by rank, labelled with its host if known;
// - a location is a thread: the main (MPI) location has tid = pid, a further location of the
//   same rank rankCount + 1 + its LocationId, so tids are unique over the trace as Perfetto
//   expects; named by the location's name, sorted main first;
// - every Enter/Leave pair (user regions and MPI calls alike) is one complete event "X", cat the
//   region's paradigm ("mpi", "user", ...); a region still open when its location ends is closed
//   at the location's last timestamp (args.unclosed); a Leave that closes an outer region closes
//   the regions opened inside it too; a Leave with no open region of its own is skipped;
// - every matched message is a flow: "s" at the send event on the sender's thread, "f" with
//   "bp": "e" at the receive event on the receiver's thread, cat "mpi.message", name "message",
//   id = its row in the message table + 1. A flow event lies inside the slice it belongs to
//   (one ending exactly at the slice's end moves 1 ns earlier), so both viewers bind it to the
//   innermost slice at its time: the MPI call, or a wait state inside the call;
// - every wait state (analyzeWaitStates) is a complete event inside its waiting call, named by
//   its pattern ("Late Sender", ...), cat "wait_state", args waited_ns, partner_rank, direct;
//   the waits of one call all begin at its Enter and are written longest first, so they nest.
// Times are relative to the trace's start (its clock offset is in otherData.clock_offset_ns),
// which keeps every ns exact in a double. Each event object starts with its ts: Perfetto's
// JSON tokenizer reads the keys of an event in order until it finds ts.
// Written as a stream, one location after the other; memory does not grow with the events.

#include "model/trace/trace.h"

#include <cstdint>
#include <iosfwd>
#include <string>

namespace rankscope {

struct ChromeExportOptions
{
    bool waitStates = true;          ///< add the wait states as events inside their calls
    uint64_t eagerLimit = 64 * 1024; ///< the wait-state analysis' eager limit (bytes)
};

/// What writeChromeTrace wrote.
struct ChromeExportReport
{
    uint64_t regionEvents = 0;      ///< complete events of regions: one per Enter
    uint64_t unclosedRegions = 0;   ///< of which closed at the end of their location
    uint64_t skippedLeaves = 0;     ///< Leaves with no open region of their own
    uint64_t waitEvents = 0;        ///< complete events of wait states
    uint64_t flows = 0;             ///< messages written as a flow (an "s" and an "f")
    uint64_t unmatchedMessages = 0; ///< messages with one end only: no flow
    uint64_t bytes = 0;             ///< size of the JSON text
};

/// Writes `trace` as Chrome trace JSON to `out` in blocks. Throws TraceError when the stream
/// fails.
ChromeExportReport writeChromeTrace(const Trace& trace, std::ostream& out,
                                    const ChromeExportOptions& options = {});

/// Writes `trace` as Chrome trace JSON to the file `path`: into a fresh temporary file beside it,
/// renamed over `path` once complete, so a failure leaves no partial file and an old file stays
/// as it was. Throws TraceError "<path>: cannot write the Chrome trace: <reason>".
ChromeExportReport writeChromeTraceFile(const Trace& trace, const std::string& path,
                                        const ChromeExportOptions& options = {});

} // namespace rankscope
