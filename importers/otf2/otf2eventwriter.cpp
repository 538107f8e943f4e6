#include "importers/otf2/otf2eventwriter.h"

#include "importers/otf2/otf2writeerror.h"

#include <algorithm>
#include <otf2/OTF2_AttributeList.h>
#include <otf2/OTF2_Events.h>

namespace rankscope {

Otf2EventWriter::Otf2EventWriter(const Trace& trace, const std::vector<uint64_t>& locationIds,
                                 std::string path)
    : trace_(trace), locationIds_(locationIds), path_(std::move(path)),
      eventCounts_(trace.locations().size(), 0), commRanks_(trace.communicators().size()),
      commCreateDestroy_(trace.communicators().size(), false)
{
    for (uint32_t l = 0; l < trace.locations().size() && !hasSources_; ++l)
        hasSources_ = !trace.events(LocationId(l)).sourceLocations().empty();
}

void Otf2EventWriter::check(OTF2_ErrorCode code, LocationId loc, size_t i) const
{
    if (code != OTF2_SUCCESS)
        checkOtf2Write(code, path_,
                       "location " + std::to_string(locationIds_[loc.value]) + ", event " +
                           std::to_string(i));
}

uint32_t Otf2EventWriter::commRank(CommId comm, RankId rank)
{
    const Communicator& c = trace_.communicator(comm);
    if (c.members.empty()) // a self communicator: its one member is rank 0
        return 0;
    auto& table = commRanks_[comm.value];
    if (table.empty()) {
        table.assign(trace_.rankCount(), UINT32_MAX);
        for (uint32_t i = 0; i < c.members.size(); ++i)
            if (c.members[i].value < table.size() && table[c.members[i].value] == UINT32_MAX)
                table[c.members[i].value] = i;
    }
    return rank.value < table.size() ? table[rank.value] : UINT32_MAX;
}

uint32_t Otf2EventWriter::sourceLocationRef(const SourceLocation& s)
{
    const uint64_t key = (uint64_t(s.file.value) << 32) | s.line;
    auto [it, added] = sourceLocationRefs_.emplace(key, uint32_t(sourceLocations_.size()));
    if (added) sourceLocations_.push_back(s);
    return it->second;
}

bool Otf2EventWriter::writeEvent(OTF2_EvtWriter* w, OTF2_AttributeList* attrs, LocationId loc,
                                 size_t i)
{
    const EventStream& es = trace_.events(loc);
    const auto time = static_cast<uint64_t>(trace_.clock().offsetNs + es.time(i));
    OTF2_ErrorCode code = OTF2_SUCCESS;
    switch (es.kind(i)) {
    case EventKind::Enter:
        code = OTF2_EvtWriter_Enter(w, attrs, time, es.ref(i));
        break;
    case EventKind::Leave:
        code = OTF2_EvtWriter_Leave(w, attrs, time, es.ref(i));
        break;
    case EventKind::MpiCollectiveBegin:
        code = OTF2_EvtWriter_MpiCollectiveBegin(w, attrs, time);
        break;
    case EventKind::MpiCollectiveEnd:
        return writeCollectiveEnd(w, attrs, loc, i, time);
    case EventKind::Misc:
        if (!writeMisc(w, attrs, es.ref(i), time)) return false;
        break;
    default:
        return writeP2P(w, attrs, loc, i, time);
    }
    check(code, loc, i);
    return true;
}

bool Otf2EventWriter::writeP2P(OTF2_EvtWriter* w, OTF2_AttributeList* attrs, LocationId loc,
                               size_t i, uint64_t time)
{
    const EventStream& es = trace_.events(loc);
    const EventKind kind = es.kind(i);
    const MessageId id = es.message(i);
    OTF2_ErrorCode code = OTF2_SUCCESS;

    if (!id.valid()) {
        // A request the model could not link to any message: keep posting and completion
        // paired on this location through fresh ids (the latest posted one is the best guess).
        uint64_t request = 0;
        if (kind == EventKind::MpiIrecvRequest) {
            request = freshRequest();
            unlinkedRequests_.push_back(request);
        } else if (!unlinkedRequests_.empty() && kind != EventKind::MpiIsendComplete) {
            request = unlinkedRequests_.back();
            if (kind == EventKind::MpiRequestCancelled) unlinkedRequests_.pop_back();
        } else {
            request = freshRequest(); // a completion of a request never posted: stays orphan
        }
        switch (kind) {
        case EventKind::MpiIrecvRequest:
            code = OTF2_EvtWriter_MpiIrecvRequest(w, attrs, time, request);
            break;
        case EventKind::MpiIsendComplete:
            code = OTF2_EvtWriter_MpiIsendComplete(w, attrs, time, request);
            break;
        case EventKind::MpiRequestTest:
            code = OTF2_EvtWriter_MpiRequestTest(w, attrs, time, request);
            break;
        case EventKind::MpiRequestCancelled:
            code = OTF2_EvtWriter_MpiRequestCancelled(w, attrs, time, request);
            break;
        default:
            ++skippedUnmatched_;
            return false; // a send or receive always has a message
        }
        check(code, loc, i);
        return true;
    }

    const Message& m = trace_.message(id);
    const uint64_t sendRequest = 2 * uint64_t(id.value) + 1;
    const uint64_t recvRequest = sendRequest + 1;
    // Which side of the message this location is (both for a message to itself).
    const bool isSender = m.sendLocation == loc;
    const bool isReceiver = m.recvLocation == loc;
    const auto tag = static_cast<uint32_t>(m.tag);

    // Unmatched messages keep the partner's world rank too, so they are written like the rest.
    auto partnerRank = [&](RankId other) { return commRank(m.comm, other); };
    switch (kind) {
    case EventKind::MpiSend:
    case EventKind::MpiIsend: {
        const uint32_t receiver = partnerRank(trace_.messageReceiver(m));
        if (receiver == UINT32_MAX) {
            ++skippedOutsider_;
            return false;
        }
        code = kind == EventKind::MpiSend
                   ? OTF2_EvtWriter_MpiSend(w, attrs, time, receiver, m.comm.value, tag, m.bytes)
                   : OTF2_EvtWriter_MpiIsend(w, attrs, time, receiver, m.comm.value, tag, m.bytes,
                                             sendRequest);
        break;
    }
    case EventKind::MpiRecv:
    case EventKind::MpiIrecv: {
        const uint32_t sender = partnerRank(trace_.messageSender(m));
        if (sender == UINT32_MAX) {
            ++skippedOutsider_;
            return false;
        }
        if (attrs && id.value < trace_.messageContentionNs().size())
            OTF2_AttributeList_AddUint64(
                attrs, contentionAttribute(),
                uint64_t(std::max<int64_t>(0, trace_.messageContentionNs()[id.value])));
        code = kind == EventKind::MpiRecv
                   ? OTF2_EvtWriter_MpiRecv(w, attrs, time, sender, m.comm.value, tag, m.bytes)
                   : OTF2_EvtWriter_MpiIrecv(w, attrs, time, sender, m.comm.value, tag, m.bytes,
                                             recvRequest);
        break;
    }
    case EventKind::MpiIsendComplete:
        code = OTF2_EvtWriter_MpiIsendComplete(w, attrs, time, sendRequest);
        break;
    case EventKind::MpiIrecvRequest:
        code = OTF2_EvtWriter_MpiIrecvRequest(w, attrs, time, recvRequest);
        break;
    case EventKind::MpiRequestTest:
    case EventKind::MpiRequestCancelled: {
        const uint64_t request = isReceiver && !isSender ? recvRequest : sendRequest;
        code = kind == EventKind::MpiRequestTest
                   ? OTF2_EvtWriter_MpiRequestTest(w, attrs, time, request)
                   : OTF2_EvtWriter_MpiRequestCancelled(w, attrs, time, request);
        break;
    }
    default:
        return false;
    }
    check(code, loc, i);
    return true;
}

bool Otf2EventWriter::writeCollectiveEnd(OTF2_EvtWriter* w, OTF2_AttributeList* attrs,
                                         LocationId loc, size_t i, uint64_t time)
{
    const CollectiveId id = trace_.events(loc).collective(i);
    if (!id.valid()) {
        // An end without a begin: the model kept the event but not its payload.
        ++skippedStrayEnds_;
        return false;
    }
    const CollectiveInstance& c = trace_.collective(id);
    const auto& members = trace_.collectiveMembers();
    const RankId self = trace_.rankOf(loc);
    // Members are usually in communicator-rank order: try that slot before scanning.
    const uint32_t guess = commRank(c.comm, self);
    const CollectiveMember* member = nullptr;
    if (guess < c.memberCount && members[c.firstMember + guess].location == loc &&
        members[c.firstMember + guess].endEvent == i)
        member = &members[c.firstMember + guess];
    for (uint32_t k = 0; !member && k < c.memberCount; ++k)
        if (members[c.firstMember + k].location == loc && members[c.firstMember + k].endEvent == i)
            member = &members[c.firstMember + k];
    const uint32_t root = c.root.valid() ? commRank(c.comm, c.root) : OTF2_UNDEFINED_UINT32;
    const OTF2_ErrorCode code = OTF2_EvtWriter_MpiCollectiveEnd(
        w, attrs, time, static_cast<OTF2_CollectiveOp>(c.op), c.comm.value, root,
        member ? member->bytesSent : 0, member ? member->bytesReceived : 0);
    check(code, loc, i);
    return true;
}

bool Otf2EventWriter::writeMisc(OTF2_EvtWriter* w, OTF2_AttributeList* attrs, uint32_t ref,
                                uint64_t time)
{
    const MiscEvent& e = trace_.miscEvents()[ref];
    OTF2_ErrorCode code = OTF2_SUCCESS;
    switch (e.kind) {
    case MiscKind::ProgramBegin:
        code = OTF2_EvtWriter_ProgramBegin(w, attrs, time, e.detail, 0, nullptr);
        break;
    case MiscKind::ProgramEnd:
        code = OTF2_EvtWriter_ProgramEnd(w, attrs, time, e.value);
        break;
    case MiscKind::MeasurementOn:
    case MiscKind::MeasurementOff:
        code = OTF2_EvtWriter_MeasurementOnOff(
            w, attrs, time,
            e.kind == MiscKind::MeasurementOn ? OTF2_MEASUREMENT_ON : OTF2_MEASUREMENT_OFF);
        break;
    case MiscKind::CommCreate:
    case MiscKind::CommDestroy:
        if (e.detail < commCreateDestroy_.size()) commCreateDestroy_[e.detail] = true;
        code = e.kind == MiscKind::CommCreate
                   ? OTF2_EvtWriter_CommCreate(w, attrs, time, e.detail)
                   : OTF2_EvtWriter_CommDestroy(w, attrs, time, e.detail);
        break;
    case MiscKind::Other:
        ++skippedOther_;
        return false;
    }
    if (code != OTF2_SUCCESS) checkOtf2Write(code, path_, "misc event");
    return true;
}

} // namespace rankscope
