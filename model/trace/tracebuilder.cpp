#include "model/trace/tracebuilder.h"

#include "model/trace/tracebuilder_p.h"

#include <algorithm>
#include <string>

namespace rankscope {

namespace {

std::string locationLabel(const Trace& t, LocationId loc)
{
    const Location& l = t.location(loc);
    return "location " + std::to_string(l.otf2Id) + " (rank " + std::to_string(l.rank.value) + ")";
}

} // namespace

TraceBuilder::TraceBuilder() : s_(std::make_unique<TraceBuildState>()) {}
TraceBuilder::~TraceBuilder() = default;
TraceBuilder::TraceBuilder(TraceBuilder&&) noexcept = default;
TraceBuilder& TraceBuilder::operator=(TraceBuilder&&) noexcept = default;

StringId TraceBuilder::intern(std::string_view s)
{
    return s_->trace.strings_.intern(s);
}

void TraceBuilder::setClock(const ClockProperties& clock)
{
    s_->trace.clock_ = clock;
}

void TraceBuilder::setProvenance(Provenance p)
{
    s_->trace.provenance_ = std::move(p);
}

RegionId TraceBuilder::addRegion(const Region& region)
{
    auto& regions = s_->trace.regions_;
    if (regions.size() > kMaxEventRef)
        throw TraceError("too many regions (more than " + std::to_string(kMaxEventRef) + ")");
    regions.push_back(region);
    return RegionId(static_cast<uint32_t>(regions.size() - 1));
}

RankId TraceBuilder::addRank(StringId name)
{
    auto& ranks = s_->trace.ranks_;
    ranks.push_back(Rank{name, LocationId(), {}, StringId()});
    return RankId(static_cast<uint32_t>(ranks.size() - 1));
}

void TraceBuilder::setRankHost(RankId rank, StringId host)
{
    auto& ranks = s_->trace.ranks_;
    if (!rank.valid() || rank.value >= ranks.size())
        throw TraceError("host of undefined rank " + std::to_string(rank.value));
    ranks[rank.value].host = host;
}

LocationId TraceBuilder::addLocation(RankId rank, StringId name, LocationType type,
                                     uint64_t sourceId)
{
    Trace& t = s_->trace;
    if (!rank.valid() || rank.value >= t.ranks_.size())
        throw TraceError("location " + std::to_string(sourceId) + " belongs to undefined rank " +
                         std::to_string(rank.value));
    const LocationId id(static_cast<uint32_t>(t.locations_.size()));
    t.locations_.push_back(Location{name, type, rank, sourceId});
    t.streams_.emplace_back();
    s_->locations.emplace_back();
    Rank& r = t.ranks_[rank.value];
    if (!r.mainLocation.valid() && type == LocationType::CpuThread) {
        r.mainLocation = id;
        r.locations.insert(r.locations.begin(), id);
    } else {
        r.locations.push_back(id);
    }
    return id;
}

CommId TraceBuilder::addCommunicator(StringId name, std::vector<RankId> members, CommId parent)
{
    auto& comms = s_->trace.comms_;
    for (RankId m : members)
        if (!m.valid() || m.value >= s_->trace.ranks_.size())
            throw TraceError("communicator '" + std::string(s_->trace.str(name)) +
                             "' lists undefined rank " + std::to_string(m.value));
    comms.push_back(Communicator{name, std::move(members), parent});
    return CommId(static_cast<uint32_t>(comms.size() - 1));
}

void TraceBuilder::setWorldCommunicator(CommId comm)
{
    s_->trace.world_ = comm;
}

void TraceBuilder::setTimeSpan(int64_t begin, int64_t end)
{
    if (end < begin) throw TraceError("time span ends before it begins");
    s_->spanGiven = true;
    s_->spanBegin = begin;
    s_->spanEnd = end;
}

size_t TraceBuilder::rankCount() const
{
    return s_->trace.ranks_.size();
}
size_t TraceBuilder::locationCount() const
{
    return s_->trace.locations_.size();
}
size_t TraceBuilder::regionCount() const
{
    return s_->trace.regions_.size();
}
size_t TraceBuilder::communicatorCount() const
{
    return s_->trace.comms_.size();
}

void TraceBuilder::reserveEvents(LocationId loc, size_t n)
{
    s_->trace.streams_.at(loc.value).reserve(n);
}

// Appends one event after checking the location's time order; returns its index. Every record
// type goes through here, so every one gets the same check and the same error text.
uint32_t TraceBuilder::append(TraceBuildState& s, LocationId loc, int64_t t, EventKind kind,
                              uint32_t ref)
{
    LocationBuildState& ls = s.locations[loc.value];
    EventStream& es = s.trace.streams_[loc.value];
    if (t < ls.lastTime) [[unlikely]]
        throw TraceError(locationLabel(s.trace, loc) + ": event " + std::to_string(es.size()) +
                         " at " + std::to_string(t) + " ns is earlier than the event before it (" +
                         std::to_string(ls.lastTime) + " ns)");
    ls.lastTime = t;
    es.append(t, kind, ref);
    return static_cast<uint32_t>(es.size() - 1);
}

void TraceBuilder::enter(LocationId loc, int64_t t, RegionId region)
{
    append(*s_, loc, t, EventKind::Enter, region.value);
    s_->locations[loc.value].openRegions.push_back(region);
}

void TraceBuilder::leave(LocationId loc, int64_t t, RegionId region)
{
    append(*s_, loc, t, EventKind::Leave, region.value);
    LocationBuildState& ls = s_->locations[loc.value];
    auto& stack = ls.openRegions;
    if (!stack.empty() && stack.back() == region) [[likely]] {
        stack.pop_back();
        return;
    }
    // Broken nesting: close up to the matching Enter if there is one, else count a stray Leave.
    auto it = std::find(stack.rbegin(), stack.rend(), region);
    if (it == stack.rend()) {
        ++ls.unmatchedLeaves;
        return;
    }
    const auto keep = static_cast<size_t>(stack.rend() - it) - 1;
    ls.unclosedInside += stack.size() - keep - 1;
    stack.resize(keep);
}

uint32_t TraceBuilder::messageEvent(LocationId loc, int64_t t, EventKind kind, uint32_t partner,
                                    CommId comm, int32_t tag, uint64_t bytes)
{
    LocationBuildState& ls = s_->locations[loc.value];
    if (ls.p2p.size() > kMaxEventRef) [[unlikely]]
        throw TraceError(locationLabel(s_->trace, loc) + ": more than " +
                         std::to_string(kMaxEventRef + 1) +
                         " distinct point-to-point records (partner, communicator, tag, size)");
    const uint32_t idx = append(*s_, loc, t, kind, kNoEventRef);
    s_->trace.streams_[loc.value].setRef(idx, ls.p2p.intern(P2PPayload{partner, comm, tag, bytes}));
    if (kind == EventKind::MpiSend || kind == EventKind::MpiIsend)
        ++ls.sends;
    else
        ++ls.receives;
    return idx;
}

void TraceBuilder::send(LocationId loc, int64_t t, uint32_t receiver, CommId comm, int32_t tag,
                        uint64_t bytes)
{
    messageEvent(loc, t, EventKind::MpiSend, receiver, comm, tag, bytes);
}

void TraceBuilder::isend(LocationId loc, int64_t t, uint32_t receiver, CommId comm, int32_t tag,
                         uint64_t bytes, uint64_t request)
{
    const uint32_t idx = messageEvent(loc, t, EventKind::MpiIsend, receiver, comm, tag, bytes);
    s_->locations[loc.value].open.post(request, idx);
}

void TraceBuilder::recv(LocationId loc, int64_t t, uint32_t sender, CommId comm, int32_t tag,
                        uint64_t bytes)
{
    messageEvent(loc, t, EventKind::MpiRecv, sender, comm, tag, bytes);
}

void TraceBuilder::irecv(LocationId loc, int64_t t, uint32_t sender, CommId comm, int32_t tag,
                         uint64_t bytes, uint64_t request)
{
    const uint32_t idx = messageEvent(loc, t, EventKind::MpiIrecv, sender, comm, tag, bytes);
    LocationBuildState& ls = s_->locations[loc.value];
    EventStream& es = s_->trace.streams_[loc.value];
    // The receive takes its place in matching order where it was posted; a request posted by
    // anything but an MpiIrecvRequest (a damaged request id) does not count as its posting.
    const uint32_t post = ls.open.find(request, true);
    if (post != OpenRequests::kNone && es.kind(post) == EventKind::MpiIrecvRequest) {
        ls.links.link(es, post, idx);
    } else {
        ++ls.orphanRequestEvents;
        ls.unpostedIrecvs.push_back(idx);
    }
}

void TraceBuilder::irecvRequest(LocationId loc, int64_t t, uint64_t request)
{
    const uint32_t idx = append(*s_, loc, t, EventKind::MpiIrecvRequest, kNoEventRef);
    s_->locations[loc.value].open.post(request, idx);
}

void TraceBuilder::requestEvent(LocationId loc, int64_t t, EventKind kind, uint64_t request)
{
    const uint32_t idx = append(*s_, loc, t, kind, kNoEventRef);
    LocationBuildState& ls = s_->locations[loc.value];
    // A test leaves the request open; a completion or a cancel closes it.
    const uint32_t post = ls.open.find(request, kind != EventKind::MpiRequestTest);
    if (post == OpenRequests::kNone) {
        ++ls.orphanRequestEvents;
        return;
    }
    ls.links.link(s_->trace.streams_[loc.value], idx, post);
    ++ls.completions;
    if (kind == EventKind::MpiRequestCancelled) ++ls.cancelledRequests;
}

void TraceBuilder::isendComplete(LocationId loc, int64_t t, uint64_t request)
{
    requestEvent(loc, t, EventKind::MpiIsendComplete, request);
}

void TraceBuilder::requestTest(LocationId loc, int64_t t, uint64_t request)
{
    requestEvent(loc, t, EventKind::MpiRequestTest, request);
}

void TraceBuilder::requestCancelled(LocationId loc, int64_t t, uint64_t request)
{
    requestEvent(loc, t, EventKind::MpiRequestCancelled, request);
}

void TraceBuilder::collectiveBegin(LocationId loc, int64_t t)
{
    const uint32_t idx = append(*s_, loc, t, EventKind::MpiCollectiveBegin, kNoEventRef);
    s_->locations[loc.value].pendingBegin = idx;
}

void TraceBuilder::collectiveEnd(LocationId loc, int64_t t, CollectiveOp op, CommId comm,
                                 uint32_t root, uint64_t bytesSent, uint64_t bytesReceived)
{
    LocationBuildState& ls = s_->locations[loc.value];
    if (ls.collectives.size() > kMaxEventRef) [[unlikely]]
        throw TraceError(locationLabel(s_->trace, loc) + ": more than " +
                         std::to_string(kMaxEventRef + 1) + " distinct collective records");
    const uint32_t idx = append(*s_, loc, t, EventKind::MpiCollectiveEnd, kNoEventRef);
    if (ls.pendingBegin == kNoEvent) {
        ++ls.strayCollectiveEnds;
        return;
    }
    EventStream& es = s_->trace.streams_[loc.value];
    es.setRef(idx,
              ls.collectives.intern(CollectivePayload{op, comm, root, bytesSent, bytesReceived}));
    ls.links.link(es, ls.pendingBegin, idx);
    ++ls.collectiveEnds;
    ls.pendingBegin = kNoEvent;
}

void TraceBuilder::misc(LocationId loc, int64_t t, MiscEvent event)
{
    LocationBuildState& ls = s_->locations[loc.value];
    if (ls.misc.size() > kMaxEventRef) [[unlikely]]
        throw TraceError("too many miscellaneous events");
    // The reference indexes the location's table until finish() makes it a global index.
    append(*s_, loc, t, EventKind::Misc, static_cast<uint32_t>(ls.misc.size()));
    ls.misc.push_back(event);
}

MetricId TraceBuilder::addMetric(const Metric& metric)
{
    auto& metrics = s_->trace.metrics_;
    metrics.push_back(metric);
    return MetricId(static_cast<uint32_t>(metrics.size() - 1));
}

size_t TraceBuilder::metricCount() const
{
    return s_->trace.metrics_.size();
}

void TraceBuilder::metric(LocationId loc, int64_t t, const MetricId* metrics,
                          const uint64_t* values, size_t count)
{
    LocationBuildState& ls = s_->locations[loc.value];
    if (t < ls.lastMetricTime) [[unlikely]]
        throw TraceError(locationLabel(s_->trace, loc) + ": metric record at " + std::to_string(t) +
                         " ns is earlier than the one before it (" +
                         std::to_string(ls.lastMetricTime) + " ns)");
    ls.lastMetricTime = t;
    ++ls.metricRecords;
    for (size_t i = 0; i < count; ++i) {
        if (metrics[i].value >= s_->trace.metrics_.size()) [[unlikely]]
            throw TraceError(locationLabel(s_->trace, loc) + ": metric record refers to metric " +
                             std::to_string(metrics[i].value) + ", which is not defined");
        // A location samples a few metrics: a linear search beats any map.
        auto it = std::find_if(ls.metrics.begin(), ls.metrics.end(),
                               [&](const MetricColumn& c) { return c.metric == metrics[i]; });
        if (it == ls.metrics.end()) {
            ls.metrics.push_back(MetricColumn{loc, metrics[i], {}, {}});
            it = ls.metrics.end() - 1;
        }
        it->times.push_back(t);
        it->raw.push_back(values[i]);
    }
}

void TraceBuilder::attachSourceLocation(LocationId loc, SourceLocation where)
{
    EventStream& es = s_->trace.streams_[loc.value];
    if (!es.empty()) es.addSourceLocation(static_cast<uint32_t>(es.size() - 1), where);
}

void TraceBuilder::attachMessageContention(LocationId loc, int64_t ns)
{
    const EventStream& es = s_->trace.streams_[loc.value];
    if (es.empty()) return;
    const EventKind k = es.kind(es.size() - 1);
    if (k == EventKind::MpiRecv || k == EventKind::MpiIrecv)
        s_->locations[loc.value].contention.emplace_back(uint32_t(es.size() - 1), ns);
}

size_t TraceBuilder::eventCount(LocationId loc) const
{
    return s_->trace.streams_[loc.value].size();
}

void TraceBuilder::addWarning(std::string warning)
{
    s_->trace.diagnostics_.warnings.push_back(std::move(warning));
}

void TraceBuilder::setPartial(bool partial)
{
    s_->trace.diagnostics_.partial = partial;
}

Trace TraceBuilder::finish(unsigned threads)
{
    TraceBuildState& st = *s_;
    Trace& t = st.trace;
    TraceDiagnostics& diag = t.diagnostics_;

    if (!t.world_.valid()) {
        for (size_t c = 0; c < t.comms_.size() && !t.world_.valid(); ++c) {
            const auto& m = t.comms_[c].members;
            bool identity = m.size() == t.ranks_.size() && !m.empty();
            for (size_t i = 0; identity && i < m.size(); ++i)
                identity = m[i].value == i;
            if (identity) t.world_ = CommId(static_cast<uint32_t>(c));
        }
    }

    for (LocationBuildState& ls : st.locations)
        ls.links.sort();
    matchMessages(t, t.streams_, st.locations, t.messages_, diag, std::max(1u, threads));
    matchCollectives(t, t.streams_, st.locations, t.collectives_, t.members_, diag,
                     std::max(1u, threads));
    // Contention delays attached to receives go to their messages.
    for (const LocationBuildState& ls : st.locations)
        if (!ls.contention.empty()) t.messageContention_.assign(t.messages_.size(), 0);
    if (!t.messageContention_.empty())
        for (size_t m = 0; m < t.messages_.size(); ++m) {
            const Message& msg = t.messages_[m];
            if (!msg.recvLocation.valid()) continue;
            const auto& c = st.locations[msg.recvLocation.value].contention;
            const auto it = std::lower_bound(
                c.begin(), c.end(), msg.recvEvent,
                [](const std::pair<uint32_t, int64_t>& x, uint32_t e) { return x.first < e; });
            if (it != c.end() && it->first == msg.recvEvent) t.messageContention_[m] = it->second;
        }

    // Misc events: per-location tables become one global table, each freed once copied.
    size_t miscTotal = 0;
    for (const LocationBuildState& ls : st.locations)
        miscTotal += ls.misc.size();
    if (miscTotal > size_t(kMaxEventRef) + 1) throw TraceError("too many miscellaneous events");
    t.misc_.reserve(miscTotal);
    for (size_t l = 0; l < st.locations.size(); ++l) {
        LocationBuildState& ls = st.locations[l];
        if (!ls.misc.empty()) {
            const auto offset = static_cast<uint32_t>(t.misc_.size());
            EventStream& es = t.streams_[l];
            for (uint32_t i = 0; i < es.size(); ++i)
                if (es.kind(i) == EventKind::Misc) es.setRef(i, offset + es.ref(i));
            t.misc_.insert(t.misc_.end(), ls.misc.begin(), ls.misc.end());
            std::vector<MiscEvent>().swap(ls.misc);
        }
        std::sort(ls.metrics.begin(), ls.metrics.end(),
                  [](const MetricColumn& a, const MetricColumn& b) { return a.metric < b.metric; });
        for (MetricColumn& c : ls.metrics) {
            c.times.shrink_to_fit();
            c.raw.shrink_to_fit();
            t.metricColumns_.push_back(std::move(c));
        }
        std::vector<MetricColumn>().swap(ls.metrics);
        t.metricRecords_ += ls.metricRecords;
        if (ls.metricRecords > 0) {
            t.metricRecordsByLocation_.resize(st.locations.size(), 0);
            t.metricRecordsByLocation_[l] = ls.metricRecords;
        }
        diag.unclosedRegions += ls.openRegions.size() + ls.unclosedInside;
        diag.unmatchedLeaves += ls.unmatchedLeaves;
        if (ls.pendingBegin != kNoEvent || ls.strayCollectiveEnds > 0)
            diag.warnings.push_back(locationLabel(t, LocationId(static_cast<uint32_t>(l))) +
                                    ": collective begin/end records do not pair up");
    }
    if (diag.unclosedRegions > 0)
        diag.warnings.push_back(std::to_string(diag.unclosedRegions) +
                                " region(s) entered but never left (trace ends inside them)");
    if (diag.unmatchedLeaves > 0)
        diag.warnings.push_back(std::to_string(diag.unmatchedLeaves) +
                                " Leave record(s) without a matching Enter");

    bool any = s_->spanGiven;
    if (any) {
        t.begin_ = s_->spanBegin;
        t.end_ = s_->spanEnd;
    }
    for (auto& es : t.streams_) {
        es.shrinkToFit();
        if (es.empty()) continue;
        t.begin_ = any ? std::min(t.begin_, es.time(0)) : es.time(0);
        t.end_ = any ? std::max(t.end_, es.time(es.size() - 1)) : es.time(es.size() - 1);
        any = true;
    }
    for (const MetricColumn& c : t.metricColumns_) {
        if (c.times.empty()) continue;
        t.begin_ = any ? std::min(t.begin_, c.times.front()) : c.times.front();
        t.end_ = any ? std::max(t.end_, c.times.back()) : c.times.back();
        any = true;
    }
    t.messages_.shrink_to_fit();
    t.collectives_.shrink_to_fit();
    t.members_.shrink_to_fit();

    Trace result = std::move(t);
    s_ = std::make_unique<TraceBuildState>();
    return result;
}

} // namespace rankscope
