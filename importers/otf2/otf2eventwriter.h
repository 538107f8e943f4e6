#pragma once
// Writes the events of one location as OTF2 records, and collects what the global definitions
// need afterwards (event counts, source code locations, communicators with create/destroy
// events).
//
// Design note: the model keeps a message id per point-to-point event and a collective id per
// collective event; OTF2 wants the partner as a rank *within the communicator*, tag, length,
// request ids and per-rank collective bytes. Partners are translated with one world-to-comm-rank
// table per communicator, built on first use. Request ids are derived from the message id
// (2m+1 for the send side, 2m+2 for the receive side), so posting, completion, tests and
// cancels of one request always agree without a map; requests the model could not link to a
// message get fresh ids from a separate range.

#include "model/trace/trace.h"

#include <cstdint>
#include <otf2/OTF2_EvtWriter.h>
#include <string>
#include <unordered_map>
#include <vector>

namespace rankscope {

class Otf2EventWriter
{
public:
    /// `locationIds[l]` is the OTF2 id of LocationId l; `path` names the archive in errors.
    Otf2EventWriter(const Trace& trace, const std::vector<uint64_t>& locationIds, std::string path);

    /// Writes all events of `loc` through `writer`; `tick(n)` is called after every n events
    /// written (for progress) and may throw to cancel.
    template <class Tick> void write(OTF2_EvtWriter* writer, LocationId loc, Tick&& tick);

    uint64_t eventCount(LocationId loc) const { return eventCounts_[loc.value]; }
    uint64_t skippedOther() const { return skippedOther_; }
    uint64_t skippedUnmatched() const { return skippedUnmatched_; }
    uint64_t skippedOutsider() const { return skippedOutsider_; }
    uint64_t skippedStrayEnds() const { return skippedStrayEnds_; }
    /// Source code locations used by events, indexed by OTF2 SourceCodeLocationRef.
    const std::vector<SourceLocation>& sourceLocations() const { return sourceLocations_; }
    bool commHasCreateDestroy(CommId c) const { return commCreateDestroy_[c.value]; }
    /// The attributes the writer defines: SOURCE_CODE_LOCATION, if any event uses it, and
    /// NETWORK_CONTENTION_NS (a receive's simulated contention delay, uint64 ns), if the trace
    /// has those delays (Trace::messageContentionNs()).
    /// Their refs are dense, as OTF2 readers expect: NETWORK_CONTENTION_NS comes after
    /// SOURCE_CODE_LOCATION when both are defined.
    static constexpr uint32_t kSourceLocationAttribute = 0;
    uint32_t contentionAttribute() const { return hasSources_ ? 1 : 0; }

private:
    /// Writes event i of `loc`; returns false if it was skipped.
    bool writeEvent(OTF2_EvtWriter* w, OTF2_AttributeList* attrs, LocationId loc, size_t i);
    bool writeP2P(OTF2_EvtWriter* w, OTF2_AttributeList* attrs, LocationId loc, size_t i,
                  uint64_t time);
    bool writeCollectiveEnd(OTF2_EvtWriter* w, OTF2_AttributeList* attrs, LocationId loc, size_t i,
                            uint64_t time);
    bool writeMisc(OTF2_EvtWriter* w, OTF2_AttributeList* attrs, uint32_t ref, uint64_t time);
    /// Rank of world rank `rank` within `comm`, or UINT32_MAX if it is not a member.
    uint32_t commRank(CommId comm, RankId rank);
    uint32_t sourceLocationRef(const SourceLocation& s);
    uint64_t freshRequest() { return kFreshRequestBase + freshRequests_++; }
    void check(OTF2_ErrorCode code, LocationId loc, size_t i) const;

    static constexpr uint64_t kFreshRequestBase = uint64_t(1) << 62;

    const Trace& trace_;
    const std::vector<uint64_t>& locationIds_;
    std::string path_;
    std::vector<uint64_t> eventCounts_;
    std::vector<std::vector<uint32_t>> commRanks_; ///< per comm: world rank -> comm rank
    std::vector<bool> commCreateDestroy_;
    std::vector<SourceLocation> sourceLocations_;
    std::unordered_map<uint64_t, uint32_t> sourceLocationRefs_; ///< (file << 32 | line) -> ref
    std::vector<uint64_t> unlinkedRequests_; ///< posted requests without a message, this location
    uint64_t freshRequests_ = 0;
    bool hasSources_ = false; ///< some event has a source location
    uint64_t skippedOther_ = 0;
    uint64_t skippedUnmatched_ = 0;
    uint64_t skippedOutsider_ = 0;
    uint64_t skippedStrayEnds_ = 0;
};

template <class Tick>
void Otf2EventWriter::write(OTF2_EvtWriter* writer, LocationId loc, Tick&& tick)
{
    constexpr size_t kTickEvery = size_t(1) << 20;
    const EventStream& es = trace_.events(loc);
    const auto& sources = es.sourceLocations();
    OTF2_AttributeList* attrs = sources.empty() && trace_.messageContentionNs().empty()
                                    ? nullptr
                                    : OTF2_AttributeList_New();
    unlinkedRequests_.clear();
    size_t nextSource = 0;
    uint64_t written = 0;
    try {
        for (size_t i = 0; i < es.size(); ++i) {
            if (attrs && nextSource < sources.size() && sources[nextSource].first == i) {
                OTF2_AttributeList_AddSourceCodeLocationRef(
                    attrs, kSourceLocationAttribute, sourceLocationRef(sources[nextSource].second));
                ++nextSource;
            }
            if (writeEvent(writer, attrs, loc, i))
                ++written;
            else if (attrs)
                OTF2_AttributeList_RemoveAllAttributes(attrs);
            if ((i + 1) % kTickEvery == 0) tick(kTickEvery);
        }
    } catch (...) {
        if (attrs) OTF2_AttributeList_Delete(attrs);
        throw;
    }
    if (attrs) OTF2_AttributeList_Delete(attrs);
    tick(es.size() % kTickEvery);
    eventCounts_[loc.value] = written;
}

} // namespace rankscope
