#include "whatif/netsim/replayengine.h"

#include "model/traceerror.h"
#include "whatif/netsim/collectiveschedule.h"

#include <algorithm>

namespace rankscope::netsim {

ReplayEngine::ReplayEngine(const ActionProgram& program, const Machine& machine,
                           EngineOptions options)
    : program_(program), machine_(machine), options_(std::move(options)),
      sendOverhead_(machine.spec().sendOverheadNs), recvOverhead_(machine.spec().recvOverheadNs)
{
    const uint32_t n = program.rankCount();
    pc_.resize(n);
    for (uint32_t r = 0; r < n; ++r)
        pc_[r] = program.rankBegin[r];
    now_ = program.startNs;
    enter_.assign(n, 0);
    mpi_.assign(n, 0);
    blockedSlot_.assign(n, kNoRank);
    blockedSend_.assign(n, 0);
    collRound_.assign(n, 0);
    collPhase_.assign(n, 0);
    collSend_.assign(n, kNoRank);
    collRecv_.assign(n, kNoRank);
    slots_.resize(program.messages.size());
    for (size_t m = 0; m < program.messages.size(); ++m) {
        slots_[m].src = program.messages[m].src;
        slots_[m].dst = program.messages[m].dst;
        slots_[m].bytes = double(program.messages[m].bytes);
    }
    if (options_.recordTimes)
        times_.assign(program.actions.size(), 0.0);
}

ReplayEngine::~ReplayEngine() = default;

ReplayOutcome ReplayEngine::run()
{
    ProgressReporter progress(options_.progress, program_.actions.size());
    const uint32_t n = program_.rankCount();
    for (uint32_t r = 0; r < n; ++r)
        queue_.push(now_[r], kResume, r);
    ReplayOutcome out;
    uint64_t events = 0;
    while (!queue_.empty()) {
        const SimEvent e = queue_.pop();
        clock_ = e.time;
        switch (e.kind) {
        case kResume: advance(e.payload); break;
        case kStartTransfer:
            model_->start(e.payload, slots_[e.payload].src, slots_[e.payload].dst,
                          uint64_t(slots_[e.payload].bytes), e.time);
            break;
        default: model_->onEvent(e.payload, e.time); break;
        }
        if ((++events & 0xFFF) == 0 && !progress.update(actionsDone_)) {
            out.cancelled = true;
            return out;
        }
    }
    if (finished_ < n) {
        std::string stuck;
        uint32_t shown = 0;
        for (uint32_t r = 0; r < n && shown < 5; ++r)
            if (pc_[r] < program_.rankBegin[r + 1]) {
                stuck += (shown++ ? ", " : "") + std::to_string(r);
            }
        throw TraceError("simulation: ranks wait for each other forever (e.g. rank " + stuck +
                         "): the trace's messages or collectives do not pair up");
    }
    progress.report(actionsDone_);
    out.endNs = std::move(now_);
    out.mpiNs = std::move(mpi_);
    out.actionTimes = std::move(times_);
    out.transfers = transfers_;
    return out;
}

void ReplayEngine::advance(uint32_t r)
{
    double t = now_[r];
    size_t pc = pc_[r];
    const size_t end = program_.rankBegin[r + 1];
    while (pc < end) {
        const Action& a = program_.actions[pc];
        switch (a.kind) {
        case ActionKind::Compute: t += a.value; break;
        case ActionKind::Enter: enter_[r] = t; break;
        case ActionKind::Leave: mpi_[r] += t - enter_[r]; break;
        case ActionKind::PostSend:
            if (options_.recordTimes) times_[pc] = t;
            t = postSend(a.ref, t);
            break;
        case ActionKind::PostRecv: postRecv(a.ref, t); break;
        case ActionKind::WaitSend:
        case ActionKind::WaitRecv:
            if (!waitSide(r, a.ref, a.kind == ActionKind::WaitSend, t)) {
                now_[r] = t;
                pc_[r] = pc;
                return;
            }
            break;
        case ActionKind::Collective:
            if (!collective(r, a, t)) {
                now_[r] = t;
                pc_[r] = pc;
                return;
            }
            break;
        }
        if (options_.recordTimes && a.kind != ActionKind::PostSend) times_[pc] = t;
        ++pc;
        ++actionsDone_;
        // Yield when this rank's clock passes the next event, so all ranks move in time order
        // (not at a tie: ranks that wake together would otherwise trade places action by action).
        if (!queue_.empty() && t > queue_.top().time && pc < end) {
            now_[r] = t;
            pc_[r] = pc;
            queue_.push(t, kResume, r);
            return;
        }
    }
    now_[r] = t;
    pc_[r] = pc;
    ++finished_;
}

bool ReplayEngine::waitSide(uint32_t r, uint32_t slot, bool send, double& t)
{
    Slot& s = slots_[slot];
    const double done = send ? s.sendDone : s.recvDone;
    if (done < 0) {
        blockedSlot_[r] = slot;
        blockedSend_[r] = send;
        return false;
    }
    t = std::max(t, done);
    s.consumed |= send ? 1 : 2;
    if (slot >= program_.messages.size() && s.consumed == 3)
        freeSlots_.push_back(slot);
    return true;
}

double ReplayEngine::postSend(uint32_t slot, double t)
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

void ReplayEngine::postRecv(uint32_t slot, double t)
{
    Slot& s = slots_[slot];
    s.recvReady = t;
    if (s.src == kNoRank) { // unmatched: completes at once
        setDone(slot, false, t + recvOverhead_);
        return;
    }
    if (s.sendReady < 0)
        return; // the sender decides when it posts
    if (eager(s)) {
        if (s.arrival >= 0)
            setDone(slot, false, std::max(s.arrival, t) + recvOverhead_);
    } else {
        startTransfer(slot, std::max(s.sendReady, t));
    }
}

void ReplayEngine::startTransfer(uint32_t slot, double time)
{
    ++transfers_;
    const Slot& s = slots_[slot];
    if (!model_->needsTimeOrder() || time <= clock_)
        model_->start(slot, s.src, s.dst, uint64_t(s.bytes), std::max(time, clock_));
    else
        queue_.push(time, kStartTransfer, slot);
}

void ReplayEngine::delivered(uint32_t slot, double time)
{
    Slot& s = slots_[slot];
    s.arrival = time;
    if (eager(s)) {
        if (s.recvReady >= 0)
            setDone(slot, false, std::max(time, s.recvReady) + recvOverhead_);
    } else {
        setDone(slot, true, time);
        setDone(slot, false, time + recvOverhead_);
    }
}

void ReplayEngine::scheduleModelEvent(double time, uint32_t payload)
{
    queue_.push(time, kModel, payload);
}

void ReplayEngine::setDone(uint32_t slot, bool send, double time)
{
    Slot& s = slots_[slot];
    (send ? s.sendDone : s.recvDone) = time;
    const uint32_t owner = send ? s.src : s.dst;
    if (owner != kNoRank && blockedSlot_[owner] == slot && blockedSend_[owner] == uint8_t(send)) {
        blockedSlot_[owner] = kNoRank;
        queue_.push(std::max({time, now_[owner], clock_}), kResume, owner);
    }
}

uint32_t ReplayEngine::collSlot(uint32_t instance, uint32_t round, uint32_t sender)
{
    // The slot a new message would get; kept only when the other end has not named it yet.
    uint32_t slot = freeSlots_.empty() ? uint32_t(slots_.size()) : freeSlots_.back();
    if (collSlots_.takeOrPut(instance, round, sender, slot))
        return slot; // both ends have it now
    if (!freeSlots_.empty()) {
        freeSlots_.pop_back();
        slots_[slot] = Slot{};
    } else {
        slots_.emplace_back();
    }
    return slot;
}

bool ReplayEngine::collective(uint32_t r, const Action& a, double& t)
{
    const ProgramCollective& c = program_.collectives[a.ref];
    const uint32_t member = uint32_t(a.value);
    const uint32_t size = program_.commSize(c.comm);
    const CollectiveSchedule schedule(c.kind, options_.algorithms[size_t(c.kind)], size, c.root,
                                      double(c.bytes), options_.wideAreaStreams);
    for (;;) {
        if (collPhase_[r] == 0) {
            if (collRound_[r] == schedule.roundCount()) {
                collRound_[r] = 0;
                return true;
            }
            if (schedule.phaseStart(collRound_[r])) {
                double at = 0;
                if (!barrier_.arrive(a.ref, collRound_[r], size, r, t, released_, at))
                    return false; // resumed by the last member to arrive
                t = std::max({t, at, clock_});
                for (uint32_t w : released_) {
                    collPhase_[w] = 3;
                    now_[w] = t;
                    queue_.push(t, kResume, w);
                }
            }
            collPhase_[r] = 3;
        }
        if (collPhase_[r] == 3) {
            const CollectiveStep step = schedule.step(member, collRound_[r]);
            collSend_[r] = collRecv_[r] = kNoRank;
            if (step.sendTo != kNoPeer) {
                const uint32_t slot = collSlot(a.ref, collRound_[r], member);
                slots_[slot].src = r;
                slots_[slot].dst = program_.member(c.comm, step.sendTo);
                slots_[slot].bytes = step.sendBytes;
                collSend_[r] = slot;
                t = postSend(slot, t);
            }
            if (step.recvFrom != kNoPeer) {
                const uint32_t round = step.recvRound == kNoPeer ? collRound_[r] : step.recvRound;
                const uint32_t slot = collSlot(a.ref, round, step.recvFrom);
                slots_[slot].src = program_.member(c.comm, step.recvFrom);
                slots_[slot].dst = r;
                collRecv_[r] = slot;
                postRecv(slot, t);
            }
            collPhase_[r] = 1;
        }
        if (collPhase_[r] == 1) {
            if (collSend_[r] != kNoRank && !waitSide(r, collSend_[r], true, t)) return false;
            collPhase_[r] = 2;
        }
        if (collRecv_[r] != kNoRank && !waitSide(r, collRecv_[r], false, t)) return false;
        collPhase_[r] = 0;
        ++collRound_[r];
    }
}

} // namespace rankscope::netsim
