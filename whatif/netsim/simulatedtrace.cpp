#include "whatif/netsim/simulatedtrace.h"

#include "model/trace/tracebuilder.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace rankscope::netsim {

namespace {

/// Old -> new times of one rank, from the anchors (placed events) of its main location.
class TimeMap
{
public:
    TimeMap(const EventStream& main, const std::vector<ActionAnchor>& anchors,
            const std::vector<double>& times, double cpuFactor)
        : cpu_(cpuFactor)
    {
        for (const ActionAnchor& a : anchors) {
            oldT_.push_back(main.time(a.event));
            newT_.push_back(std::llround(times[a.action]));
        }
        // Placed times are non-decreasing in action order; make sure of it all the same.
        for (size_t i = 1; i < newT_.size(); ++i)
            newT_[i] = std::max(newT_[i], newT_[i - 1]);
    }
    int64_t map(int64_t t) const
    {
        const auto it = std::upper_bound(oldT_.begin(), oldT_.end(), t);
        if (it == oldT_.begin()) return t; // before the first MPI call: nothing moved yet
        const size_t i = size_t(it - oldT_.begin()) - 1;
        int64_t v = newT_[i] + std::llround(double(t - oldT_[i]) * cpu_);
        if (i + 1 < newT_.size()) v = std::min(v, newT_[i + 1]);
        return v;
    }

private:
    std::vector<int64_t> oldT_, newT_;
    double cpu_;
};

} // namespace

std::string simulationParameters(const NetworkSpec& spec, const SimulationOptions& options)
{
    std::string s = "spec=" + spec.source + " model=" + options.model;
    for (const SpecOverride& o : spec.overrides)
        s += " set:" + o.key + "=" + o.value;
    for (const auto& [op, alg] : options.collectiveAlgorithms)
        s += " collective:" + op + "=" + alg;
    s += " cpu_factor=" + std::to_string(options.cpuFactor);
    if (options.eagerLimit) s += " eager_limit=" + std::to_string(*options.eagerLimit);
    return s;
}

Trace simulatedTrace(const Trace& input, const ActionProgram& /*program*/,
                     const std::vector<std::vector<ActionAnchor>>& anchors,
                     const std::vector<double>& actionTimes, const SimulatedProvenance& provenance)
{
    TraceBuilder b;
    // Interning every string in order keeps string ids, so misc events and names carry over.
    for (size_t i = 0; i < input.strings().size(); ++i)
        b.intern(input.str(StringId(uint32_t(i))));
    b.setClock(input.clock());
    b.setProvenance(Provenance{"simulated", input.provenance().source,
                               "input=" + input.provenance().kind + " " +
                                   simulationParameters(provenance.spec, provenance.options)});
    for (const Region& r : input.regions())
        b.addRegion(r);
    for (const Rank& r : input.ranks())
        b.addRank(r.name);
    for (const Location& l : input.locations())
        b.addLocation(l.rank, l.name, l.type, l.otf2Id);
    for (const Communicator& c : input.communicators())
        b.addCommunicator(c.name, c.members, c.parent);
    if (input.worldCommunicator().valid()) b.setWorldCommunicator(input.worldCommunicator());

    // Partners and roots go back to communicator ranks, as the builder expects them.
    std::unordered_map<uint32_t, std::unordered_map<uint32_t, uint32_t>> commRank;
    auto inComm = [&](CommId comm, RankId world) -> uint32_t {
        auto [it, added] = commRank.try_emplace(comm.value);
        if (added) {
            const auto& members = input.communicator(comm).members;
            for (uint32_t i = 0; i < members.size(); ++i)
                it->second[members[i].value] = i;
        }
        const auto f = it->second.find(world.value);
        return f == it->second.end() ? world.value : f->second;
    };
    std::unordered_map<uint64_t, uint32_t> memberAt; // (location, end event) -> member
    for (uint32_t i = 0; i < input.collectiveMembers().size(); ++i) {
        const CollectiveMember& m = input.collectiveMembers()[i];
        memberAt[(uint64_t(m.location.value) << 32) | m.endEvent] = i;
    }

    const double cpu = provenance.options.cpuFactor;
    const NetworkFigures* network = provenance.network;
    for (uint32_t li = 0; li < input.locations().size(); ++li) {
        const LocationId loc(li);
        const RankId rank = input.rankOf(loc);
        const EventStream& ev = input.events(loc);
        const EventStream& main = input.rankEvents(rank);
        const TimeMap map(main, anchors[rank.value], actionTimes, cpu);
        // On the main location the anchors give exact times for the placed events.
        std::vector<int64_t> placed;
        if (input.rank(rank).mainLocation == loc) {
            placed.assign(ev.size(), -1);
            for (const ActionAnchor& a : anchors[rank.value])
                placed[a.event] = std::llround(actionTimes[a.action]);
        }
        b.reserveEvents(loc, ev.size());
        int64_t last = INT64_MIN;
        size_t nextSource = 0;
        const auto& sources = ev.sourceLocations();
        for (uint32_t i = 0; i < ev.size(); ++i) {
            int64_t t = !placed.empty() && placed[i] >= 0 ? placed[i] : map.map(ev.time(i));
            t = std::max(t, last);
            last = t;
            const uint32_t ref = ev.ref(i);
            switch (ev.kind(i)) {
            case EventKind::Enter:
                b.enter(loc, t, RegionId(ref));
                break;
            case EventKind::Leave:
                b.leave(loc, t, RegionId(ref));
                break;
            case EventKind::MpiSend:
            case EventKind::MpiIsend: {
                const Message& m = input.message(MessageId(ref));
                const uint32_t to = inComm(m.comm, input.messageReceiver(m));
                if (ev.kind(i) == EventKind::MpiSend)
                    b.send(loc, t, to, m.comm, m.tag, m.bytes);
                else
                    b.isend(loc, t, to, m.comm, m.tag, m.bytes, ref);
                break;
            }
            case EventKind::MpiRecv:
            case EventKind::MpiIrecv: {
                const Message& m = input.message(MessageId(ref));
                const uint32_t from = inComm(m.comm, input.messageSender(m));
                if (ev.kind(i) == EventKind::MpiRecv)
                    b.recv(loc, t, from, m.comm, m.tag, m.bytes);
                else
                    b.irecv(loc, t, from, m.comm, m.tag, m.bytes, ref);
                // On the receive: it follows the message whatever id the matching gives it.
                if (network && ref < network->messages.size() && m.matched())
                    b.attachMessageContention(loc,
                                              std::llround(network->messages[ref].contentionNs));
                break;
            }
            case EventKind::MpiIsendComplete:
                b.isendComplete(loc, t, ref);
                break;
            case EventKind::MpiIrecvRequest:
                b.irecvRequest(loc, t, ref);
                break;
            case EventKind::MpiRequestTest:
                b.requestTest(loc, t, ref);
                break;
            case EventKind::MpiRequestCancelled:
                b.requestCancelled(loc, t, ref);
                break;
            case EventKind::MpiCollectiveBegin:
                b.collectiveBegin(loc, t);
                break;
            case EventKind::MpiCollectiveEnd: {
                const CollectiveInstance& c = input.collective(CollectiveId(ref));
                const auto it = memberAt.find((uint64_t(li) << 32) | i);
                const CollectiveMember* m =
                    it == memberAt.end() ? nullptr : &input.collectiveMembers()[it->second];
                b.collectiveEnd(loc, t, c.op, c.comm,
                                c.root.valid() ? inComm(c.comm, c.root) : kNoRoot,
                                m ? m->bytesSent : 0, m ? m->bytesReceived : 0);
                break;
            }
            case EventKind::Misc:
                b.misc(loc, t, input.miscEvents()[ref]);
                break;
            }
            while (nextSource < sources.size() && sources[nextSource].first < i)
                ++nextSource;
            if (nextSource < sources.size() && sources[nextSource].first == i)
                b.attachSourceLocation(loc, sources[nextSource].second);
        }
    }
    return b.finish();
}

} // namespace rankscope::netsim
