#include "whatif/extrap/synthbuilder.h"

#include "model/trace/tracebuilder.h"
#include "model/trace/traceerror.h"
#include "whatif/extrap/synthfit.h"
#include "whatif/extrap/synthtiming.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace rankscope::extrap {

namespace {

using namespace synth;

/// Per channel (sender, receiver, tag): sends and receives the roles make, counted in a first
/// pass; in the second, those used so far, and what was left out.
struct Pairing
{
    using Channel = std::tuple<uint32_t, uint32_t, int32_t>;
    bool counting = true;
    std::map<Channel, std::pair<uint64_t, uint64_t>> total, used;
    std::set<uint64_t> droppedRequests; // of the current rank
    DroppedMessages* out = nullptr;

    /// Whether the next send (or receive) on `c` is written.
    bool keep(const Channel& c, bool send, uint32_t callSite, const SkeletonContext& ctx)
    {
        if (counting) {
            ++(send ? total[c].first : total[c].second);
            return true;
        }
        auto& [s, r] = used[c];
        const auto& [ts, tr] = total[c];
        const uint64_t index = send ? s++ : r++;
        if (index < (send ? tr : ts)) return true;
        ++(send ? out->sends : out->receives);
        const std::string site = callSite == kNoSymbol
                                     ? std::string("(outside MPI calls)")
                                     : std::string(ctx.symbols.name(CallSiteId(callSite)));
        if (std::find(out->callSites.begin(), out->callSites.end(), site) == out->callSites.end())
            out->callSites.push_back(site);
        return false;
    }
};

class DraftWriter
{
public:
    DraftWriter(const SynthesisPlan& plan, TraceBuilder& b, Pairing* pairing)
        : plan_(plan), b_(b), grid_(plan.targetGrid()), pairing_(pairing)
    {
        const SymbolTable& symbols = plan.context.symbols;
        regionOf_.assign(symbols.size(), RegionId());
        for (const auto& [symbol, info] : plan.regions)
            regionOf_[symbol] = b.addRegion(
                Region{b.intern(info.name), info.role, info.paradigm,
                       info.file.empty() ? StringId() : b.intern(info.file), info.line});
        const StringId thread = b.intern(plan.threadName);
        std::vector<RankId> members;
        members.reserve(plan.target);
        for (uint32_t r = 0; r < plan.target; ++r) {
            const RankId rank = b.addRank(b.intern("MPI Rank " + std::to_string(r)));
            b.addLocation(rank, thread, LocationType::CpuThread, r);
            members.push_back(rank);
        }
        world_ = b.addCommunicator(b.intern(plan.worldName), std::move(members));
        b.setWorldCommunicator(world_);
    }

    const ProcessGrid* grid() const { return grid_ ? &*grid_ : nullptr; }

    /// Emits rank r of role `roleIndex` with the gap before each step from `gaps`.
    void rank(uint32_t r, size_t roleIndex, const std::vector<int64_t>& gaps);

private:
    void event(const EventShape& e, int64_t t, uint32_t index, const Role& role, uint32_t& rankSlot,
               uint32_t& sizeSlot);
    /// The bytes of size slot `slot` of a point-to-point call with `other` (by the partner's
    /// direction where the role has sizes per direction).
    uint64_t bytesTo(const Role& role, uint32_t slot, uint32_t other) const
    {
        if (grid_ && slot < role.sizeByDirection.size() && !role.sizeByDirection[slot].empty() &&
            other < plan_.target) {
            const auto& by = role.sizeByDirection[slot];
            const auto it = by.find(grid_->direction(rank_, other));
            if (it != by.end()) return it->second;
        }
        return role.sizes[slot];
    }
    uint32_t partner(const Role& role, uint32_t slot) const
    {
        return *role.rankRules[slot].evaluate(rank_, plan_.target, grid());
    }
    /// Whether a send (or receive) to (from) `other` is written (always without pairing).
    bool keep(uint32_t other, bool send, int32_t tag) const
    {
        if (!pairing_) return true;
        const Pairing::Channel c =
            send ? Pairing::Channel{rank_, other, tag} : Pairing::Channel{other, rank_, tag};
        return pairing_->keep(c, send, callSite_, plan_.context);
    }
    uint64_t requestAt(uint32_t index, uint32_t back)
    {
        if (back == 0 || back > index) return nextRequest_++;
        return requests_[index - back];
    }

    const SynthesisPlan& plan_;
    TraceBuilder& b_;
    std::optional<ProcessGrid> grid_;
    std::vector<RegionId> regionOf_;
    CommId world_;
    uint32_t rank_ = 0;
    LocationId loc_;
    uint64_t nextRequest_ = 1;
    std::vector<uint64_t> requests_; // request posted by each event of the rank (0: none)
    Pairing* pairing_;
    uint32_t callSite_ = kNoSymbol; // of the current step
};

void DraftWriter::event(const EventShape& e, int64_t t, uint32_t index, const Role& role,
                        uint32_t& rankSlot, uint32_t& sizeSlot)
{
    const auto tag = e.tag;
    switch (e.kind) {
    case EventKind::Enter:
        b_.enter(loc_, t, regionOf_[e.symbol]);
        break;
    case EventKind::Leave:
        b_.leave(loc_, t, regionOf_[e.symbol]);
        break;
    case EventKind::MpiSend: {
        const uint32_t to = partner(role, rankSlot++);
        const uint64_t bytes = bytesTo(role, sizeSlot++, to);
        if (keep(to, true, tag)) b_.send(loc_, t, to, world_, tag, bytes);
        break;
    }
    case EventKind::MpiRecv: {
        const uint32_t from = partner(role, rankSlot++);
        const uint64_t bytes = bytesTo(role, sizeSlot++, from);
        if (keep(from, false, tag)) b_.recv(loc_, t, from, world_, tag, bytes);
        break;
    }
    case EventKind::MpiIsend: {
        requests_[index] = nextRequest_++;
        const uint32_t to = partner(role, rankSlot++);
        const uint64_t bytes = bytesTo(role, sizeSlot++, to);
        if (keep(to, true, tag))
            b_.isend(loc_, t, to, world_, tag, bytes, requests_[index]);
        else
            pairing_->droppedRequests.insert(requests_[index]);
        break;
    }
    case EventKind::MpiIrecvRequest:
        requests_[index] = nextRequest_++;
        b_.irecvRequest(loc_, t, requests_[index]);
        break;
    case EventKind::MpiIrecv: {
        const uint64_t request = requestAt(index, e.requestBack);
        const uint32_t from = partner(role, rankSlot++);
        const uint64_t bytes = bytesTo(role, sizeSlot++, from);
        if (keep(from, false, tag))
            b_.irecv(loc_, t, from, world_, tag, bytes, request);
        else
            b_.requestCancelled(loc_, t, request);
        break;
    }
    case EventKind::MpiIsendComplete: {
        const uint64_t request = requestAt(index, e.requestBack);
        if (!pairing_ || !pairing_->droppedRequests.count(request))
            b_.isendComplete(loc_, t, request);
        break;
    }
    case EventKind::MpiRequestTest:
        b_.requestTest(loc_, t, requestAt(index, e.requestBack));
        break;
    case EventKind::MpiRequestCancelled:
        b_.requestCancelled(loc_, t, requestAt(index, e.requestBack));
        break;
    case EventKind::MpiCollectiveBegin:
        b_.collectiveBegin(loc_, t);
        break;
    case EventKind::MpiCollectiveEnd: {
        const uint32_t root = e.hasRoot ? partner(role, rankSlot++) : kNoRoot;
        const uint64_t sent = role.sizes[sizeSlot++];
        const uint64_t received = role.sizes[sizeSlot++];
        b_.collectiveEnd(loc_, t, CollectiveOp(e.detail), world_, root, sent, received);
        break;
    }
    case EventKind::Misc: {
        if (e.omitted) break;
        MiscEvent m{MiscKind(e.detail), 0, e.value};
        if (e.symbol != kNoSymbol)
            m.detail = b_.intern(plan_.context.symbols.name(CallSiteId(e.symbol))).value;
        if (m.kind == MiscKind::CommCreate || m.kind == MiscKind::CommDestroy)
            m.detail = world_.value;
        b_.misc(loc_, t, m);
        break;
    }
    }
}

void DraftWriter::rank(uint32_t r, size_t roleIndex, const std::vector<int64_t>& gaps)
{
    const Role& role = plan_.roles[roleIndex];
    const StepTable& steps = plan_.context.steps;
    rank_ = r;
    loc_ = LocationId(r);
    nextRequest_ = 1;
    requests_.clear();
    if (pairing_) pairing_->droppedRequests.clear();
    int64_t t = 0;
    uint32_t index = 0;
    const uint64_t count = role.stepCount();
    for (uint64_t k = 0; k < count; ++k) {
        const size_t pos = role.positionOf(k, role.loopCount);
        const StepShape& s = steps.shape(role.stepAt(pos));
        callSite_ = s.callSite;
        uint32_t rankSlot = role.rankSlotBase[pos], sizeSlot = role.sizeSlotBase[pos];
        requests_.resize(requests_.size() + s.events.size(), 0);
        const int64_t start = t, gap = std::max<int64_t>(0, gaps[k]);
        for (uint32_t i = 0; i < s.events.size(); ++i, ++index) {
            if (i < s.callBegin)
                t = std::max<int64_t>(t, start +
                                             std::llround(role.gapFractions[pos][i] * double(gap)));
            else if (i == s.callBegin)
                t = std::max(t, start + gap);
            else
                ++t; // inside the call: 1 ns apart, the replay places them
            event(s.events[i], t, index, role, rankSlot, sizeSlot);
        }
    }
}

} // namespace

namespace {

Trace writeDraft(const SynthesisPlan& plan, uint64_t seed, const ProgressCallback& progress,
                 Pairing* pairing)
{
    TraceBuilder b;
    b.setClock(ClockProperties{});
    DraftWriter writer(plan, b, pairing);
    std::vector<uint64_t> events;
    for (const Role& role : plan.roles)
        events.push_back(eventsPerRank(plan, role));
    const DeltaSampler sampler(plan, seed, writer.grid());
    ProgressReporter reporter(progress, plan.target);
    std::vector<int64_t> gaps;
    for (uint32_t r = 0; r < plan.target; ++r) {
        const auto role = size_t(plan.roleOf(r, writer.grid()));
        b.reserveEvents(LocationId(r), events[role]);
        sampler.gaps(r, role, gaps);
        writer.rank(r, role, gaps);
        if (!reporter.update(r + 1)) throw Cancelled();
    }
    return b.finish();
}

} // namespace

Trace buildDraftTrace(const SynthesisPlan& plan, uint64_t seed, const ProgressCallback& progress,
                      DroppedMessages* unpaired)
{
    if (!plan.refused.empty()) throw TraceError("the plan was refused; there is nothing to build");
    if (!unpaired) return writeDraft(plan, seed, progress, nullptr);
    Pairing pairing;
    pairing.out = unpaired;
    *unpaired = {};
    writeDraft(plan, seed, progressSlice(progress, 0.0, 0.5), &pairing);
    pairing.counting = false;
    return writeDraft(plan, seed, progressSlice(progress, 0.5, 1.0), &pairing);
}

} // namespace rankscope::extrap
