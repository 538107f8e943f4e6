#include "importers/otf2/otf2eventreader.h"

#include "importers/otf2/otf2filecheck.h"
#include "importers/otf2/otf2otherrecords.h"
#include "importers/otf2/otf2readerror.h"
#include "model/trace/traceerror.h"

#include <filesystem>
#include <memory>
#include <otf2/OTF2_AttributeList.h>
#include <otf2/OTF2_EvtReader.h>
#include <otf2/OTF2_EvtReaderCallbacks.h>

namespace rankscope {

namespace {

using namespace otf2other;

constexpr uint64_t kChunkEvents = 1u << 15; // events per OTF2 call: progress and cancel granularity

/// Per-location state handed to every callback as user data.
struct EventContext
{
    TraceBuilder* builder = nullptr;
    LocationId loc;
    Otf2TickConverter clock;
    const RegionId* regions = nullptr;
    size_t regionCount = 0;
    const CommId* comms = nullptr;
    size_t commCount = 0;
    const uint32_t* commSizes = nullptr;
    const Otf2Tables* tables = nullptr;
    uint32_t sclAttribute = UINT32_MAX;        // UINT32_MAX: no source locations to look for
    uint32_t contentionAttribute = UINT32_MAX; // UINT32_MAX: none defined
    std::string error;                         // why a callback stopped the reader

    // A location's events come in time order: the first and last converted times are its range.
    mutable int64_t firstNs = 0;
    mutable int64_t lastNs = 0;
    mutable bool any = false;

    int64_t ns(OTF2_TimeStamp t) const
    {
        const int64_t v = clock.toNs(t);
        if (!any) [[unlikely]] {
            any = true;
            firstNs = v;
        }
        lastNs = v;
        return v;
    }

    [[gnu::cold, gnu::noinline]] OTF2_CallbackCode fail(uint64_t position, const std::string& what)
    {
        error = "event record " + std::to_string(position) + ": " + what;
        return OTF2_CALLBACK_INTERRUPT;
    }

    /// Model communicator of an MPI event, or invalid if the reference is not an MPI communicator.
    CommId comm(OTF2_CommRef ref) const { return ref < commCount ? comms[ref] : CommId(); }

    /// Whether `rank` is a rank of `c` (self-like communicators have the single rank 0).
    bool inComm(CommId c, uint32_t rank) const
    {
        const uint32_t size = commSizes[c.value];
        return size == 0 ? rank == 0 : rank < size;
    }

    void sourceLocation(OTF2_AttributeList* attributes)
    {
        if (sclAttribute == UINT32_MAX || !attributes ||
            OTF2_AttributeList_GetNumberOfElements(attributes) == 0) [[likely]]
            return;
        attachSourceLocation(attributes);
    }

    /// A receive's NETWORK_CONTENTION_NS (simulated traces), onto the receive just appended.
    void contention(OTF2_AttributeList* attributes)
    {
        if (contentionAttribute == UINT32_MAX || !attributes) [[likely]]
            return;
        uint64_t ns = 0;
        if (OTF2_AttributeList_TestAttributeByID(attributes, contentionAttribute) &&
            OTF2_AttributeList_GetUint64(attributes, contentionAttribute, &ns) == OTF2_SUCCESS)
            builder->attachMessageContention(loc, int64_t(std::min<uint64_t>(ns, INT64_MAX)));
    }

    [[gnu::noinline]] void attachSourceLocation(OTF2_AttributeList* attributes)
    {
        if (!OTF2_AttributeList_TestAttributeByID(attributes, sclAttribute)) return;
        OTF2_SourceCodeLocationRef ref = 0;
        if (OTF2_AttributeList_GetSourceCodeLocationRef(attributes, sclAttribute, &ref) !=
            OTF2_SUCCESS)
            throw TraceError("unreadable source code location attribute");
        const auto& table = tables->sourceLocations;
        if (ref >= table.size() || !table[ref].file.valid())
            throw TraceError("refers to undefined source code location " + std::to_string(ref));
        builder->attachSourceLocation(loc, table[ref]);
    }
};

#define RANKSCOPE_CTX (*static_cast<EventContext*>(userData))
// Wraps a callback body: builder errors become a stored message (exceptions must not unwind
// through OTF2's C code), the source location attribute is handled after the append.
#define RANKSCOPE_EVENT(...)                                                                       \
    EventContext& c = RANKSCOPE_CTX;                                                               \
    try {                                                                                          \
        __VA_ARGS__;                                                                               \
        c.sourceLocation(attributes);                                                              \
    } catch (const std::exception& e) {                                                            \
        return c.fail(position, e.what());                                                         \
    }                                                                                              \
    return OTF2_CALLBACK_SUCCESS;

#define RANKSCOPE_ARGS                                                                             \
    OTF2_LocationRef, OTF2_TimeStamp time, uint64_t position, void *userData,                      \
        OTF2_AttributeList *attributes

OTF2_CallbackCode onEnter(RANKSCOPE_ARGS, OTF2_RegionRef region){RANKSCOPE_EVENT({
    if (region >= c.regionCount || !c.regions[region].valid()) [[unlikely]]
        return c.fail(position, "Enter of undefined region " + std::to_string(region));
    c.builder->enter(c.loc, c.ns(time), c.regions[region]);
})}

OTF2_CallbackCode onLeave(RANKSCOPE_ARGS, OTF2_RegionRef region)
{
    RANKSCOPE_EVENT({
        if (region >= c.regionCount || !c.regions[region].valid()) [[unlikely]]
            return c.fail(position, "Leave of undefined region " + std::to_string(region));
        c.builder->leave(c.loc, c.ns(time), c.regions[region]);
    })
}

[[gnu::cold]] std::string badPartner(const char* role, uint32_t rank, OTF2_CommRef comm, CommId id,
                                     const EventContext& c)
{
    if (!id.valid())
        return std::string(role) + " " + std::to_string(rank) + " on communicator " +
               std::to_string(comm) + ", which is not a defined MPI communicator";
    return std::string(role) + " rank " + std::to_string(rank) + " is outside communicator " +
           std::to_string(comm) + " of " + std::to_string(c.commSizes[id.value]) + " ranks";
}

OTF2_CallbackCode onSend(RANKSCOPE_ARGS, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                         uint64_t bytes){RANKSCOPE_EVENT({
    const CommId id = c.comm(comm);
    if (!id.valid() || !c.inComm(id, receiver)) [[unlikely]]
        return c.fail(position, "MPI_SEND: " + badPartner("receiver", receiver, comm, id, c));
    c.builder->send(c.loc, c.ns(time), receiver, id, static_cast<int32_t>(tag), bytes);
})}

OTF2_CallbackCode onIsend(RANKSCOPE_ARGS, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                          uint64_t bytes, uint64_t request){RANKSCOPE_EVENT({
    const CommId id = c.comm(comm);
    if (!id.valid() || !c.inComm(id, receiver)) [[unlikely]]
        return c.fail(position, "MPI_ISEND: " + badPartner("receiver", receiver, comm, id, c));
    c.builder->isend(c.loc, c.ns(time), receiver, id, static_cast<int32_t>(tag), bytes, request);
})}

OTF2_CallbackCode onRecv(RANKSCOPE_ARGS, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                         uint64_t bytes){RANKSCOPE_EVENT({
    const CommId id = c.comm(comm);
    if (!id.valid() || !c.inComm(id, sender)) [[unlikely]]
        return c.fail(position, "MPI_RECV: " + badPartner("sender", sender, comm, id, c));
    c.builder->recv(c.loc, c.ns(time), sender, id, static_cast<int32_t>(tag), bytes);
    c.contention(attributes);
})}

OTF2_CallbackCode onIrecv(RANKSCOPE_ARGS, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                          uint64_t bytes, uint64_t request){RANKSCOPE_EVENT({
    const CommId id = c.comm(comm);
    if (!id.valid() || !c.inComm(id, sender)) [[unlikely]]
        return c.fail(position, "MPI_IRECV: " + badPartner("sender", sender, comm, id, c));
    c.builder->irecv(c.loc, c.ns(time), sender, id, static_cast<int32_t>(tag), bytes, request);
    c.contention(attributes);
})}

OTF2_CallbackCode onIsendComplete(RANKSCOPE_ARGS, uint64_t request){
    RANKSCOPE_EVENT(c.builder->isendComplete(c.loc, c.ns(time), request))}

OTF2_CallbackCode onIrecvRequest(RANKSCOPE_ARGS, uint64_t request){
    RANKSCOPE_EVENT(c.builder->irecvRequest(c.loc, c.ns(time), request))}

OTF2_CallbackCode onRequestTest(RANKSCOPE_ARGS, uint64_t request){
    RANKSCOPE_EVENT(c.builder->requestTest(c.loc, c.ns(time), request))}

OTF2_CallbackCode onRequestCancelled(RANKSCOPE_ARGS, uint64_t request){
    RANKSCOPE_EVENT(c.builder->requestCancelled(c.loc, c.ns(time), request))}

OTF2_CallbackCode onCollectiveBegin(RANKSCOPE_ARGS){
    RANKSCOPE_EVENT(c.builder->collectiveBegin(c.loc, c.ns(time)))}

OTF2_CallbackCode onCollectiveEnd(RANKSCOPE_ARGS, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                  uint32_t root, uint64_t sent, uint64_t received){RANKSCOPE_EVENT({
    const CommId id = c.comm(comm);
    if (!id.valid()) [[unlikely]]
        return c.fail(position, "MPI_COLLECTIVE_END on communicator " + std::to_string(comm) +
                                    ", which is not a defined MPI communicator");
    // Inter-communicator markers (MPI_ROOT, MPI_PROC_NULL) carry no rank.
    if (root == OTF2_COLLECTIVE_ROOT_SELF || root == OTF2_COLLECTIVE_ROOT_THIS_GROUP)
        root = kNoRoot;
    if (root != kNoRoot && !c.inComm(id, root)) [[unlikely]]
        return c.fail(position, "MPI_COLLECTIVE_END: " + badPartner("root", root, comm, id, c));
    const CollectiveOp modelOp = op <= OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE
                                     ? static_cast<CollectiveOp>(op)
                                     : CollectiveOp::Other;
    c.builder->collectiveEnd(c.loc, c.ns(time), modelOp, id, root, sent, received);
})}

OTF2_CallbackCode onProgramBegin(RANKSCOPE_ARGS, OTF2_StringRef name, uint32_t,
                                 const OTF2_StringRef*){RANKSCOPE_EVENT({
    const auto& strings = c.tables->strings;
    const StringId id = name < strings.size() ? strings[name] : StringId();
    c.builder->misc(c.loc, c.ns(time), MiscEvent{MiscKind::ProgramBegin, id.value, 0});
})}

OTF2_CallbackCode onProgramEnd(RANKSCOPE_ARGS, int64_t status){
    RANKSCOPE_EVENT(c.builder->misc(c.loc, c.ns(time), MiscEvent{MiscKind::ProgramEnd, 0, status}))}

OTF2_CallbackCode onMeasurementOnOff(RANKSCOPE_ARGS, OTF2_MeasurementMode mode)
{
    RANKSCOPE_EVENT({
        const MiscKind kind =
            mode == OTF2_MEASUREMENT_ON ? MiscKind::MeasurementOn : MiscKind::MeasurementOff;
        c.builder->misc(c.loc, c.ns(time), MiscEvent{kind, 0, 0});
    })
}

template <MiscKind Kind>
OTF2_CallbackCode onComm(RANKSCOPE_ARGS, OTF2_CommRef comm){RANKSCOPE_EVENT({
    if (comm >= c.commCount) [[unlikely]]
        return c.fail(position, "refers to undefined communicator " + std::to_string(comm));
    c.builder->misc(c.loc, c.ns(time), MiscEvent{Kind, c.comms[comm].value, 0});
})}

// A metric record: K values of the members its class (or instance) defines, in that order.
OTF2_CallbackCode onMetric(RANKSCOPE_ARGS, OTF2_MetricRef metric, uint8_t count, const OTF2_Type*,
                           const OTF2_MetricValue* values)
{
    RANKSCOPE_EVENT({
        const auto& table = c.tables->metrics;
        if (metric >= table.size() || table[metric].empty()) [[unlikely]]
            return c.fail(position, "METRIC refers to undefined metric " + std::to_string(metric));
        const std::vector<MetricId>& ids = table[metric];
        if (count != ids.size() || (count > 0 && !values)) [[unlikely]]
            return c.fail(position, "METRIC " + std::to_string(metric) + " has " +
                                        std::to_string(count) +
                                        " values where its definition has " +
                                        std::to_string(ids.size()) + " members");
        uint64_t raw[256];
        for (uint8_t i = 0; i < count; ++i)
            raw[i] = values[i].unsigned_int; // the union's bits; the member says how to read them
        c.builder->metric(c.loc, c.ns(time), ids.data(), raw, count);
    })
}

// Every other record type: one instantiation per OTF2 callback signature, so that the record
// name is a compile-time index and the payload is ignored.
template <uint32_t Index, class Callback> struct OtherRecordCallback;

template <uint32_t Index, class... Payload>
struct OtherRecordCallback<Index, OTF2_CallbackCode (*)(OTF2_LocationRef, OTF2_TimeStamp, uint64_t,
                                                        void*, OTF2_AttributeList*, Payload...)>
{
    static OTF2_CallbackCode call(RANKSCOPE_ARGS, Payload...)
    {
        RANKSCOPE_EVENT({
            const MiscEvent e{MiscKind::Other, c.tables->recordNames[Index].value, 0};
            c.builder->misc(c.loc, c.ns(time), e);
        })
    }
};

// A record of a type OTF2 does not know comes from a newer OTF2 (kept as "UNKNOWN"), or, when
// the archive was written by an OTF2 whose every record type we know, it is a damaged record:
// one changed type byte, and an Enter or a Leave is lost without a word from OTF2.
OTF2_CallbackCode onUnknown(RANKSCOPE_ARGS)
{
    RANKSCOPE_EVENT({
        if (c.tables->knowsEveryRecordType)
            return c.fail(position, "a record of unknown type, though OTF2 " +
                                        c.tables->writerVersion +
                                        " wrote the archive: a damaged record");
        const MiscEvent e{MiscKind::Other, c.tables->recordNames[kRecordUnknown].value, 0};
        c.builder->misc(c.loc, c.ns(time), e);
    })
}

#undef RANKSCOPE_ARGS
#undef RANKSCOPE_EVENT
#undef RANKSCOPE_CTX

using CallbacksPtr = std::unique_ptr<OTF2_EvtReaderCallbacks, void (*)(OTF2_EvtReaderCallbacks*)>;

CallbacksPtr makeCallbacks()
{
    CallbacksPtr cb(OTF2_EvtReaderCallbacks_New(), OTF2_EvtReaderCallbacks_Delete);
    OTF2_EvtReaderCallbacks* p = cb.get();
    OTF2_EvtReaderCallbacks_SetEnterCallback(p, onEnter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(p, onLeave);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(p, onSend);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(p, onIsend);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(p, onIsendComplete);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(p, onIrecvRequest);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(p, onRecv);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(p, onIrecv);
    OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(p, onRequestTest);
    OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(p, onRequestCancelled);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(p, onCollectiveBegin);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(p, onCollectiveEnd);
    OTF2_EvtReaderCallbacks_SetProgramBeginCallback(p, onProgramBegin);
    OTF2_EvtReaderCallbacks_SetProgramEndCallback(p, onProgramEnd);
    OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(p, onMeasurementOnOff);
    OTF2_EvtReaderCallbacks_SetCommCreateCallback(p, onComm<MiscKind::CommCreate>);
    OTF2_EvtReaderCallbacks_SetCommDestroyCallback(p, onComm<MiscKind::CommDestroy>);
    OTF2_EvtReaderCallbacks_SetMetricCallback(p, onMetric);
#define RANKSCOPE_SET(name, text)                                                                  \
    OTF2_EvtReaderCallbacks_Set##name##Callback(                                                   \
        p, OtherRecordCallback<kRecord##name, OTF2_EvtReaderCallback_##name>::call);
    RANKSCOPE_OTHER_RECORDS(RANKSCOPE_SET)
#undef RANKSCOPE_SET
    OTF2_EvtReaderCallbacks_SetUnknownCallback(p, onUnknown);
    return cb;
}

} // namespace

void Otf2EventReader::internRecordNames(TraceBuilder& builder, Otf2Tables& tables)
{
    tables.recordNames.clear();
    for (const char* name : kOtherRecordNames)
        tables.recordNames.push_back(builder.intern(name));
}

Otf2EventReader::Otf2EventReader(const Otf2Tables& tables, TraceBuilder& builder, bool allowPartial,
                                 std::atomic<uint64_t>& eventsDone,
                                 const std::atomic<bool>& cancelled)
    : tables_(tables), builder_(builder), allowPartial_(allowPartial), eventsDone_(eventsDone),
      cancelled_(cancelled)
{
}

void Otf2EventReader::damaged(const std::string& message)
{
    if (!allowPartial_) throw TraceError(message);
    warnings_.push_back(message);
    warningPositions_.push_back(position_);
}

void Otf2EventReader::read(OTF2_Reader* reader, const std::vector<size_t>& which,
                           const std::function<void()>& afterChunk)
{
    std::vector<size_t> order(which.size());
    for (size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::atomic<size_t> next{0};
    readShared(reader, which, order, next, afterChunk);
}

void Otf2EventReader::readShared(OTF2_Reader* reader, const std::vector<size_t>& which,
                                 const std::vector<size_t>& order, std::atomic<size_t>& next,
                                 const std::function<void()>& afterChunk)
{
    otf2read::installErrorCapture();
    for (size_t i : which)
        if (OTF2_Reader_SelectLocation(reader, tables_.locations[i].otf2Id) != OTF2_SUCCESS)
            throw TraceError(tables_.globalDefFile() + ": cannot select location " +
                             std::to_string(tables_.locations[i].otf2Id));
    // As in OTF2's own reader example, both file kinds open; each location's local definitions
    // (mapping tables, clock offsets) are read just before its events, since OTF2 only needs
    // them before the location's event reader is created.
    OTF2_ErrorCode rc = OTF2_Reader_OpenEvtFiles(reader);
    if (rc != OTF2_SUCCESS)
        throw TraceError(tables_.archiveDir + "/" + tables_.archiveName +
                         ": cannot open the event files: " + otf2read::errorText(rc));
    rc = OTF2_Reader_OpenDefFiles(reader);
    if (rc != OTF2_SUCCESS)
        throw TraceError(tables_.archiveDir + "/" + tables_.archiveName +
                         ": cannot open the local definition files: " + otf2read::errorText(rc));
    while (!cancelled_.load(std::memory_order_relaxed)) {
        const size_t k = next.fetch_add(1, std::memory_order_relaxed);
        if (k >= order.size()) break;
        position_ = order[k];
        const Otf2Tables::LocationEntry& loc = tables_.locations[which[position_]];
        bool ok = true;
        readLocalDefinitions(reader, loc, ok);
        if (ok) readLocation(reader, loc, afterChunk);
    }
    OTF2_Reader_CloseDefFiles(reader);
    OTF2_Reader_CloseEvtFiles(reader);
}

void Otf2EventReader::readLocalDefinitions(OTF2_Reader* reader,
                                           const Otf2Tables::LocationEntry& loc, bool& usable)
{
    const std::string file = tables_.locationFile(loc.otf2Id, ".def");
    // A location without local definitions is legal OTF2 (nothing to map), but Score-P writes
    // one for every location; OTF2 silently treats a missing one as empty, so check ourselves.
    std::string what;
    switch (otf2read::fileKind(file, &what)) {
    case otf2read::FileKind::Missing:
        usable = false;
        damaged(file + ": missing local definitions of location " + std::to_string(loc.otf2Id) +
                (allowPartial_ ? "; its events were not read" : ""));
        return;
    case otf2read::FileKind::Other:
        usable = false;
        damaged(file + ": refused: " + what +
                ", not a regular file (the local definitions of "
                "location " +
                std::to_string(loc.otf2Id) + ")" +
                (allowPartial_ ? "; its events were not read" : ""));
        return;
    case otf2read::FileKind::Regular:
        break;
    }
    otf2read::clearCapturedError();
    OTF2_DefReader* defReader = OTF2_Reader_GetDefReader(reader, loc.otf2Id);
    if (!defReader) {
        usable = false;
        damaged(file + ": cannot open the local definitions of location " +
                std::to_string(loc.otf2Id) + (allowPartial_ ? "; its events were not read" : ""));
        return;
    }
    uint64_t count = 0;
    const OTF2_ErrorCode rc = OTF2_Reader_ReadAllLocalDefinitions(reader, defReader, &count);
    OTF2_Reader_CloseDefReader(reader, defReader);
    if (rc != OTF2_SUCCESS) {
        usable = false;
        damaged(file + ": cannot read the local definitions of location " +
                std::to_string(loc.otf2Id) + " after " + std::to_string(count) + " records: " +
                otf2read::errorText(rc) + (allowPartial_ ? "; its events were not read" : ""));
    }
}

void Otf2EventReader::readLocation(OTF2_Reader* reader, const Otf2Tables::LocationEntry& loc,
                                   const std::function<void()>& afterChunk)
{
    const std::string file = tables_.locationFile(loc.otf2Id, ".evt");
    std::string what;
    switch (otf2read::fileKind(file, &what)) {
    case otf2read::FileKind::Missing:
        if (loc.eventCount > 0)
            damaged(file + ": missing event file of location " + std::to_string(loc.otf2Id) +
                    " (the definitions promise " + std::to_string(loc.eventCount) + " events)");
        return;
    case otf2read::FileKind::Other:
        // Even with no events promised: OTF2 would open it and block on a FIFO or read a
        // device without end.
        damaged(file + ": refused: " + what + ", not a regular file (the event file of " +
                "location " + std::to_string(loc.otf2Id) + ")" +
                (allowPartial_ ? "; its events were not read" : ""));
        return;
    case otf2read::FileKind::Regular:
        break;
    }
    std::error_code ec;
    const auto fileSize = std::filesystem::file_size(file, ec);
    if (ec) {
        damaged(file + ": cannot read the event file of location " + std::to_string(loc.otf2Id) +
                ": " + ec.message());
        return;
    }
    // Every event takes at least a byte, so corrupt event counts cannot make us over-allocate.
    builder_.reserveEvents(loc.id,
                           static_cast<size_t>(std::min<uint64_t>(loc.eventCount, fileSize)));

    otf2read::clearCapturedError();
    OTF2_EvtReader* evtReader = OTF2_Reader_GetEvtReader(reader, loc.otf2Id);
    if (!evtReader) {
        damaged(file + ": cannot open the events of location " + std::to_string(loc.otf2Id) + ": " +
                otf2read::errorText(OTF2_ERROR_FILE_CAN_NOT_OPEN));
        return;
    }
    EventContext ctx;
    ctx.builder = &builder_;
    ctx.loc = loc.id;
    ctx.clock = tables_.clock;
    ctx.regions = tables_.regions.data();
    ctx.regionCount = tables_.regions.size();
    ctx.comms = tables_.comms.data();
    ctx.commCount = tables_.comms.size();
    ctx.commSizes = tables_.commSizes.data();
    ctx.tables = &tables_;
    // Without SourceCodeLocation definitions no attribute can refer to one: skip the lookup.
    if (!tables_.sourceLocations.empty()) ctx.sclAttribute = tables_.sourceLocationAttribute;
    ctx.contentionAttribute = tables_.contentionAttribute;

    static const CallbacksPtr callbacks = makeCallbacks(); // read-only after construction
    OTF2_Reader_RegisterEvtCallbacks(reader, evtReader, callbacks.get(), &ctx);

    uint64_t total = 0;
    for (;;) {
        if (cancelled_.load(std::memory_order_relaxed)) break;
        uint64_t got = 0;
        const OTF2_ErrorCode rc =
            OTF2_Reader_ReadLocalEvents(reader, evtReader, kChunkEvents, &got);
        total += got;
        eventsDone_.fetch_add(got, std::memory_order_relaxed);
        if (rc == OTF2_ERROR_INTERRUPTED_BY_CALLBACK || !ctx.error.empty()) {
            // A callback refused an event: inconsistent data, or a builder error. OTF2 counts
            // the refused record as read.
            OTF2_Reader_CloseEvtReader(reader, evtReader);
            const uint64_t kept = total > 0 ? total - 1 : 0;
            damaged(file + ": location " + std::to_string(loc.otf2Id) + ", " + ctx.error +
                    (allowPartial_ ? "; kept the " + std::to_string(kept) + " events before it"
                                   : std::string()));
            return;
        }
        if (rc != OTF2_SUCCESS) {
            const std::string text = otf2read::errorText(rc);
            OTF2_Reader_CloseEvtReader(reader, evtReader);
            damaged(file + ": location " + std::to_string(loc.otf2Id) +
                    ": cannot read beyond event " + std::to_string(total) + " of " +
                    std::to_string(loc.eventCount) + " (truncated or corrupt file): " + text +
                    (allowPartial_ ? "; kept the " + std::to_string(total) + " events before it"
                                   : std::string()));
            return;
        }
        if (afterChunk) afterChunk();
        if (got < kChunkEvents) break;
    }
    OTF2_Reader_CloseEvtReader(reader, evtReader);
    // The clock properties say how long the trace lasts; events far outside that (a damaged
    // clock offset in the local definitions, a damaged timestamp) would make every duration
    // and wait of the trace wrong. Tolerance: 1 % of the length and 1 us.
    const int64_t length = tables_.traceLengthNs;
    const int64_t slack = length / 100 + 1000;
    if (length > 0 && ctx.any && (ctx.firstNs < -slack || ctx.lastNs > length + slack)) {
        const auto seconds = [](int64_t ns) { return std::to_string(double(ns) / 1e9) + " s"; };
        damaged(file + ": location " + std::to_string(loc.otf2Id) + " has events from " +
                seconds(ctx.firstNs) + " to " + seconds(ctx.lastNs) +
                ", outside the trace's clock range (0 to " + seconds(length) +
                ", from the global clock properties): a clock offset or timestamp is damaged" +
                (allowPartial_ ? "; kept as read" : ""));
    }
    if (!cancelled_.load(std::memory_order_relaxed) && total < loc.eventCount)
        damaged(file + ": location " + std::to_string(loc.otf2Id) + " ends after " +
                std::to_string(total) + " of the " + std::to_string(loc.eventCount) +
                " events its definitions promise (truncated file)" +
                (allowPartial_ ? "; kept the events read" : ""));
}

} // namespace rankscope
