#include "model/matching/clockcorrection.h"

#include "model/matching/collectivedependence.h"
#include "model/trace/trace.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

namespace rankscope {

namespace {

constexpr int64_t kNone = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr uint32_t kNoMember = 0xFFFFFFFFu;

/// The dependence the correction enforces: that of the clock-violation check, scans excepted.
CollectiveDependence dependenceOf(const CollectiveInstance& ci)
{
    if (!ci.complete || ci.op == CollectiveOp::Scan || ci.op == CollectiveOp::Exscan)
        return CollectiveDependence::None;
    return collectiveDependence(ci.op);
}

/// The largest and second largest of a set of values, with the location of the largest, so
/// that "largest over the members other than location l" costs O(1).
struct TopTwo
{
    int64_t best = kNone;
    int64_t second = kNone;
    uint32_t bestLocation = kNoMember;
    void add(int64_t v, uint32_t location)
    {
        if (v > best) {
            second = best;
            best = v;
            bestLocation = location;
        } else if (v > second) {
            second = v;
        }
    }
    int64_t without(uint32_t location) const { return location == bestLocation ? second : best; }
};

struct InstanceState
{
    uint32_t scan = 0; ///< members before it have processed their begin
    bool ready = false;
    TopTwo begins; ///< corrected begin times, once ready
    uint32_t rootMember = kNoMember;
};

struct Jump
{
    uint32_t event;
    int64_t delta;
    int64_t windowStart; ///< original time where the amortisation ramp starts
    uint32_t firstEvent; ///< first event of the ramp
};

class Corrector
{
public:
    Corrector(const Trace& trace, const ClockCorrectionOptions& o)
        : trace_(trace), o_(o), n_(trace.locations().size()), lc_(n_), pos_(n_, 0), waiters_(n_),
          jumps_(n_), lastConstrained_(n_, kNoMember), instances_(trace.collectives().size())
    {
        for (size_t l = 0; l < n_; ++l)
            lc_[l].resize(trace.events(LocationId(uint32_t(l))).size());
        for (size_t c = 0; c < instances_.size(); ++c) {
            const CollectiveInstance& ci = trace.collectives()[c];
            for (uint32_t k = 0; k < ci.memberCount; ++k)
                if (trace.rankOf(member(ci, k).location) == ci.root) instances_[c].rootMember = k;
        }
    }

    void forward(ClockCorrection& result)
    {
        std::deque<uint32_t> runnable;
        for (uint32_t l = 0; l < n_; ++l)
            if (!lc_[l].empty()) runnable.push_back(l);
        size_t unfinished = runnable.size();
        bool force = false;
        while (unfinished > 0) {
            if (runnable.empty()) {
                // Every unfinished location waits for another: a cycle no run can produce.
                // Drop the dependency of the earliest blocked event.
                uint32_t pick = 0;
                int64_t earliest = kMax;
                for (uint32_t l = 0; l < n_; ++l)
                    if (pos_[l] < lc_[l].size() && time(l, pos_[l]) < earliest) {
                        earliest = time(l, pos_[l]);
                        pick = l;
                    }
                runnable.push_back(pick);
                force = true;
                ++result.unresolved;
            }
            const uint32_t l = runnable.front();
            runnable.pop_front();
            if (pos_[l] == lc_[l].size()) continue; // woken twice, finished already
            const uint32_t blockedOn = run(l, force);
            force = false;
            if (blockedOn == kNoMember)
                --unfinished;
            else
                waiters_[blockedOn].push_back(l);
            for (uint32_t w : waiters_[l])
                runnable.push_back(w);
            waiters_[l].clear();
        }
        for (const auto& j : jumps_)
            result.jumps += j.size();
    }

    /// Final times: forward times plus the amortisation shifts, capped by the senders' slack.
    std::vector<std::vector<int64_t>> finish()
    {
        std::vector<std::vector<int64_t>> out(n_);
        for (uint32_t l = 0; l < n_; ++l) {
            const size_t n = lc_[l].size();
            std::vector<int64_t> shift(n, 0);
            if (o_.amortize && !jumps_[l].empty()) {
                for (const Jump& j : jumps_[l]) {
                    const int64_t span = time(l, j.event) - j.windowStart;
                    for (uint32_t e = j.firstEvent; e < j.event; ++e) {
                        const int64_t into = time(l, e) - j.windowStart;
                        shift[e] = span <= 0 ? j.delta
                                             : int64_t(std::floor(double(j.delta) * double(into) /
                                                                  double(span)));
                    }
                }
                // Within each jump's window, from the jump backward (shifts are zero from the
                // last jump on, and across a jump the order holds without caps: the jump is
                // larger than any shift before it).
                int64_t cap = kMax;
                size_t next = jumps_[l].size();
                for (size_t e = jumps_[l].back().event; e-- > 0;) {
                    while (next > 0 && jumps_[l][next - 1].event > e)
                        --next, cap = kMax;
                    cap = std::min(cap, slack(l, uint32_t(e)));
                    shift[e] = std::min(shift[e], std::max<int64_t>(0, cap));
                }
            }
            out[l].resize(n);
            for (size_t e = 0; e < n; ++e)
                out[l][e] = lc_[l][e] + shift[e];
        }
        return out;
    }

private:
    const CollectiveMember& member(const CollectiveInstance& ci, uint32_t k) const
    {
        return trace_.collectiveMembers()[ci.firstMember + k];
    }
    int64_t time(uint32_t l, size_t i) const { return trace_.events(LocationId(l)).time(i); }
    bool done(LocationId l, uint32_t event) const { return pos_[l.value] > event; }

    /// Processes location l's events until one waits for another location (returns it) or
    /// the location ends (returns kNoMember).
    uint32_t run(uint32_t l, bool force)
    {
        const EventStream& es = trace_.events(LocationId(l));
        std::vector<int64_t>& lc = lc_[l];
        for (size_t i = pos_[l]; i < es.size(); ++i, force = false) {
            const int64_t t = es.time(i);
            int64_t base = t;
            if (i > 0) {
                const int64_t dt = t - es.time(i - 1);
                base = std::max(t, lc[i - 1] + dt - int64_t(std::floor(o_.decay * double(dt))));
            }
            int64_t need = base;
            bool constrained = false;
            const EventKind kind = es.kind(i);
            if (kind == EventKind::MpiRecv || kind == EventKind::MpiIrecv) {
                const MessageId id = es.message(i);
                if (id.valid() && trace_.message(id).matched()) {
                    const Message& m = trace_.message(id);
                    if (!force && !done(m.sendLocation, m.sendEvent)) return m.sendLocation.value;
                    if (done(m.sendLocation, m.sendEvent))
                        need = std::max(need,
                                        lc_[m.sendLocation.value][m.sendEvent] + o_.minLatencyNs);
                    constrained = true;
                }
            } else if (kind == EventKind::MpiCollectiveEnd && es.collective(i).valid()) {
                const uint32_t blockedOn = collectiveEnd(l, es.collective(i), need, constrained);
                if (blockedOn != kNoMember && !force) return blockedOn;
            }
            lc[i] = need;
            pos_[l] = i + 1;
            if (!constrained) continue;
            if (need > base) {
                const uint32_t prev = lastConstrained_[l];
                const uint32_t first = prev == kNoMember ? 0 : prev + 1;
                const int64_t start = prev == kNoMember ? es.time(0) : es.time(prev);
                jumps_[l].push_back({uint32_t(i), need - base, start, first});
            }
            lastConstrained_[l] = uint32_t(i);
        }
        return kNoMember;
    }

    /// Raises `need` for the end of collective c on location l to what its dependence asks, or
    /// returns the location whose begin it still waits for.
    uint32_t collectiveEnd(uint32_t l, CollectiveId c, int64_t& need, bool& constrained)
    {
        const CollectiveInstance& ci = trace_.collective(c);
        const CollectiveDependence dep = dependenceOf(ci);
        if (dep == CollectiveDependence::None) return kNoMember;
        InstanceState& st = instances_[c.value];
        const bool root = trace_.rankOf(LocationId(l)) == ci.root;
        int64_t latest = kNone;
        if (dep == CollectiveDependence::OneToN) {
            if (root || st.rootMember == kNoMember) return kNoMember;
            const CollectiveMember& r = member(ci, st.rootMember);
            if (!done(r.location, r.beginEvent)) return r.location.value;
            latest = lc_[r.location.value][r.beginEvent];
        } else {
            if (dep == CollectiveDependence::NToOne && !root) return kNoMember;
            while (st.scan < ci.memberCount) {
                const CollectiveMember& m = member(ci, st.scan);
                if (!done(m.location, m.beginEvent)) return m.location.value;
                ++st.scan;
            }
            if (!st.ready) {
                for (uint32_t k = 0; k < ci.memberCount; ++k) {
                    const CollectiveMember& m = member(ci, k);
                    st.begins.add(lc_[m.location.value][m.beginEvent], m.location.value);
                }
                st.ready = true;
            }
            latest = st.begins.without(l);
        }
        constrained = true;
        if (latest != kNone) need = std::max(need, latest + o_.minLatencyNs);
        return kNoMember;
    }

    /// How far event e of location l may move forward without undoing what the forward pass
    /// ensured for the events that depend on it (kMax when none does).
    int64_t slack(uint32_t l, uint32_t e) const
    {
        const EventStream& es = trace_.events(LocationId(l));
        const EventKind kind = es.kind(e);
        if (kind == EventKind::MpiSend || kind == EventKind::MpiIsend) {
            const MessageId id = es.message(e);
            if (!id.valid() || !trace_.message(id).matched()) return kMax;
            const Message& m = trace_.message(id);
            return lc_[m.recvLocation.value][m.recvEvent] - o_.minLatencyNs - lc_[l][e];
        }
        if (kind != EventKind::MpiCollectiveBegin || !es.collective(e).valid()) return kMax;
        const CollectiveInstance& ci = trace_.collective(es.collective(e));
        const CollectiveDependence dep = dependenceOf(ci);
        const uint32_t rootMember = instances_[es.collective(e).value].rootMember;
        int64_t earliestEnd = kMax;
        for (uint32_t k = 0; k < ci.memberCount; ++k) {
            const CollectiveMember& m = member(ci, k);
            if (m.location.value == l) continue;
            const bool waits = dep == CollectiveDependence::NxN ||
                               dep == CollectiveDependence::Barrier ||
                               (dep == CollectiveDependence::OneToN && k != rootMember &&
                                trace_.rankOf(LocationId(l)) == ci.root) ||
                               (dep == CollectiveDependence::NToOne && k == rootMember);
            if (waits) earliestEnd = std::min(earliestEnd, lc_[m.location.value][m.endEvent]);
        }
        return earliestEnd == kMax ? kMax : earliestEnd - o_.minLatencyNs - lc_[l][e];
    }

    const Trace& trace_;
    ClockCorrectionOptions o_;
    size_t n_;
    std::vector<std::vector<int64_t>> lc_;
    std::vector<size_t> pos_;
    std::vector<std::vector<uint32_t>> waiters_;
    std::vector<std::vector<Jump>> jumps_;
    std::vector<uint32_t> lastConstrained_;
    std::vector<InstanceState> instances_;
};

/// A metric sample moves with the first event at or after it (Score-P samples at the Enter or
/// Leave it precedes); after a location's last event, with the last event.
std::vector<int64_t> sampleTimes(const std::vector<int64_t>& samples, const EventStream& es,
                                 const std::vector<int64_t>& corrected)
{
    std::vector<int64_t> out(samples.size());
    size_t e = 0;
    int64_t prev = kNone;
    for (size_t s = 0; s < samples.size(); ++s) {
        while (e < es.size() && es.time(e) < samples[s])
            ++e;
        const size_t ref = e < es.size() ? e : es.size() - 1;
        const int64_t shift = es.empty() ? 0 : corrected[ref] - es.time(ref);
        out[s] = std::max(prev, samples[s] + shift);
        prev = out[s];
    }
    return out;
}

} // namespace

ClockCorrection correctClocks(Trace& trace, const ClockCorrectionOptions& options)
{
    ClockCorrection result;
    result.before = findClockViolations(trace);
    Corrector corrector(trace, options);
    corrector.forward(result);
    const std::vector<std::vector<int64_t>> times = corrector.finish();

    double shifted = 0;
    for (uint32_t l = 0; l < times.size(); ++l) {
        const EventStream& es = trace.events(LocationId(l));
        result.events += es.size();
        for (size_t i = 0; i < es.size(); ++i) {
            const int64_t shift = times[l][i] - es.time(i);
            if (shift == 0) continue;
            ++result.eventsMoved;
            shifted += double(shift);
            result.maxShiftNs = std::max(result.maxShiftNs, shift);
        }
    }
    result.meanShiftNs = result.eventsMoved > 0 ? shifted / double(result.eventsMoved) : 0.0;

    std::vector<std::vector<int64_t>> metricTimes;
    metricTimes.reserve(trace.metricColumns().size());
    for (const MetricColumn& c : trace.metricColumns())
        metricTimes.push_back(
            sampleTimes(c.times, trace.events(c.location), times[c.location.value]));
    trace.setTimes(times, metricTimes);
    result.after = findClockViolations(trace);
    return result;
}

} // namespace rankscope
