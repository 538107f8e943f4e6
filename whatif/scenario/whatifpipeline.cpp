#include "whatif/scenario/whatifpipeline.h"

#include "model/analysis/runspan.h"
#include "model/trace/traceerror.h"
#include "model/waits/waitstates.h"
#include "whatif/extrap/synthcalibration.h"
#include "whatif/netsim/machine.h"
#include "whatif/netsim/simulation.h"
#include "whatif/netsim/topology.h"
#include "whatif/netsim/traceplacement.h"
#include "whatif/scenario/baselinecache.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <set>
#include <thread>

namespace rankscope::whatif {

namespace {

// Shares of a whole run's progress: the engine, then the wait states of its trace.
constexpr double kEngineShare = 0.85;

std::optional<double> percentOf(int64_t difference, int64_t base)
{
    if (base <= 0) return std::nullopt;
    return 100.0 * double(difference) / double(base);
}

RunTimes spanTimes(const Trace& trace)
{
    const RunSpan span = runSpan(trace);
    RunTimes t{span.duration(), 0};
    for (const RankSpan& r : span.ranks)
        t.mpiNs += r.mpiNs;
    return t;
}

RunTimes replayed(const netsim::SimulationResult& r)
{
    RunTimes t{r.predictedRuntimeNs, 0};
    for (const netsim::RankTimes& rank : r.perRank)
        t.mpiNs += rank.mpiNs;
    return t;
}

netsim::SimulationOptions replayOptions(const Scenario& s)
{
    netsim::SimulationOptions o;
    o.model = s.model;
    o.collectiveAlgorithms = s.collectives;
    o.cpuFactor = s.cpuFactor;
    return o;
}

/// True when `s` changes anything beyond the baseline spec.
bool hasEdits(const Scenario& s)
{
    return !s.overrides.empty() || !s.collectives.empty() || s.cpuFactor != 1.0;
}

int64_t waitTime(const Trace& trace, const ProgressCallback& keepGoing)
{
    WaitStateOptions w;
    w.progress = keepGoing;
    const WaitStateAnalysis waits = analyzeWaitStates(trace, w);
    if (waits.cancelled) throw Cancelled();
    return waits.totalNs;
}

void compare(WhatIfPoint& p, const std::optional<RunTimes>& baseline,
             const std::optional<RunTimes>& measured)
{
    if (baseline) {
        p.baseline = baseline;
        p.effectNs = p.predicted.runNs - baseline->runNs;
        p.effectPct = percentOf(*p.effectNs, baseline->runNs);
        p.mpiEffectNs = p.predicted.mpiNs - baseline->mpiNs;
    }
    if (measured) p.errorPct = percentOf(p.predicted.runNs - measured->runNs, measured->runNs);
}

/// The scenario of each point: the whole scenario, or one per sweep value.
std::vector<Scenario> pointsOf(const Scenario& s)
{
    if (s.sweepParam.empty()) {
        Scenario whole = s;
        return {whole};
    }
    std::vector<Scenario> out;
    for (size_t i = 0; i < s.sweepValues.size(); ++i)
        out.push_back(sweepPoint(s, i));
    return out;
}

/// Runs `work(i)` for every point on up to `threads` threads. Progress: each point's fraction
/// counts 1/n. A point's TraceError becomes its error (a whole run's propagates); Cancelled and
/// anything else stop the sweep and propagate.
void forEachPoint(std::vector<WhatIfPoint>& points, const WhatIfOptions& o, bool sweep,
                  const std::function<void(WhatIfPoint&, const ProgressCallback&)>& work)
{
    const size_t n = points.size();
    std::vector<double> fractions(n, 0.0);
    std::mutex m;
    std::atomic<size_t> next{0};
    std::atomic<bool> stop{false};
    std::exception_ptr failure;
    const auto worker = [&] {
        for (size_t i; !stop && (i = next.fetch_add(1)) < n;) {
            const ProgressCallback keepGoing = [&, i](double f) {
                if (stop) return false;
                std::lock_guard lock(m);
                fractions[i] = f;
                double sum = 0;
                for (double x : fractions)
                    sum += x;
                return !o.progress || o.progress(sum / double(n));
            };
            try {
                work(points[i], keepGoing);
            } catch (const Cancelled&) {
                std::lock_guard lock(m);
                if (!failure) failure = std::current_exception();
                stop = true;
                return;
            } catch (const TraceError& e) {
                if (!sweep) {
                    std::lock_guard lock(m);
                    if (!failure) failure = std::current_exception();
                    stop = true;
                    return;
                }
                points[i].error = e.what();
            } catch (...) {
                std::lock_guard lock(m);
                if (!failure) failure = std::current_exception();
                stop = true;
                return;
            }
            std::lock_guard lock(m);
            fractions[i] = 1.0;
            if (o.onPoint) o.onPoint(points[i]);
        }
    };
    const unsigned threads = std::clamp<unsigned>(o.threads, 1u, 64u);
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads && t < n; ++t)
        pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool)
        t.join();
    if (failure) std::rethrow_exception(failure);
}

WhatIfCalibration calibrationOf(const netsim::CalibrationChoice& c, const std::string& source,
                                uint32_t ranks)
{
    WhatIfCalibration w;
    w.source = source;
    w.sourceRanks = ranks;
    w.applied = c.applied;
    w.partial = c.partial;
    w.uncalibratedErrorPct = c.uncalibratedErrorPct;
    w.calibratedErrorPct = c.calibratedErrorPct;
    w.appliedErrorPct = c.appliedErrorPct;
    w.overrides = c.overrides;
    w.parameters = c.fit.parameters;
    w.reason = c.reason;
    return w;
}

std::string nameOf(const WhatIfInputs& in, size_t i, const Scenario& s)
{
    if (i < in.names.size() && !in.names[i].empty()) return in.names[i];
    return i < s.baselines.size() ? s.baselines[i] : std::string("input ") + std::to_string(i);
}

// --- Replay -------------------------------------------------------------------------------

/// The link classes the trace's messages cross on `spec` as it places the ranks: each
/// point-to-point message's route, and for each communicator a collective uses, the routes from
/// its first member to every other and between neighbours in its order (what the collective
/// algorithms' steps cross). From the routes, not from a replay's link figures: LogGP records
/// only node interfaces. At most 2^20 distinct node pairs are routed.
std::vector<std::string> usedLinkClasses(const Trace& trace, const netsim::NetworkSpec& given)
{
    const netsim::NetworkSpec spec = given.mapping == netsim::RankMapping::Trace
                                         ? netsim::placedAsRecorded(given, trace, nullptr)
                                         : given;
    const uint32_t ranks = uint32_t(trace.rankCount());
    const netsim::Machine machine(spec, ranks);
    std::set<std::pair<uint32_t, uint32_t>> pairs;
    std::set<std::string> used;
    constexpr size_t kMaxPairs = size_t(1) << 20;
    const auto add = [&](uint32_t a, uint32_t b, uint64_t bytes) {
        if (a >= ranks || b >= ranks || a == b || pairs.size() >= kMaxPairs) return;
        const uint32_t na = machine.nodeOf(a), nb = machine.nodeOf(b);
        if (na == nb) {
            if (!spec.intraNodeLink.empty()) used.insert(spec.intraNodeLink);
            return;
        }
        if (!pairs.insert({na, nb}).second) return;
        const int net = machine.channelBetween(na, nb, bytes);
        if (net < 0) return;
        std::vector<uint32_t> route;
        const netsim::Topology& t = machine.topology(size_t(net));
        t.route(na, nb, route);
        for (uint32_t link : route)
            used.insert(spec.links[t.links()[link].linkClass].name);
    };
    for (const Message& m : trace.messages())
        if (m.sendLocation.valid() && m.recvLocation.valid())
            add(trace.rankOf(m.sendLocation).value, trace.rankOf(m.recvLocation).value, m.bytes);
    std::set<uint32_t> comms;
    for (const CollectiveInstance& c : trace.collectives()) {
        if (!comms.insert(c.comm.value).second) continue;
        const std::vector<RankId>& members = trace.communicator(c.comm).members;
        for (size_t i = 1; i < members.size(); ++i) {
            add(members[0].value, members[i].value, 0);
            add(members[i].value, members[0].value, 0);
            add(members[i - 1].value, members[i].value, 0);
        }
    }
    return std::vector<std::string>(used.begin(), used.end());
}

BaselineReplay computeBaseline(const Trace& trace, const netsim::NetworkSpec& spec,
                               const Scenario& s, bool waits)
{
    netsim::SimulationOptions o;
    o.model = s.model;
    o.buildTrace = waits;
    netsim::SimulationResult r = netsim::simulate(trace, spec, o);
    BaselineReplay b;
    b.span = r.span;
    b.measured.runNs = r.inputRuntimeNs;
    for (const netsim::RankTimes& t : r.perRank)
        b.measured.mpiNs += t.inputMpiNs;
    b.baseline = replayed(r);
    if (waits && r.trace) b.waitNs = waitTime(*r.trace, {});
    b.usedLinkClasses = usedLinkClasses(trace, spec);
    return b;
}

void replayPoint(WhatIfPoint& p, const Trace& trace, const netsim::NetworkSpec& base,
                 const WhatIfOptions& o, bool whole, const ProgressCallback& keepGoing)
{
    const netsim::NetworkSpec edited = base.withOverrides(p.scenario.overrides);
    netsim::SimulationOptions so = replayOptions(p.scenario);
    so.buildTrace = o.waitStates || (whole && o.keepTrace);
    so.linkStats = whole && o.linkStats;
    so.heaviestPerLink = 20; // the network view lists them for a clicked link
    so.progress = progressSlice(keepGoing, 0.0, o.waitStates ? kEngineShare : 1.0);
    netsim::SimulationResult r = netsim::simulate(trace, edited, so);
    if (r.cancelled) throw Cancelled();
    p.predicted = replayed(r);
    p.ranks = uint32_t(trace.rankCount());
    p.perRank = std::move(r.perRank);
    p.messages = r.messages;
    p.predictedWholeRunNs = r.predictedWholeRunNs;
    p.inputWholeRunNs = r.inputWholeRunNs;
    p.stridedFaces = r.stridedFaces;
    p.placementNote = r.placementNote;
    if (r.network) {
        auto picture = std::make_shared<netsim::NetworkPicture>();
        picture->figures = std::move(*r.network);
        picture->layouts = netsim::layoutNetworks(edited);
        p.network = std::move(picture);
    }
    if (r.trace) {
        p.events = r.trace->eventCount();
        if (o.waitStates) p.waitNs = waitTime(*r.trace, progressSlice(keepGoing, kEngineShare, 1));
        if (whole && o.keepTrace) p.trace = std::make_shared<Trace>(std::move(*r.trace));
    }
}

void runReplay(const Scenario& s, const WhatIfInputs& in, const WhatIfOptions& o, WhatIfResult& out)
{
    const std::shared_ptr<const Trace>& trace = in.baselines.front();
    netsim::NetworkSpec base = baselineSpec(s, in.fileSpec);
    if (s.calibrate == "on") {
        netsim::SimulationOptions fit;
        fit.model = s.model;
        const netsim::CalibrationChoice c = netsim::chooseCalibration(*trace, base, fit);
        out.calibration = calibrationOf(c, nameOf(in, 0, s), uint32_t(trace->rankCount()));
        base = c.spec;
    }
    // Every edit checked before the long part: a typo fails at once, naming the key.
    std::vector<WhatIfPoint> points;
    for (Scenario& p : pointsOf(s)) {
        (void)base.withOverrides(p.overrides);
        points.push_back(WhatIfPoint{});
        points.back().scenario = std::move(p);
    }
    const auto compute = [&] { return computeBaseline(*trace, base, s, o.waitStates); };
    const BaselineReplay b = o.cache ? o.cache->get(trace, base, s.model, compute) : compute();
    if (o.progress && !o.progress(0.0)) throw Cancelled();
    out.span = b.span;
    out.baseline = b.baseline;
    out.baselineWaitNs = b.waitNs;
    std::optional<RunTimes> measured = b.measured;
    if (in.measured && in.measured != trace) {
        measured = spanTimes(*in.measured);
        out.span = runSpan(*in.measured).name();
    }
    out.measured = measured;
    out.baselineErrorPct = percentOf(b.baseline.runNs - measured->runNs, measured->runNs);
    if (b.usedLinkClasses) {
        std::vector<netsim::SpecOverride> edits;
        for (const WhatIfPoint& p : points)
            for (const netsim::SpecOverride& e : p.scenario.overrides)
                if (std::none_of(edits.begin(), edits.end(),
                                 [&](const netsim::SpecOverride& x) { return x.key == e.key; }))
                    edits.push_back(e);
        out.idleEdits = idleLinkEdits(edits, *b.usedLinkClasses);
        for (const auto& [key, why] : out.idleEdits)
            out.warnings.push_back(key + ": " + why);
    }
    for (size_t i = 0; i < points.size(); ++i) {
        points[i].index = s.sweepParam.empty() ? -1 : int(i);
        points[i].value = s.sweepParam.empty() ? std::string() : s.sweepValues[i];
    }
    const bool sweep = !s.sweepParam.empty();
    forEachPoint(points, o, sweep, [&](WhatIfPoint& p, const ProgressCallback& keepGoing) {
        replayPoint(p, *trace, base, o, !sweep, keepGoing);
        compare(p, b.baseline, measured);
    });
    out.runs = std::move(points);
    if (s.engine == "simgrid") {
        if (!o.peer) {
            out.peerError = "no SimGrid engine is available to this program";
            return;
        }
        try {
            out.peer = o.peer->replay(*trace, base.withOverrides(s.overrides), replayOptions(s),
                                      nameOf(in, 0, s), o.progress);
            if (!out.peer->placementNote.empty()) out.notes.push_back(out.peer->placementNote);
        } catch (const Cancelled&) {
            throw;
        } catch (const std::exception& e) {
            out.peerError = e.what();
        }
    }
}

// --- Scale --------------------------------------------------------------------------------

struct ScaleSetup
{
    std::vector<const Trace*> traces;
    extrap::SynthesisOptions synthesis;
    std::optional<RunTimes> measured;
};

/// The calibrated, placed baseline spec for `target` (or the uncalibrated one), with the
/// calibration recorded in `out` once.
netsim::NetworkSpec scaleSpec(const Scenario& s, const WhatIfInputs& in,
                              const std::vector<const Trace*>& traces, uint32_t target,
                              WhatIfResult& out, std::mutex& m)
{
    const netsim::NetworkSpec base = baselineSpec(s, in.fileSpec);
    if (s.calibrate == "off") return base;
    netsim::SimulationOptions fit;
    fit.model = s.model;
    try {
        extrap::ScaleCalibration c = extrap::calibrateForTarget(traces, base, target, fit);
        std::lock_guard lock(m);
        if (!out.calibration) {
            WhatIfCalibration w;
            w.source = nameOf(in, c.source, s);
            w.sourceRanks = c.sourceRanks;
            w.applied = c.applied;
            w.partial = c.partial;
            w.uncalibratedErrorPct = c.fit.before.errorPct;
            w.calibratedErrorPct = c.fit.after.errorPct;
            w.appliedErrorPct = c.applied ? c.appliedErrorPct : c.fit.before.errorPct;
            w.overrides = c.overrides;
            w.parameters = c.fit.parameters;
            w.placement = c.placement;
            w.reason = c.note;
            out.calibration = std::move(w);
        }
        return c.spec;
    } catch (const Cancelled&) {
        throw;
    } catch (const TraceError& e) {
        if (s.calibrate == "on") throw;
        std::lock_guard lock(m);
        const std::string note = std::string("the spec was not calibrated to the inputs (") +
                                 e.what() + "); the replay uses it as it is";
        if (std::find(out.notes.begin(), out.notes.end(), note) == out.notes.end())
            out.notes.push_back(note);
        return base;
    }
}

extrap::SynthesisResult synthesised(const std::vector<const Trace*>& traces,
                                    const netsim::NetworkSpec& spec, extrap::SynthesisOptions o,
                                    const Scenario& p, bool edits, const ProgressCallback& keep)
{
    o.target = p.target;
    o.progress = keep;
    extrap::ReplayChoice replay;
    replay.model = p.model;
    if (edits) {
        replay.collectiveAlgorithms = p.collectives;
        replay.cpuFactor = p.cpuFactor;
    }
    extrap::SynthesisResult r =
        extrap::synthesise(traces, edits ? spec.withOverrides(p.overrides) : spec, o, replay);
    if (!r.refused.empty()) {
        std::string why = "cannot predict " + std::to_string(p.target) + " ranks:";
        for (const extrap::Refusal& f : r.refused)
            why += "\n  " + (f.callSite.empty() ? std::string("(program)") : f.callSite) + ": " +
                   f.reason;
        throw SynthesisRefused(why, r.refused);
    }
    if (r.cancelled || !r.trace) throw Cancelled();
    return r;
}

void runScale(const Scenario& s, const WhatIfInputs& in, const WhatIfOptions& o, WhatIfResult& out)
{
    ScaleSetup setup;
    for (size_t i = 0; i < in.baselines.size(); ++i) {
        setup.traces.push_back(in.baselines[i].get());
        setup.synthesis.traceNames.push_back(nameOf(in, i, s));
    }
    setup.synthesis.method =
        s.method == "classic" ? extrap::Method::Classic : extrap::Method::Rankscope;
    setup.synthesis.seed = s.seed;
    setup.synthesis.maxEvents = o.maxEvents;
    setup.synthesis.maxUnruledShare = o.maxUnruledShare;
    if (in.measured) {
        setup.measured = spanTimes(*in.measured);
        out.span = runSpan(*in.measured).name();
        out.measured = setup.measured;
    }
    std::vector<WhatIfPoint> points;
    for (Scenario& p : pointsOf(s)) {
        points.push_back(WhatIfPoint{});
        points.back().scenario = std::move(p);
    }
    for (size_t i = 0; i < points.size(); ++i) {
        points[i].index = s.sweepParam.empty() ? -1 : int(i);
        points[i].value = s.sweepParam.empty() ? std::string() : s.sweepValues[i];
    }
    std::mutex m;
    // One calibration for every point of the same target (a target sweep places each anew).
    const netsim::NetworkSpec common = s.sweepParam == "target"
                                           ? netsim::NetworkSpec()
                                           : scaleSpec(s, in, setup.traces, s.target, out, m);
    const bool sweep = !s.sweepParam.empty();
    forEachPoint(points, o, sweep, [&](WhatIfPoint& p, const ProgressCallback& keepGoing) {
        const netsim::NetworkSpec base =
            s.sweepParam == "target"
                ? scaleSpec(p.scenario, in, setup.traces, p.scenario.target, out, m)
                : common;
        const bool edits = hasEdits(p.scenario);
        const double engineShare = o.waitStates ? kEngineShare : 1.0;
        const double editedFrom = edits ? engineShare / 2 : 0.0;
        std::optional<RunTimes> baseline;
        if (edits) {
            const extrap::SynthesisResult b =
                synthesised(setup.traces, base, setup.synthesis, p.scenario, false,
                            progressSlice(keepGoing, 0.0, editedFrom));
            baseline = spanTimes(*b.trace);
        }
        extrap::SynthesisResult r =
            synthesised(setup.traces, base, setup.synthesis, p.scenario, true,
                        progressSlice(keepGoing, editedFrom, engineShare));
        Trace& trace = *r.trace;
        p.predicted = spanTimes(trace);
        p.ranks = uint32_t(trace.rankCount());
        p.events = trace.eventCount();
        if (!baseline) baseline = p.predicted;
        compare(p, baseline, setup.measured);
        if (in.measured && in.measured->rankCount() == trace.rankCount())
            p.structure = extrap::compareStructure(trace, *in.measured, in.measuredName);
        if (o.waitStates) p.waitNs = waitTime(trace, progressSlice(keepGoing, engineShare, 1.0));
        {
            std::lock_guard lock(m);
            if (!r.machineNote.empty() &&
                std::find(out.notes.begin(), out.notes.end(), r.machineNote) == out.notes.end())
                out.notes.push_back(r.machineNote);
            for (const std::string& n : r.notes)
                if (std::find(out.notes.begin(), out.notes.end(), n) == out.notes.end())
                    out.notes.push_back(n);
        }
        if (!sweep && o.keepTrace) p.trace = std::make_shared<Trace>(std::move(trace));
        r.trace.reset();
        p.synthesis = std::make_shared<const extrap::SynthesisResult>(std::move(r));
    });
    out.runs = std::move(points);
}

} // namespace

netsim::NetworkSpec baselineSpec(const Scenario& s, const netsim::NetworkSpec& fileSpec)
{
    return fileSpec.withOverrides(s.baselineOverrides);
}

std::vector<std::pair<std::string, std::string>>
idleLinkEdits(const std::vector<netsim::SpecOverride>& overrides,
              const std::vector<std::string>& usedLinkClasses)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const netsim::SpecOverride& o : overrides) {
        if (!o.key.starts_with("links.")) continue;
        const size_t dot = o.key.find('.', 6);
        const std::string cls = o.key.substr(6, dot == std::string::npos ? dot : dot - 6);
        if (std::find(usedLinkClasses.begin(), usedLinkClasses.end(), cls) != usedLinkClasses.end())
            continue;
        std::string used;
        for (const std::string& c : usedLinkClasses)
            used += (used.empty() ? "" : ", ") + c;
        out.emplace_back(o.key, "no message crosses a '" + cls +
                                    "' link in the baseline replay (under its mapping they "
                                    "cross " +
                                    (used.empty() ? std::string("no link at all") : used) +
                                    "): this edit cannot change the answer");
    }
    return out;
}

WhatIfResult runWhatIf(const Scenario& s, const WhatIfInputs& in, const WhatIfOptions& options)
{
    if (const std::string problem = validate(s); !problem.empty())
        throw TraceError("scenario '" + s.name + "': " + problem);
    if (in.baselines.size() != s.baselines.size())
        throw TraceError("scenario '" + s.name + "': its baseline traces are not loaded");
    for (const auto& t : in.baselines)
        if (!t) throw TraceError("scenario '" + s.name + "': a baseline trace is missing");
    WhatIfResult out;
    for (size_t i = 0; i < in.baselines.size(); ++i) {
        const TraceDiagnostics& d = in.baselines[i]->diagnostics();
        out.inputs.push_back({s.baselines[i], d.partial, d.warnings});
    }
    if (in.measured) {
        const TraceDiagnostics& d = in.measured->diagnostics();
        out.inputs.push_back({s.compareWith, d.partial, d.warnings});
    }
    out.name = s.name;
    out.kind = s.kind;
    out.sweepParam = s.sweepParam;
    if (s.kind == ScenarioKind::Replay)
        runReplay(s, in, options, out);
    else if (s.kind == ScenarioKind::Scale)
        runScale(s, in, options, out);
    else
        out.extrapolation = runExtrapolation(s, in, options.progress);
    return out;
}

} // namespace rankscope::whatif
