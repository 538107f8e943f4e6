#pragma once
// Writes a model Trace in the Paje trace file format, the text format of SimGrid's traces that
// PajeNG (pj_dump, pj_validate) and ViTE read.
//
// Format: "The Paje Trace File Format" (the reference document of PajeNG, doc/lang-paje in
// github.com/schnorr/pajeng, and its pj_dump(1) manual page): a header of %EventDef ...
// %EndEventDef blocks, each giving an event's name, its number and its fields (name and type: date,
// int, string, color, ...), then one event per line: the number, then the field values in the order
// of the definition, separated by blanks. Fields beyond those the event needs are allowed (user
// fields; pj_dump -u prints them). A string holding blanks or empty is put inside double quotes;
// the format has no escape inside quotes and ends every event at a newline, so a name's double
// quotes become single quotes and its newlines and other control characters become blanks
// (names are always quoted, so a '#' stays in the name instead of starting a comment). Dates are
// seconds since the program's start.
//
// Mapping (docs/design-notes.md, Formats):
// - container types: the run ("MPI run", the root) holds one container per rank ("rank N",
//   alias rN), which holds one container per further location of that rank ("rank N thread
//   K", K its position in the rank's locations); all live from min(0, first event) to the end;
// - every Enter/Leave pair (user regions and MPI calls alike) is a state pushed at the Enter
//   and popped at the Leave (PajePushState/PajePopState, so nested regions nest), on the rank's
//   container for its main location, on the thread's otherwise; each distinct region name is
//   one entity value (defined before its first use), coloured by paradigm. A region still open when
//   its location ends is popped at the location's last timestamp; a Leave that closes an outer
//   region pops the regions opened inside it too; a Leave with no open region of its own is
//   skipped;
// - every matched message is a link of type "Message" in the run container: PajeStartLink at
//   the send event from the sender's rank container, PajeEndLink at the receive event to the
//   receiver's, key "m<row of the message table>", user fields Size (bytes), Tag and Comm
//   (communicator index, -1: none) on the start, Post on the end (seconds of the
//   MpiIrecvRequest that posted a non-blocking receive, "-" for a blocking one);
// - regions' entity values (event 10) carry the user fields Paradigm and Role (the model's
//   enum values), so Rankscope's Paje import gives them back;
// - every communicator is a PajeNewEvent (event 13, type "Communicator") of the run at its
//   start: value its name, user fields Id, Parent (-1: none) and Members (world ranks);
// - every collective begin and end on a rank's main location is a PajeNewEvent (event 12,
//   type "Collective", value "begin" or "end") with user fields Op (CollectiveOp), Comm,
//   Root (rank in the communicator, -1: none), Sent and Received (that rank's bytes);
// - not written, and counted in the report: request completions of non-blocking sends,
//   request tests and cancels, misc (metric) events, the clock offset, call sites;
// - times in seconds with 9 decimals (exact ns), as the model holds them: relative to the
//   trace's start (its clock offset is not written).
// Events are written in time order over all locations (a merge of the per-location streams),
// which readers that simulate the trace as they read it expect. Written as a stream; memory
// does not grow with the events.

#include "model/trace/trace.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

namespace rankscope {

/// What writePajeTrace wrote.
struct PajeExportReport
{
    uint64_t states = 0;            ///< pushed states: one per Enter
    uint64_t unclosedStates = 0;    ///< of which popped at the end of their location
    uint64_t skippedLeaves = 0;     ///< Leaves with no open region of their own
    uint64_t links = 0;             ///< matched messages written as a link
    uint64_t unmatchedMessages = 0; ///< messages with one end only: no link
    uint64_t collectiveEnds = 0;    ///< collective ends written with their details
    // What the format does not hold (events of these kinds are not written):
    uint64_t requestCompletions = 0;      ///< MpiIsendComplete events
    uint64_t requestTests = 0;            ///< MpiRequestTest and MpiRequestCancelled events
    uint64_t miscEvents = 0;              ///< metric and other misc events
    uint64_t offRankCollectiveEvents = 0; ///< collective ends on a rank's further locations
    uint64_t bytes = 0;                   ///< size of the text
};

/// Writes `trace` as a Paje trace to `out` in blocks. Throws TraceError when the stream fails.
PajeExportReport writePajeTrace(const Trace& trace, std::ostream& out);

/// Writes `trace` as a Paje trace to the file `path`: into a fresh temporary file beside it,
/// renamed over `path` once complete, so a failure leaves no partial file and an old file stays
/// as it was. Throws TraceError "<path>: cannot write the Paje trace: <reason>".
PajeExportReport writePajeTraceFile(const Trace& trace, const std::string& path);

namespace paje {
/// Appends `s` inside double quotes, double quotes replaced by single quotes and control
/// characters (newlines included) by blanks: the format has no escapes.
void appendQuoted(std::string& out, std::string_view s);
/// Appends a time given in ns as seconds with 9 decimals: 1500 -> 0.000001500.
void appendSeconds(std::string& out, int64_t ns);
} // namespace paje

} // namespace rankscope
