#pragma once
// File > Load Ranks from Trace (Ctrl+Shift+L) on a result summary's tab: asks which ranks to
// open, finds the trace the summary was made from (as recorded, else next to the summary, else
// asks), and starts loading just those ranks (TraceLoader::loadRanks).

#include "app/loadedtrace.h"

class QWidget;

namespace rankscope {

class TraceLoader;

/// The trace `summary` (a LoadedTrace opened from a .rsum) was made from, if it can be found:
/// the recorded path, relative paths also next to the summary. Empty when not found.
QString summarySourcePath(const LoadedTrace& summary);

/// Parses "a-b", "a–b" or "a" (ranks, inclusive) against `ranks` ranks into [first, end);
/// false for anything else.
bool parseRankRange(const QString& text, uint32_t ranks, uint32_t& first, uint32_t& end);

/// Asks for the ranks and the trace and starts the load; returns false when the user cancelled
/// or nothing could be found (after saying why).
bool askAndLoadSummaryRanks(QWidget* parent, const LoadedTrace& summary, TraceLoader* loader);

} // namespace rankscope
