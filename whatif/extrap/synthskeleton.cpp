#include "whatif/extrap/synthskeleton.h"

#include "model/matching/mpicallscanner.h"
#include "model/trace/callsiteresolver.h"
#include "model/trace/mpilifecycle.h"
#include "model/trace/traceerror.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace rankscope::extrap::synth {

namespace {

uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h;
}

/// Count, sum and sum of squares of one interval's deltas on one rank.
struct Moments
{
    double n = 0, sum = 0, squares = 0;
    void add(double x)
    {
        n += 1;
        sum += x;
        squares += x * x;
    }
    /// Coefficient of variation (sample standard deviation / mean); 0 when undefined.
    double cv() const
    {
        if (n < 2 || sum <= 0) return 0;
        const double mean = sum / n;
        const double var = std::max(0.0, (squares - n * mean * mean) / (n - 1));
        return std::sqrt(var) / mean;
    }
};

class RankReader
{
public:
    RankReader(const Trace& trace, SkeletonContext& ctx, const MpiLifecycle& lifecycle,
               ScaleSkeleton& out)
        : trace_(trace), ctx_(ctx), lifecycle_(lifecycle), out_(out),
          regionSymbol_(trace.regions().size(), kNoSymbol)
    {
    }

    void read(RankId rank, std::map<std::string, Moments>& cvSums);

private:
    uint32_t regionSymbol(RegionId r)
    {
        uint32_t& s = regionSymbol_[r.value];
        if (s == kNoSymbol) s = ctx_.symbols.intern(trace_.regionName(r)).value;
        return s;
    }
    uint32_t stringSymbol(uint32_t id)
    {
        return id < trace_.strings().size() ? ctx_.symbols.intern(trace_.str(StringId(id))).value
                                            : kNoSymbol;
    }
    EventShape shapeOf(const EventStream& ev, uint32_t i, uint32_t callSite);
    EventShape taggedShapeOf(const EventStream& ev, uint32_t i, uint32_t callSite);
    void checkComm(CommId comm, uint32_t callSite);

    const Trace& trace_;
    SkeletonContext& ctx_;
    const MpiLifecycle& lifecycle_;
    ScaleSkeleton& out_;
    std::vector<uint32_t> regionSymbol_;
    std::unordered_map<uint32_t, uint32_t> postedAt_; // message -> event that posted its request
    std::set<std::string> reported_;                  // call sites with an issue already listed
};

void RankReader::checkComm(CommId comm, uint32_t callSite)
{
    if (!comm.valid() || comm == trace_.worldCommunicator()) return;
    // A duplicate of MPI_COMM_WORLD (MPI_Comm_dup, or a split with one colour and the rank as
    // key) holds every rank in world order: the predicted trace uses MPI_COMM_WORLD for it.
    const std::vector<RankId>& members = trace_.communicator(comm).members;
    bool world = members.size() == out_.ranks;
    for (size_t i = 0; i < members.size() && world; ++i)
        world = members[i].value == i;
    if (world) return;
    const std::string site = callSite == kNoSymbol
                                 ? std::string("(outside MPI calls)")
                                 : std::string(ctx_.symbols.name(CallSiteId(callSite)));
    if (!reported_.insert(site).second) return; // one reason per call site
    const Communicator& c = trace_.communicator(comm);
    out_.issues.push_back(
        {site,
         "uses the communicator '" + std::string(trace_.str(c.name)) + "' (" +
             std::to_string(c.members.size()) + " of " + std::to_string(out_.ranks) +
             " ranks); only MPI_COMM_WORLD can be synthesised, sub-communicators are not "
             "supported",
         true});
}

EventShape RankReader::shapeOf(const EventStream& ev, uint32_t i, uint32_t callSite)
{
    EventShape e = taggedShapeOf(ev, i, callSite);
    if (ctx_.tagsSetAside) e.tag = 0;
    return e;
}

EventShape RankReader::taggedShapeOf(const EventStream& ev, uint32_t i, uint32_t callSite)
{
    EventShape e;
    e.kind = ev.kind(i);
    const uint32_t ref = ev.ref(i);
    switch (e.kind) {
    case EventKind::Enter:
    case EventKind::Leave:
        e.symbol = regionSymbol(ev.region(i));
        break;
    case EventKind::MpiSend:
    case EventKind::MpiRecv: {
        const Message& m = trace_.message(MessageId(ref));
        e.tag = m.tag;
        checkComm(m.comm, callSite);
        break;
    }
    case EventKind::MpiIsend:
    case EventKind::MpiIrecvRequest:
        if (ref != kNoEventRef) {
            postedAt_[ref] = i;
            const Message& m = trace_.message(MessageId(ref));
            if (e.kind == EventKind::MpiIsend) e.tag = m.tag;
            checkComm(m.comm, callSite);
        }
        break;
    case EventKind::MpiIrecv:
    case EventKind::MpiIsendComplete:
    case EventKind::MpiRequestTest:
    case EventKind::MpiRequestCancelled:
        if (ref != kNoEventRef) {
            if (e.kind == EventKind::MpiIrecv) e.tag = trace_.message(MessageId(ref)).tag;
            const auto it = postedAt_.find(ref);
            if (it != postedAt_.end()) e.requestBack = i - it->second;
        }
        break;
    case EventKind::MpiCollectiveBegin:
        break;
    case EventKind::MpiCollectiveEnd: {
        const CollectiveInstance& c = trace_.collective(CollectiveId(ref));
        e.detail = uint8_t(c.op);
        e.hasRoot = c.root.valid();
        checkComm(c.comm, callSite);
        break;
    }
    case EventKind::Misc: {
        const MiscEvent& m = trace_.miscEvents()[ref];
        e.detail = uint8_t(m.kind);
        e.value = m.value;
        if (m.kind == MiscKind::ProgramBegin || m.kind == MiscKind::Other)
            e.symbol = stringSymbol(m.detail);
        if ((m.kind == MiscKind::CommCreate || m.kind == MiscKind::CommDestroy) &&
            CommId(m.detail) != trace_.worldCommunicator()) {
            // A communicator coming or going is not communication; its record has no place in
            // a trace that defines only MPI_COMM_WORLD. Communication on it is refused instead.
            e.omitted = true;
            const std::string name =
                m.detail < trace_.communicators().size()
                    ? std::string(trace_.str(trace_.communicator(CommId(m.detail)).name))
                    : std::to_string(m.detail);
            const std::string note = "the creation and destruction records of the communicator '" +
                                     name +
                                     "' are left out (the predicted trace defines only "
                                     "MPI_COMM_WORLD)";
            if (std::find(out_.notes.begin(), out_.notes.end(), note) == out_.notes.end())
                out_.notes.push_back(note);
        }
        break;
    }
    }
    return e;
}

void RankReader::read(RankId rank, std::map<std::string, Moments>& cvSums)
{
    const EventStream& ev = trace_.rankEvents(rank);
    RankSteps& steps = out_.perRank[rank.value];
    postedAt_.clear();
    CallSiteTable local;
    CallSiteResolver resolver(trace_, local);
    MpiCallScanner scanner(trace_, rank, &resolver);
    std::vector<CallRecord> calls;
    CallRecord call;
    bool callsInit = false;
    while (scanner.next(call)) {
        if (!call.closed || call.leaveEvent == kNoEvent)
            throw TraceError(out_.label + ": rank " + std::to_string(rank.value) +
                             ": an MPI call (" + std::string(trace_.regionName(call.region)) +
                             ") never ends; synthesis needs complete, well-nested traces");
        callsInit = callsInit || lifecycle_.isInit(call.region);
        calls.push_back(call);
    }

    uint32_t first = 0;
    auto addStep = [&](uint32_t end, uint32_t callBegin, uint32_t site, const CallRecord* c) {
        StepShape s;
        s.callSite = site;
        s.callBegin = callBegin - first;
        for (uint32_t i = first; i < end; ++i)
            s.events.push_back(shapeOf(ev, i, site));
        s.init = c && lifecycle_.isInit(c->region);
        s.finalize = c && lifecycle_.isFinalize(c->region);
        steps.steps.push_back(ctx_.steps.intern(std::move(s)));
        steps.firstEvent.push_back(first);
        first = end;
    };
    // Delta times of the span MPI_Init .. MPI_Finalize (as DeltaScanner defines it), for the
    // within-rank spread of each interval.
    std::map<std::pair<uint32_t, uint32_t>, Moments> moments;
    DeltaSpan span(callsInit);
    uint32_t previousSite = kNoSymbol;
    int64_t previousLeave = 0;
    for (const CallRecord& c : calls) {
        const uint32_t site = ctx_.symbols.intern(local.name(c.callSite)).value;
        addStep(c.leaveEvent + 1, c.enterEvent, site, &c);
        if (span.next(lifecycle_.isInit(c.region), lifecycle_.isFinalize(c.region)))
            moments[{previousSite, site}].add(double(c.enterTime - previousLeave));
        previousSite = site;
        previousLeave = c.leaveTime;
    }
    addStep(uint32_t(ev.size()), uint32_t(ev.size()), kNoSymbol, nullptr);

    for (const auto& [pair, m] : moments) {
        const std::string name = std::string(ctx_.symbols.name(CallSiteId(pair.first))) + " - " +
                                 std::string(ctx_.symbols.name(CallSiteId(pair.second)));
        Moments& sum = cvSums[name];
        sum.n += 1;
        sum.sum += m.cv();
        IntervalSample& sample = out_.intervals[name];
        sample.rankMeans.push_back(m.n > 0 ? m.sum / m.n : 0.0);
        sample.totalNs += m.sum;
        out_.deltaTotalNs += m.sum;
    }
}

} // namespace

int rankParams(const EventShape& e)
{
    if (hasPartner(e.kind)) return 1;
    return e.kind == EventKind::MpiCollectiveEnd && e.hasRoot ? 1 : 0;
}

int sizeParams(const EventShape& e)
{
    if (hasPartner(e.kind)) return 1;
    return e.kind == EventKind::MpiCollectiveEnd ? 2 : 0;
}

uint64_t StepTable::hash(const StepShape& s)
{
    uint64_t h = mix(s.callSite, s.callBegin * 2 + (s.init ? 1 : 0) + (s.finalize ? 4 : 0));
    for (const EventShape& e : s.events) {
        h = mix(h, uint64_t(e.kind) | uint64_t(e.detail) << 8 | uint64_t(e.hasRoot) << 16 |
                       uint64_t(uint32_t(e.tag)) << 32);
        h = mix(h, uint64_t(e.symbol) | uint64_t(e.requestBack) << 32);
        h = mix(h, uint64_t(e.value) ^ (e.omitted ? 0x8000000000000000ull : 0));
    }
    return h;
}

uint32_t StepTable::intern(StepShape&& shape)
{
    const uint64_t h = hash(shape);
    const auto [from, to] = index_.equal_range(h);
    for (auto it = from; it != to; ++it)
        if (shapes_[it->second] == shape) return it->second;
    const auto id = uint32_t(shapes_.size());
    shapes_.push_back(std::move(shape));
    index_.emplace(h, id);
    return id;
}

ScaleSkeleton readSkeleton(const Trace& trace, std::string label, SkeletonContext& context,
                           const ProgressCallback& progress)
{
    ScaleSkeleton s;
    s.trace = &trace;
    s.label = std::move(label);
    s.ranks = uint32_t(trace.rankCount());
    if (!trace.worldCommunicator().valid())
        throw TraceError(s.label + " defines no MPI_COMM_WORLD; synthesis places ranks in it");
    s.perRank.resize(s.ranks);
    const MpiLifecycle lifecycle = MpiLifecycle::of(trace);
    RankReader reader(trace, context, lifecycle, s);
    std::map<std::string, Moments> cvSums;
    ProgressReporter reporter(progress, s.ranks);
    for (uint32_t r = 0; r < s.ranks; ++r) {
        reader.read(RankId(r), cvSums);
        if (!reporter.update(r + 1)) {
            s.cancelled = true;
            return s;
        }
    }
    for (const auto& [name, m] : cvSums)
        s.withinRankCv[name] = m.n > 0 ? m.sum / m.n : 0.0;
    for (auto& [name, sample] : s.intervals)
        std::sort(sample.rankMeans.begin(), sample.rankMeans.end());
    return s;
}

std::map<std::string, uint64_t> canonicaliseSteps(std::vector<ScaleSkeleton>& scales,
                                                  SkeletonContext& context)
{
    // The key of a step: its call's events, and what the gap does to the region stack (the
    // regions it leaves that were open before it, the regions it leaves open), so a step and its
    // canonical variant nest the call in the same regions. Balanced enter/leave pairs (a user
    // function called and returned) and misc records of the gap are not part of it.
    StepTable keys;
    std::vector<uint32_t> keyOf(context.steps.size());
    for (uint32_t id = 0; id < context.steps.size(); ++id) {
        const StepShape& shape = context.steps.shape(id);
        std::vector<EventShape> left, open;
        for (uint32_t i = 0; i < shape.callBegin; ++i) {
            const EventShape& e = shape.events[i];
            if (e.kind == EventKind::Enter) {
                open.push_back(e);
            } else if (e.kind == EventKind::Leave) {
                if (open.empty())
                    left.push_back(e);
                else
                    open.pop_back();
            }
        }
        StepShape k;
        k.callSite = shape.callSite;
        k.init = shape.init;
        k.finalize = shape.finalize;
        k.events = std::move(left);
        k.events.insert(k.events.end(), open.begin(), open.end());
        k.callBegin = uint32_t(k.events.size());
        k.events.insert(k.events.end(), shape.events.begin() + shape.callBegin, shape.events.end());
        keyOf[id] = keys.intern(std::move(k));
    }
    std::vector<uint64_t> uses(context.steps.size(), 0);
    for (const ScaleSkeleton& sc : scales)
        for (const RankSteps& rs : sc.perRank)
            for (uint32_t id : rs.steps)
                ++uses[id];
    std::vector<uint32_t> best(keys.size(), kNoSymbol);
    for (uint32_t id = 0; id < context.steps.size(); ++id) {
        uint32_t& b = best[keyOf[id]];
        if (b == kNoSymbol || uses[id] > uses[b]) b = id;
    }
    std::map<std::string, uint64_t> mapped;
    for (ScaleSkeleton& sc : scales) {
        for (RankSteps& rs : sc.perRank) {
            for (size_t j = 0; j < rs.steps.size(); ++j) {
                const uint32_t id = rs.steps[j], canon = best[keyOf[id]];
                if (canon == id) continue;
                if (rs.real.empty()) {
                    rs.real = rs.steps;
                    rs.shift.assign(rs.steps.size(), 0);
                }
                rs.shift[j] = int32_t(context.steps.shape(id).callBegin) -
                              int32_t(context.steps.shape(canon).callBegin);
                rs.steps[j] = canon;
                const uint32_t site = context.steps.shape(id).callSite;
                ++mapped[site == kNoSymbol ? std::string("(after the last MPI call)")
                                           : std::string(context.symbols.name(CallSiteId(site)))];
            }
        }
    }
    return mapped;
}

MemberIndex::MemberIndex(const Trace& trace) : trace_(trace)
{
    const auto& members = trace.collectiveMembers();
    index_.reserve(members.size());
    for (uint32_t i = 0; i < members.size(); ++i)
        index_.emplace(uint64_t(members[i].location.value) << 32 | members[i].endEvent, i);
}

const CollectiveMember* MemberIndex::find(LocationId loc, uint32_t endEvent) const
{
    const auto it = index_.find(uint64_t(loc.value) << 32 | endEvent);
    return it == index_.end() ? nullptr : &trace_.collectiveMembers()[it->second];
}

EventParams eventParams(const Trace& trace, const MemberIndex& members, RankId rank, uint32_t event)
{
    const EventStream& ev = trace.rankEvents(rank);
    EventParams p;
    const uint32_t ref = ev.ref(event);
    switch (ev.kind(event)) {
    case EventKind::MpiSend:
    case EventKind::MpiIsend: {
        const Message& m = trace.message(MessageId(ref));
        p.partner = trace.messageReceiver(m).value;
        p.bytes = m.bytes;
        break;
    }
    case EventKind::MpiRecv:
    case EventKind::MpiIrecv: {
        const Message& m = trace.message(MessageId(ref));
        p.partner = trace.messageSender(m).value;
        p.bytes = m.bytes;
        break;
    }
    case EventKind::MpiCollectiveEnd: {
        const CollectiveInstance& c = trace.collective(CollectiveId(ref));
        if (c.root.valid()) p.partner = c.root.value;
        if (const CollectiveMember* m = members.find(trace.rank(rank).mainLocation, event)) {
            p.bytes = m->bytesSent;
            p.received = m->bytesReceived;
        }
        break;
    }
    default:
        break;
    }
    return p;
}

} // namespace rankscope::extrap::synth
