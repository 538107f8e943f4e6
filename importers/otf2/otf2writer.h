#pragma once
// Writes a model Trace as an OTF2 archive that otf2-print, Vampir and readOtf2 open.
//
// Everything the model holds is written (clock, strings, regions with role, paradigm and source
// position, ranks as "MPI Rank N" process groups, locations, MPI communicators with their member
// ranks, and every event) except what OTF2 cannot express faithfully; such events are skipped
// and counted in the returned report, never silently dropped:
// - MiscKind::Other events (the model keeps only the name of the source record type).
// Unmatched messages are written with the partner rank they named (Trace::messageSender/
// messageReceiver). The trace's Provenance is kept in archive properties (below).
// Timestamps are written in ns (1e9 ticks per second) with the trace's clock offset as the
// global offset, so a trace read from a file with another timer resolution comes back in ns.

#include "model/trace/trace.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rankscope {

/// OTF2 archive properties holding a trace's Provenance (kind and parameters).
inline constexpr const char* kOtf2ProvenanceKind = "RANKSCOPE::PROVENANCE_KIND";
inline constexpr const char* kOtf2ProvenanceParameters = "RANKSCOPE::PROVENANCE_PARAMETERS";
/// Set (to partialMark(), model/trace/partialmark.h) when the trace written was partial.
inline constexpr const char* kOtf2WrittenFromPartial = "RANKSCOPE::WRITTEN_FROM_PARTIAL";

struct Otf2WriteOptions
{
    /// Called with the fraction done (0..1); returning false cancels: writeOtf2 removes what it
    /// wrote and throws Cancelled.
    std::function<bool(double)> progress;
    /// Replace an archive already in the folder (`generate --force`) instead of refusing it.
    /// The old archive stays whole until the new one is complete on disk.
    bool replace = false;
};

/// What writeOtf2 did. Callers that do not care may ignore it; skippedEvents > 0 always comes
/// with a warning saying which events and why.
struct Otf2WriteReport
{
    uint64_t eventsWritten = 0;
    uint64_t skippedEvents = 0;
    std::vector<std::string> warnings;
};

/// Writes `trace` as an OTF2 archive: <dir>/traces.otf2, <dir>/traces.def,
/// <dir>/traces/<loc>.evt/.def. `dir` is created if missing and must not already hold an archive
/// named "traces" (unless options.replace). The archive is written beside its final names and
/// moved into place when complete and synced (model/support/staging.h). Throws TraceError
/// naming the path on any failure (nothing is left behind, an archive replaced is kept).
Otf2WriteReport writeOtf2(const Trace& trace, const std::string& dir,
                          const Otf2WriteOptions& options = {});

} // namespace rankscope
