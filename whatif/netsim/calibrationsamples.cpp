#include "whatif/netsim/calibrationsamples.h"

#include "model/matching/mpicallscanner.h"
#include "model/trace/mpilifecycle.h"

#include <algorithm>
#include <climits>

namespace rankscope::netsim {

namespace {

constexpr int64_t kUnset = INT64_MIN;

/// Per message: when the call that posted its send started.
struct MessageCalls
{
    int64_t sendEnter = kUnset;
    int64_t recvPosted = kUnset; // enter of the call that posted the receive
};

} // namespace

CalibrationSamples collectCalibrationSamples(const Trace& trace, uint64_t eagerLimit)
{
    CalibrationSamples out;
    const auto& messages = trace.messages();
    std::vector<MessageCalls> calls(messages.size());
    const MpiLifecycle life = MpiLifecycle::of(trace);
    std::vector<CallPayload> payload;
    // Completing calls, remembered until every send time is known.
    struct Completion
    {
        std::vector<uint32_t> received;
        int64_t enter, leave;
        bool blocking;
        uint32_t rank;
    };
    std::vector<Completion> completions;
    struct BlockingSend
    {
        uint32_t message;
        int64_t enter, leave;
    };
    std::vector<BlockingSend> blockingSends;
    for (uint32_t r = 0; r < trace.rankCount(); ++r) {
        MpiCallScanner scanner(trace, RankId(r));
        CallRecord call;
        payload.clear();
        bool inSpan = life.init.empty();
        while (scanner.next(call, &payload)) {
            if (!inSpan || life.isFinalize(call.region) || !call.closed) {
                inSpan = inSpan || life.isInit(call.region);
                payload.clear();
                continue;
            }
            Completion done{{}, call.enterTime, call.leaveTime, false, r};
            uint32_t sends = 0, other = 0;
            uint64_t sendBytes = 0;
            for (uint32_t i = 0; i < call.payloadCount; ++i) {
                const CallPayload& e = payload[call.firstPayload + i];
                if (e.ref >= messages.size() && isPointToPoint(e.kind)) continue;
                switch (e.kind) {
                case EventKind::MpiSend:
                case EventKind::MpiIsend:
                    calls[e.ref].sendEnter = call.enterTime;
                    sendBytes = messages[e.ref].bytes;
                    ++sends;
                    break;
                case EventKind::MpiIrecvRequest:
                    calls[e.ref].recvPosted = call.enterTime;
                    ++other;
                    break;
                case EventKind::MpiRecv:
                case EventKind::MpiIrecv:
                    if (e.kind == EventKind::MpiRecv || calls[e.ref].recvPosted == kUnset)
                        calls[e.ref].recvPosted = call.enterTime;
                    done.received.push_back(e.ref);
                    done.blocking = e.kind == EventKind::MpiRecv;
                    break;
                case EventKind::MpiIsendComplete:
                    break; // completes locally when eager
                default:
                    ++other;
                    break;
                }
            }
            if (sends == 1 && other == 0 && done.received.empty() && sendBytes <= eagerLimit)
                out.eagerSendNs.push_back(double(call.duration()));
            if (sends == 1 && other == 0 && done.received.empty() &&
                payload[call.firstPayload].kind == EventKind::MpiSend)
                blockingSends.push_back(
                    {payload[call.firstPayload].ref, call.enterTime, call.leaveTime});
            if (!done.received.empty() && other == 0) {
                done.blocking = done.blocking && done.received.size() == 1;
                completions.push_back(std::move(done));
            }
            payload.clear();
        }
    }
    for (const Completion& c : completions) {
        CompletionSample sample{
            c.rank, double(c.enter), double(c.leave), c.blocking, uint32_t(out.received.size()), 0};
        bool known = true;
        for (uint32_t m : c.received) {
            const Message& msg = messages[m];
            known = known && calls[m].sendEnter != kUnset && msg.sendLocation.valid() &&
                    msg.recvLocation.valid();
            if (!known) break;
            out.received.push_back(ReceivedMessage{trace.messageSender(msg).value, msg.bytes,
                                                   double(calls[m].sendEnter),
                                                   double(calls[m].recvPosted)});
        }
        if (!known) {
            out.received.resize(sample.first);
            continue;
        }
        sample.count = uint32_t(out.received.size()) - sample.first;
        out.completions.push_back(sample);
    }
    for (const BlockingSend& b : blockingSends) {
        const Message& msg = messages[b.message];
        if (!msg.recvLocation.valid() || calls[b.message].recvPosted == kUnset) continue;
        const bool ready = calls[b.message].recvPosted <= b.enter;
        out.blockingSends.push_back(
            BlockingSendSample{trace.messageSender(msg).value, trace.messageReceiver(msg).value,
                               msg.bytes, double(b.leave - b.enter), double(b.enter),
                               double(calls[b.message].recvPosted - b.enter)});
        if (!ready || msg.bytes <= eagerLimit) continue;
        out.rendezvousSends.push_back(RendezvousSendSample{trace.messageSender(msg).value,
                                                           trace.messageReceiver(msg).value,
                                                           msg.bytes, double(b.leave - b.enter)});
    }
    for (const CollectiveInstance& c : trace.collectives()) {
        if (c.op != CollectiveOp::Barrier || !c.complete || c.memberCount < 2) continue;
        int64_t lastEnter = INT64_MIN, lastLeave = INT64_MIN;
        bool inSpan = true;
        for (uint32_t k = 0; k < c.memberCount; ++k) {
            const CollectiveMember& m = trace.collectiveMembers()[c.firstMember + k];
            const EventStream& ev = trace.events(m.location);
            // The call's Enter precedes the collective begin, its Leave follows the end.
            const int64_t enter = ev.time(m.beginEvent), leave = ev.time(m.endEvent);
            lastEnter = std::max(lastEnter, enter);
            lastLeave = std::max(lastLeave, leave);
            inSpan = inSpan && m.beginEvent > 0;
        }
        if (!inSpan || lastLeave < lastEnter) continue;
        const auto& members = trace.communicator(c.comm).members;
        if (members.size() < 2) continue;
        out.barriers.push_back(BarrierSample{c.memberCount, members[0].value, members[1].value,
                                             double(lastLeave - lastEnter)});
    }
    return out;
}

} // namespace rankscope::netsim
