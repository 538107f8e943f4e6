#pragma once
// Reads the events of a set of locations through one OTF2_Reader and appends them to a
// TraceBuilder. Several Otf2EventReaders, each with its own OTF2_Reader and a disjoint set of
// locations, may run in parallel: OTF2 documents independent readers as usable from different
// threads, and TraceBuilder allows concurrent appends to different locations.
//
// Design note: callbacks are the hot path (tens of millions of calls). Each gets a pointer to its
// location's context as user data, checks the references it carries against the dense tables of
// Otf2Tables and calls the builder directly: no maps, no strings, no allocation per event.
// Exceptions must not cross OTF2's C frames, so a callback that fails stores the message and
// interrupts the reader; the message is rethrown (or, with allowPartial, kept as a warning
// together with the events read before the damage) once OTF2 has returned.

#include "importers/otf2/otf2tables.h"
#include "model/trace/tracebuilder.h"

#include <atomic>
#include <functional>
#include <otf2/OTF2_Reader.h>
#include <string>
#include <vector>

namespace rankscope {

class Otf2EventReader
{
public:
    /// Interns the names of record types kept as MiscKind::Other into `tables.recordNames`.
    /// Must run before any reader starts (interning is not allowed during parallel appends).
    static void internRecordNames(TraceBuilder& builder, Otf2Tables& tables);

    Otf2EventReader(const Otf2Tables& tables, TraceBuilder& builder, bool allowPartial,
                    std::atomic<uint64_t>& eventsDone, const std::atomic<bool>& cancelled);

    /// Reads the locations `tables.locations[i]` for i in `which` through `reader` (open, not
    /// yet used for local files). `afterChunk` runs between chunks of events on this thread
    /// (progress reporting); it may throw. Throws TraceError on damage unless allowPartial.
    void read(OTF2_Reader* reader, const std::vector<size_t>& which,
              const std::function<void()>& afterChunk = {});

    /// Reads locations of `which` through `reader` as several readers share them: each takes
    /// the next entry `order[next++]` until all are taken, so that a thread that runs slower (a
    /// busy core, a location slower to decode) takes fewer. Warnings keep their position.
    /// `order` lists positions in `which` in the order they are taken (largest first, say).
    void readShared(OTF2_Reader* reader, const std::vector<size_t>& which,
                    const std::vector<size_t>& order, std::atomic<size_t>& next,
                    const std::function<void()>& afterChunk = {});

    /// What was lost to damage (allowPartial only), one message per location.
    const std::vector<std::string>& warnings() const { return warnings_; }
    /// The position in `which` of the location each warning is about (same order as warnings).
    const std::vector<size_t>& warningPositions() const { return warningPositions_; }

private:
    void damaged(const std::string& message);
    void readLocalDefinitions(OTF2_Reader* reader, const Otf2Tables::LocationEntry& loc,
                              bool& usable);
    void readLocation(OTF2_Reader* reader, const Otf2Tables::LocationEntry& loc,
                      const std::function<void()>& afterChunk);

    const Otf2Tables& tables_;
    TraceBuilder& builder_;
    bool allowPartial_;
    std::atomic<uint64_t>& eventsDone_;
    const std::atomic<bool>& cancelled_;
    std::vector<std::string> warnings_;
    std::vector<size_t> warningPositions_;
    size_t position_ = 0; ///< position in `which` of the location being read
};

} // namespace rankscope
