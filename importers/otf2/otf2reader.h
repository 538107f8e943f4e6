#pragma once
// Reads an OTF2 trace (as written by Score-P) into a model Trace.
//
// The reader maps OTF2 definitions onto the model (process location groups become ranks in
// MPI_COMM_WORLD order, device and metric locations stay attached to their rank, MPI
// communicators get world-rank member lists) and hands every event record to TraceBuilder, so
// the imported event count equals what `otf2-print` lists. Errors are TraceError messages that
// name the file (and the location and event where one applies).

#include "model/trace/trace.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

struct OTF2_Reader_struct; // OTF2_Reader, from <otf2/OTF2_Reader.h>

namespace rankscope {

struct Otf2ReadOptions
{
    /// Keep what could be read from damaged event files and say what is missing
    /// (diagnostics().partial and a warning naming the file) instead of failing.
    bool allowPartial = false;
    /// More than 1: read disjoint sets of locations in parallel, one OTF2_Reader per thread.
    unsigned threads = 1;
    /// Called with the fraction done (0..1), at most ~100 times, always from the calling
    /// thread. Returning false cancels the import: readOtf2 throws Cancelled.
    std::function<bool(double fraction)> progress;
    /// Before reading any event, estimate the memory the import needs from the event counts in
    /// the definitions (model/support/memorybudget.h) and refuse (TraceError naming the file and
    /// both figures) when it exceeds the available memory.
    bool checkMemory = true;
    /// The available memory for that check, in bytes; unset: availableMemoryBytes().
    std::optional<uint64_t> availableMemory;
    /// Reads the events of only some ranks (all their locations); the definitions stay whole,
    /// so the other ranks are there with empty event columns. Called once, after the
    /// definitions, with each rank's event count (all its locations, as the definitions give
    /// them); returns one flag per rank. Unset: every rank. The memory check and progress count
    /// the chosen ranks only.
    std::function<std::vector<bool>(const std::vector<uint64_t>& eventsPerRank)> selectRanks;
    /// Installs the reader's collective callbacks (e.g. OTF2_MPI_Reader_SetCollectiveCallbacks
    /// for MPI-parallel reading) and returns an OTF2_ErrorCode; unset: OTF2's serial ones. With
    /// MPI collectives every process of the communicator must call readOtf2 with threads = 1,
    /// as opening and closing the event files are collective then.
    std::function<int(OTF2_Reader_struct* reader)> setCollectiveCallbacks;
};

/// Reads the trace whose anchor file is `path` (e.g. traces.otf2), or the one anchor file in
/// the folder `path`. Throws TraceError when the input cannot form a trace.
Trace readOtf2(const std::string& path, const Otf2ReadOptions& options = {});

} // namespace rankscope
