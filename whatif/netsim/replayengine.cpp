#include "whatif/netsim/replayengine.h"

#include "model/trace/traceerror.h"
#include "whatif/netsim/replaydeadlock.h"

#include <algorithm>
#include <cmath>

namespace rankscope::netsim {

ReplayEngine::ReplayEngine(const ActionProgram& program, const Machine& machine,
                           EngineOptions options)
    : program_(program), machine_(machine), options_(std::move(options)),
      sendOverhead_(machine.spec().sendOverheadNs), recvOverhead_(machine.spec().recvOverheadNs),
      progress_(options_.progress, program.actions.size())
{
    const uint32_t n = program.rankCount();
    // Rank states and inboxes of 8192 ranks fill 1 MiB: a second-level cache.
    prefetch_ = n > 8192;
    ranks_.resize(n);
    for (uint32_t r = 0; r < n; ++r) {
        ranks_[r].pc = program.rankBegin[r];
        ranks_[r].end = program.rankBegin[r + 1];
        ranks_[r].now = program.startNs[r];
    }
    // Collective messages get slots behind the point-to-point ones. Room for two per rank is
    // set aside (address space only until used): growing the vector past it later copies it,
    // which at a million ranks was the replay's peak of memory.
    slots_.reserve(program.messages.size() + (program.collectives.empty() ? 0 : 2 * size_t(n)));
    slots_.resize(program.messages.size());
    for (size_t m = 0; m < program.messages.size(); ++m) {
        slots_[m].src = program.messages[m].src;
        slots_[m].dst = program.messages[m].dst;
        slots_[m].bytes = double(program.messages[m].bytes);
        if (!program.strided.empty() && program.strided[m] != 0)
            slots_[m].placement = Placement::Strided;
    }
    if (!program.collectives.empty()) collSlots_.setReceivers(n);
    if (options_.recordTimes) times_.assign(program.actions.size(), 0.0);
    exchangeable_ = options_.exchangeByRounds && exchangesByRounds();
}

ReplayEngine::~ReplayEngine() = default;

ReplayOutcome ReplayEngine::run()
{
    const uint32_t n = program_.rankCount();
    for (uint32_t r = 0; r < n; ++r)
        queue_.push(ranks_[r].now, kResume, r);
    ReplayOutcome out;
    uint64_t events = 0;
    while (!queue_.empty()) {
        const SimEvent e = takeEvent();
        clock_ = e.time;
        switch (e.kind) {
        case kResume:
            if (options_.recordTimes)
                advance<true>(e.payload);
            else
                advance<false>(e.payload);
            break;
        case kStartTransfer: {
            const Slot& s = slots_[e.payload];
            model_->start(e.payload, s.src, s.dst, uint64_t(s.bytes), s.placement, e.time);
            break;
        }
        default:
            model_->onEvent(e.payload, e.time);
            break;
        }
        // (A long exchange reports on its own: it may have been cancelled there.)
        if (((++events & 0xFFF) == 0 && !progress_.update(actionsDone_)) || progress_.cancelled()) {
            out.cancelled = true;
            return out;
        }
    }
    if (finished_ < n) {
        std::string stuck;
        uint32_t shown = 0, first = kNoRank;
        for (uint32_t r = 0; r < n && shown < 5; ++r)
            if (ranks_[r].pc < program_.rankBegin[r + 1]) {
                stuck += (shown++ ? ", " : "") + std::to_string(r);
                if (first == kNoRank) first = r;
            }
        uint32_t blame = first; // the first rank of the chain that waits on a message
        const std::string chain = waitChain(first, blame);
        throw ReplayDeadlock("simulation: ranks wait for each other forever (e.g. rank " + stuck +
                                 "): the trace's messages or collectives do not pair up; " + chain,
                             blame, mpiCallOf(blame));
    }
    progress_.report(actionsDone_);
    out.endNs.resize(n);
    out.mpiNs.resize(n);
    // Times are doubles in the replay and int64 nanoseconds in results and traces: a replay
    // that ends beyond 2^62 ns (146 years) is refused rather than wrapped to a negative time.
    constexpr double kLimitNs = 4.611686018427387904e18;
    for (uint32_t r = 0; r < n; ++r) {
        out.endNs[r] = ranks_[r].now;
        out.mpiNs[r] = ranks_[r].mpi;
        if (!(std::abs(ranks_[r].now) < kLimitNs) || !(std::abs(ranks_[r].mpi) < kLimitNs))
            throw TraceError("simulation: rank " + std::to_string(r) +
                             " would end after more than 2^62 ns (146 years): a latency, bandwidth "
                             "or overhead of the network spec is outside any physical range");
    }
    out.actionTimes = std::move(times_);
    out.transfers = transfers_;
    return out;
}

uint64_t ReplayEngine::mpiCallOf(uint32_t r) const
{
    uint64_t calls = 0;
    for (size_t pc = program_.rankBegin[r]; pc <= ranks_[r].pc && pc < ranks_[r].end; ++pc)
        calls += program_.actions[pc].kind == ActionKind::Enter;
    return calls;
}

std::string ReplayEngine::waitChain(uint32_t first, uint32_t& blame) const
{
    // Each waiting rank in turn: where it waits, and for whom; the chain ends where it closes
    // (a cycle), at a collective or at a rank that does not wait.
    std::string out;
    std::vector<uint32_t> seen;
    uint32_t r = first;
    for (int hop = 0; hop < 6 && r != kNoRank; ++hop) {
        if (std::find(seen.begin(), seen.end(), r) != seen.end()) {
            out += ", and so on round the cycle";
            break;
        }
        seen.push_back(r);
        const RankState& s = ranks_[r];
        out += std::string(hop ? "; " : "") + "rank " + std::to_string(r) + " ";
        if (s.pc >= s.end) {
            out += "has ended";
            break;
        }
        const Action& a = program_.actions[s.pc];
        out += "waits in its MPI call " + std::to_string(mpiCallOf(r)) + " after MPI_Init";
        uint32_t next = kNoRank;
        if ((a.kind == ActionKind::WaitRecv || a.kind == ActionKind::WaitSend) &&
            a.ref < program_.messages.size()) {
            const ProgramMessage& m = program_.messages[a.ref];
            const bool recv = a.kind == ActionKind::WaitRecv;
            if (blame == first && ranks_[first].pc < ranks_[first].end &&
                program_.actions[ranks_[first].pc].kind == ActionKind::Collective)
                blame = r;
            next = recv ? m.src : m.dst;
            out += recv ? " for a message of " + std::to_string(m.bytes) + " bytes from rank " +
                              std::to_string(next) + ", which has not sent it"
                        : " until rank " + std::to_string(next) + " receives its message of " +
                              std::to_string(m.bytes) + " bytes";
        } else if (a.kind == ActionKind::Collective && a.ref < program_.collectives.size()) {
            const ProgramCollective& c = program_.collectives[a.ref];
            const uint32_t size = program_.commSize(c.comm);
            out += " in a collective (" + std::string(collKindName(c.kind)) + ") of " +
                   std::to_string(size) + " ranks";
            for (uint32_t i = 0; i < size && next == kNoRank; ++i) {
                const uint32_t m = program_.member(c.comm, i);
                const RankState& o = ranks_[m];
                const bool inIt = o.pc < o.end &&
                                  program_.actions[o.pc].kind == ActionKind::Collective &&
                                  program_.actions[o.pc].ref == a.ref;
                if (!inIt) next = m;
            }
            if (next != kNoRank) out += " that rank " + std::to_string(next) + " has not entered";
        } else {
            out += " in a collective round";
        }
        r = next;
    }
    return out;
}

SimEvent ReplayEngine::takeEvent()
{
    // At a million ranks nearly every rank state, action and slot a resumed rank reads is a
    // cache miss. The queue knows which ranks come next, so the reads are started in three
    // stages, each when what it needs has arrived: a rank's state (and inbox) far ahead; its
    // next action and the slots it waits on nearer; nearest, for a rank in a collective, the
    // state and inbox of the partner its next round sends to (the partner's state is read
    // when the message is delivered, its inbox when the message is named).
    if (!prefetch_) return queue_.pop();
    constexpr size_t kFar = 12, kMid = 6, kNear = 3;
    const uint32_t far = queue_.peek(kFar, kResume);
    if (far != EventQueue::kNone) {
        __builtin_prefetch(&ranks_[far]);
        collSlots_.prefetch(far);
    }
    const uint32_t mid = queue_.peek(kMid, kResume);
    if (mid != EventQueue::kNone && ranks_[mid].pc < ranks_[mid].end) {
        const RankState& s = ranks_[mid];
        __builtin_prefetch(&program_.actions[s.pc]);
        if (s.blockedSlot != kNoRank) __builtin_prefetch(&slots_[s.blockedSlot]);
        if (s.collRecv != kNoRank && s.collRecv != s.blockedSlot)
            __builtin_prefetch(&slots_[s.collRecv]);
    }
    const uint32_t near = queue_.peek(kNear, kResume);
    if (near != EventQueue::kNone) prefetchPartner(near);
    return queue_.pop();
}

void ReplayEngine::prefetchPartner(uint32_t r) const
{
    const RankState& s = ranks_[r];
    if (s.pc >= s.end) return;
    const Action& a = program_.actions[s.pc];
    if (a.kind != ActionKind::Collective) return;
    const CachedSchedule& cached = schedules_[a.ref % schedules_.size()];
    if (cached.ref != a.ref || !cached.schedule) return; // not started yet: nothing to guess
    // Blocked in a round (phase 1 or 2): the resume finishes it and sends in the next one.
    const uint32_t round = s.collRound + (s.collPhase == 1 || s.collPhase == 2 ? 1 : 0);
    if (round >= cached.schedule->roundCount()) return;
    const CollectiveStep step = cached.schedule->step(uint32_t(a.value), round);
    if (step.sendTo == kNoPeer) return;
    const uint32_t dst = program_.member(program_.collectives[a.ref].comm, step.sendTo);
    __builtin_prefetch(&ranks_[dst]);
    collSlots_.prefetch(dst);
}

template <bool kRecord> void ReplayEngine::advance(uint32_t r)
{
    double t = ranks_[r].now;
    const size_t begin = ranks_[r].pc, end = ranks_[r].end;
    size_t pc = begin;
    for (; pc < end; ++pc) {
        const Action& a = program_.actions[pc];
        switch (a.kind) {
        case ActionKind::Compute:
            t += a.value;
            break;
        case ActionKind::Enter:
            ranks_[r].enter = t;
            break;
        case ActionKind::Leave:
            ranks_[r].mpi += t - ranks_[r].enter;
            break;
        case ActionKind::PostSend:
            t += a.value; // packing a strided face
            if (kRecord) times_[pc] = t;
            t = postSend(a.ref, t);
            break;
        case ActionKind::PostRecv:
            postRecv(a.ref, t);
            break;
        case ActionKind::WaitSend:
        case ActionKind::WaitRecv:
            if (!waitSide(r, a.ref, a.kind == ActionKind::WaitSend, t))
                return stop(r, t, begin, pc);
            t += a.value; // unpacking a strided face
            break;
        case ActionKind::Collective:
            if (!collective(r, a, t)) return stop(r, t, begin, pc);
            break;
        }
        if (kRecord && a.kind != ActionKind::PostSend) times_[pc] = t;
        // Yield when this rank's clock passes the next event, so all ranks move in time order
        // (not at a tie: ranks that wake together would otherwise trade places action by action).
        if (t > queue_.topTime() && pc + 1 < end) {
            stop(r, t, begin, pc + 1);
            resumeLater(r, t);
            return;
        }
    }
    stop(r, t, begin, pc);
    ++finished_;
}

[[gnu::always_inline]] inline void ReplayEngine::stop(uint32_t r, double t, size_t begin, size_t pc)
{
    ranks_[r].now = t;
    ranks_[r].pc = pc;
    actionsDone_ += pc - begin;
}

[[gnu::always_inline]] inline bool ReplayEngine::waitSide(uint32_t r, uint32_t slot, bool send,
                                                          double& t)
{
    Slot& s = slots_[slot];
    const double done = send ? s.sendDone : s.recvDone;
    if (done < 0) {
        ranks_[r].blockedSlot = slot;
        ranks_[r].blockedSend = send;
        return false;
    }
    t = std::max(t, done);
    s.consumed |= send ? 1 : 2;
    if (slot >= program_.messages.size() && s.consumed == 3) freeSlots_.push_back(slot);
    return true;
}

[[gnu::always_inline]] inline double ReplayEngine::postSend(uint32_t slot, double t)
{
    Slot& s = slots_[slot];
    const double ready = t + sendOverhead_;
    s.sendReady = ready;
    if (s.dst == kNoRank) { // unmatched: nobody receives it; it leaves like an eager message
        s.sendDone = ready;
        return ready;
    }
    if (eager(s)) {
        setDone(slot, true, ready);
        startTransfer(slot, ready);
    } else if (s.recvReady >= 0) {
        startTransfer(slot, std::max(ready, s.recvReady));
    }
    return ready;
}

[[gnu::always_inline]] inline void ReplayEngine::postRecv(uint32_t slot, double t)
{
    Slot& s = slots_[slot];
    s.recvReady = t;
    if (s.src == kNoRank) { // unmatched: completes at once
        setDone(slot, false, t + recvOverhead_);
        return;
    }
    if (s.sendReady < 0) return; // the sender decides when it posts
    if (eager(s)) {
        if (s.arrival >= 0) setDone(slot, false, std::max(s.arrival, t) + recvOverhead_);
    } else {
        startTransfer(slot, std::max(s.sendReady, t));
    }
}

[[gnu::always_inline]] inline void ReplayEngine::startTransfer(uint32_t slot, double time)
{
    ++transfers_;
    const Slot& s = slots_[slot];
    if (!timeOrdered_ || time <= clock_)
        model_->start(slot, s.src, s.dst, uint64_t(s.bytes), s.placement, std::max(time, clock_));
    else
        queue_.push(time, kStartTransfer, slot);
}

void ReplayEngine::delivered(uint32_t slot, double time)
{
    Slot& s = slots_[slot];
    s.arrival = time;
    if (eager(s)) {
        if (s.recvReady >= 0) setDone(slot, false, std::max(time, s.recvReady) + recvOverhead_);
    } else {
        setDone(slot, true, time);
        setDone(slot, false, time + recvOverhead_);
    }
}

[[gnu::always_inline]] inline void ReplayEngine::resumeLater(uint32_t r, double time)
{
    // The rank's next action is read when this event comes due; fetching it now hides a cache
    // miss per resume (with up to a few thousand ranks waiting it is still cached by then).
    __builtin_prefetch(&program_.actions[ranks_[r].pc]);
    queue_.push(time, kResume, r);
}

void ReplayEngine::scheduleModelEvent(double time, uint32_t payload)
{
    queue_.push(time, kModel, payload);
}

[[gnu::always_inline]] inline void ReplayEngine::setDone(uint32_t slot, bool send, double time)
{
    Slot& s = slots_[slot];
    (send ? s.sendDone : s.recvDone) = time;
    const uint32_t owner = send ? s.src : s.dst;
    if (owner != kNoRank && ranks_[owner].blockedSlot == slot &&
        ranks_[owner].blockedSend == uint8_t(send)) {
        ranks_[owner].blockedSlot = kNoRank;
        resumeLater(owner, std::max({time, ranks_[owner].now, clock_}));
    }
}

[[gnu::always_inline]] inline uint32_t ReplayEngine::collSlot(uint32_t instance, uint32_t round,
                                                              uint32_t sender, uint32_t receiver)
{
    // The slot a new message would get; kept only when the other end has not named it yet.
    uint32_t slot = freeSlots_.empty() ? uint32_t(slots_.size()) : freeSlots_.back();
    if (collSlots_.takeOrPut(receiver, instance, round, sender, slot))
        return slot; // both ends have it now
    if (!freeSlots_.empty()) {
        freeSlots_.pop_back();
        slots_[slot] = Slot{};
    } else {
        slots_.emplace_back();
    }
    return slot;
}

[[gnu::always_inline]] inline const CollectiveSchedule& ReplayEngine::scheduleOf(uint32_t ref)
{
    CachedSchedule& cached = schedules_[ref % schedules_.size()];
    if (cached.ref != ref || !cached.schedule) {
        const ProgramCollective& c = program_.collectives[ref];
        cached.schedule.emplace(c.kind, options_.algorithms[size_t(c.kind)],
                                program_.commSize(c.comm), c.root, double(c.bytes),
                                options_.wideAreaStreams);
        cached.ref = ref;
    }
    return *cached.schedule;
}

bool ReplayEngine::collective(uint32_t r, const Action& a, double& time)
{
    const ProgramCollective& c = program_.collectives[a.ref];
    const uint32_t member = uint32_t(a.value);
    const uint32_t size = program_.commSize(c.comm);
    const CollectiveSchedule& schedule = scheduleOf(a.ref);
    // World rank of a member: the identity for the world communicator.
    const std::vector<uint32_t>& members = program_.comms[c.comm];
    const auto world = [&members](uint32_t m) { return members.empty() ? m : members[m]; };
    // ranks_ never grows during a run. Through this reference the compiler keeps the state's
    // address in a register; through ranks_[r] it reloaded it after every byte stored. The
    // clock likewise stays in a register until the rank stops.
    RankState& st = ranks_[r];
    double t = time;
    if (st.collPhase == kExchanged) { // evaluated by the last member to enter: t is the exit
        st.collPhase = 0;
        return true;
    }
    if (immediate_ && st.collPhase == 0 && st.collRound == 0 && schedule.roundCount() > 0 &&
        schedule.algorithm() == Algorithm::Pairwise) {
        const bool last = exchange(r, a, schedule, t);
        time = t;
        return last;
    }
    for (;;) {
        if (st.collPhase == 0) {
            if (st.collRound == schedule.roundCount()) {
                st.collRound = 0;
                time = t;
                return true;
            }
            if (schedule.phaseStart(st.collRound)) {
                double at = 0;
                if (!barrier_.arrive(a.ref, st.collRound, size, r, t, released_, at)) {
                    time = t;
                    return false; // resumed by the last member to arrive
                }
                t = std::max({t, at, clock_});
                for (uint32_t w : released_) {
                    ranks_[w].collPhase = 3;
                    ranks_[w].now = t;
                    queue_.push(t, kResume, w);
                }
            }
            st.collPhase = 3;
        }
        if (st.collPhase == 3) {
            const CollectiveStep step = schedule.step(member, st.collRound);
            st.collSend = st.collRecv = kNoRank;
            if (step.sendTo != kNoPeer) {
                const uint32_t dst = world(step.sendTo);
                const uint32_t slot = collSlot(a.ref, st.collRound, member, dst);
                Slot& s = slots_[slot];
                s.src = r;
                s.dst = dst;
                s.bytes = step.sendBytes;
                s.placement = step.placement;
                t = postSend(slot, t);
                if (step.detached)
                    slots_[slot].consumed |= 1; // nobody waits for it: the receiver frees it
                else
                    st.collSend = slot;
            }
            if (step.recvFrom != kNoPeer) {
                const uint32_t round = step.recvRound == kNoPeer ? st.collRound : step.recvRound;
                const uint32_t slot = collSlot(a.ref, round, step.recvFrom, r);
                Slot& s = slots_[slot];
                s.src = world(step.recvFrom);
                s.dst = r;
                st.collRecv = slot;
                postRecv(slot, t);
            }
            st.collPhase = 1;
        }
        if (st.collPhase == 1) {
            if (st.collSend != kNoRank && !waitSide(r, st.collSend, true, t)) {
                time = t;
                return false;
            }
            st.collPhase = 2;
        }
        if (st.collRecv != kNoRank && !waitSide(r, st.collRecv, false, t)) {
            time = t;
            return false;
        }
        st.collPhase = 0;
        ++st.collRound;
    }
}

} // namespace rankscope::netsim
