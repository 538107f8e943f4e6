#pragma once
// Result summary files (.rsum): everything Rankscope shows of a trace except its single events,
// small enough to open in a second however large the trace was. Written by `rankscope-mpi
// analyse -o` on the cluster that made a trace too large for a workstation, and by
// `rankscope-cli summarize` for any trace; the GUI and `rankscope-cli info` open them.
//
// Format (version 2; all integers little-endian, model/support/bytecodec.h):
//   "RSUM" | u32 version | sections...
//   section = u32 tag (four ASCII letters) | u64 length | u32 crc | bytes
//   crc: zlib's CRC-32 of the tag, the length and the bytes, checked on read, so that a changed
//   byte anywhere in a section is a named error, not a new region or a count of 10^13 (version
//   1, read as before, had no crc)
//   DEFS  the trace's definitions (strings, clock, provenance, regions, ranks, locations,
//         communicators, metrics) and the run's span
//   META  the trace it summarises (path as given) and its event count
//   RANK  per rank: its profile, execution intervals and span (model/analysis/rankshare.h), which
//         the reader merges with the desktop's merge functions into the Profile and IntervalTable
//   WAIT  wait-state totals (per pattern, rank, call site) and the (pattern, call site, rank)
//         rows, with the call-site table
//   ROOT  root causes (hotspots and the waiting charged to them)
//   TLOD  the timeline's level-of-detail pyramid: level geometry, then each rank's cells
//         (all stored levels) compressed with zlib on their own, so a reader can take any ranks
//   WLOD  the same for the wait-state pyramid
// A reader skips sections it does not know (a later minor addition) and refuses a newer
// version. The stored resolution: the finest level keeps at most storedBaseBuckets(ranks)
// buckets per rank (2^24 cells over all ranks, between 2^10 and 2^15 per rank), so a summary of
// 10^4 ranks stays near a hundred megabytes before compression.

#include "model/analysis/rankshare.h"
#include "model/deltas/intervals.h"
#include "model/profile/profile.h"
#include "model/profile/timelinesummary.h"
#include "model/trace/trace.h"
#include "model/waits/rootcause.h"
#include "model/waits/waitstates.h"
#include "model/waits/waitsummary.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace rankscope {

/// One rank's pyramid cells as a file stores them: zlib-compressed, count = cells (0: none).
struct PackedCells
{
    uint64_t count = 0;
    std::vector<unsigned char> bytes;
};

/// Packs cells for storing (at the stored resolution already).
PackedCells packCells(std::span<const uint32_t> cells);
PackedCells packCells(std::span<const uint8_t> cells);

/// The pyramids in stored form: what each process of rankscope-mpi packs for its ranks, so the
/// writer never holds them uncompressed.
struct PackedPyramids
{
    SummaryLevels timelineLevels; ///< at the stored resolution
    SummaryLevels waitLevels;
    std::vector<PackedCells> timeline; ///< one per rank
    std::vector<PackedCells> waits;
};

struct ResultSummary
{
    std::shared_ptr<const Trace> trace; ///< definitions and the run's span; no events
    std::string source;                 ///< the trace summarised, as it was given
    uint64_t events = 0;                ///< that trace's events
    std::vector<RankShare> ranks;       ///< one per rank, in rank order
    WaitStateAnalysis waits;            ///< totals, call sites and rows; no single waits
    RootCauseReport rootCauses;
    TimelineSummary timeline;
    WaitSummary waitSummary;
    /// When set (one entry per rank), written instead of `timeline` and `waitSummary`.
    PackedPyramids packed;
    /// Whether the trace summarised was partial, and its warnings (the NOTE section, written
    /// when either is there; a reader gives them to `trace`'s diagnostics too).
    bool sourcePartial = false;
    std::vector<std::string> sourceProblems;
};

inline constexpr uint32_t kResultSummaryVersion = 2;

/// Level-0 buckets per rank kept in a file of `ranks` ranks (a power of two).
uint64_t storedBaseBuckets(size_t ranks);
/// How many of the finest levels of `levels` a file of `ranks` ranks drops.
unsigned storedLevelDrop(const SummaryLevels& levels, size_t ranks);

/// True for a path ending in ".rsum".
bool isResultSummaryPath(const std::string& path);

/// Writes `s` to `path` (through a temporary file renamed at the end, so a failed write leaves
/// no half file). The timeline and wait pyramids are stored at the stored resolution. Throws
/// TraceError naming the file.
void writeResultSummary(const std::string& path, const ResultSummary& s);

/// Reads a summary; throws TraceError naming the file and the section and byte where it is
/// damaged, unknown or of a newer version.
ResultSummary readResultSummary(const std::string& path);

/// The summary of a whole trace, from the desktop's analyses (the one-process case of what
/// rankscope-mpi analyse -o writes). `source` is recorded as the trace's path.
ResultSummary summarizeWholeTrace(std::shared_ptr<const Trace> trace, const std::string& source,
                                  const WaitStateOptions& waitOptions = {},
                                  double hotspotThresholdPercent = 1.0, unsigned threads = 1);

/// The merged results of a summary, computed by the desktop's merges from its per-rank parts.
Profile summaryProfile(const ResultSummary& s);
IntervalTable summaryIntervals(const ResultSummary& s);

} // namespace rankscope
