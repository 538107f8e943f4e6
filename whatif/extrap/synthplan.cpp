#include "whatif/extrap/synthplan.h"

#include "model/trace/trace.h"
#include "model/trace/traceerror.h"
#include "whatif/extrap/synthfit.h"
#include "whatif/extrap/synthgraph.h"
#include "whatif/extrap/synthroles.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <set>

namespace rankscope::extrap {

namespace synth {

uint32_t Role::stepAt(size_t pos) const
{
    if (pos < form.prefix.size()) return form.prefix[pos];
    pos -= form.prefix.size();
    if (pos < form.body.size()) return form.body[pos];
    return form.suffix[pos - form.body.size()];
}

size_t Role::positionOf(uint64_t k, uint64_t count) const
{
    const size_t p = form.prefix.size(), b = form.body.size();
    if (k < p) return size_t(k);
    k -= p;
    if (k < b * count) return p + size_t(k % b);
    return p + b + size_t(k - b * count);
}

size_t Role::inputPosition(size_t scale, uint64_t k, uint64_t count) const
{
    if (scale >= inputForms.size() || inputForms[scale].toFull.empty()) return positionOf(k, count);
    const ScaleForm& f = inputForms[scale];
    size_t pos = 0;
    if (k < f.prefix)
        pos = size_t(k);
    else if (k - f.prefix < f.body * count)
        pos = f.prefix + size_t((k - f.prefix) % f.body);
    else
        pos = f.prefix + f.body + size_t(k - f.prefix - f.body * count);
    return f.toFull[pos];
}

int32_t SynthesisPlan::roleOf(uint32_t r, const ProcessGrid* grid) const
{
    return roleOfClass[placement.classOf(r, target, grid)];
}

} // namespace synth

namespace {

using namespace synth;

std::string labelOf(const SynthesisOptions& o, size_t i, const Trace& t)
{
    const std::string ranks = std::to_string(t.rankCount()) + " ranks";
    return i < o.traceNames.size() ? o.traceNames[i] + " (" + ranks + ")" : "the trace of " + ranks;
}

void validate(const std::vector<const Trace*>& traces, const SynthesisOptions& o)
{
    if (o.target < 1) throw TraceError("the target scale must be at least 1 rank");
    if (o.target > kMaxSynthesisRanks)
        throw TraceError("a target of " + std::to_string(o.target) +
                         " ranks is beyond what can be "
                         "synthesised (at most " +
                         std::to_string(kMaxSynthesisRanks) + " ranks)");
    if (!(o.maxUnruledShare >= 0 && o.maxUnruledShare <= 1))
        throw TraceError("the largest share of unruled intervals must be within 0..1 (0 %..100 %)");
    if (traces.size() < 3)
        throw TraceError(
            "synthesis needs traces of one program at 3 or more distinct scales (got " +
            std::to_string(traces.size()) + ")");
    for (size_t i = 0; i < traces.size(); ++i) {
        if (!traces[i]) throw TraceError("synthesis was given a null trace");
        if (traces[i]->rankCount() == 0)
            throw TraceError(labelOf(o, i, *traces[i]) + " has no ranks");
        for (size_t j = 0; j < i; ++j)
            if (traces[j]->rankCount() == traces[i]->rankCount())
                throw TraceError(labelOf(o, j, *traces[j]) + " and " + labelOf(o, i, *traces[i]) +
                                 " have the same scale: each scale may be given once");
    }
}

std::set<uint32_t> callSitesOf(const ScaleSkeleton& s, const SkeletonContext& ctx)
{
    std::set<uint32_t> steps, sites;
    for (const RankSteps& r : s.perRank)
        steps.insert(r.steps.begin(), r.steps.end());
    for (uint32_t step : steps)
        if (ctx.steps.shape(step).callSite != kNoSymbol)
            sites.insert(ctx.steps.shape(step).callSite);
    return sites;
}

std::string listOf(const std::vector<uint32_t>& ids, const SkeletonContext& ctx)
{
    std::string s;
    for (size_t i = 0; i < ids.size() && i < 5; ++i)
        s += (i ? ", " : "") + std::string(ctx.symbols.name(CallSiteId(ids[i])));
    if (ids.size() > 5) s += " and " + std::to_string(ids.size() - 5) + " more";
    return s.empty() ? "none" : s;
}

/// Call sites may change with the scale (coarse grid levels, say), but most of each scale's
/// call sites must be shared by every scale, else the traces are of different programs. A call
/// site present at some scales only gets the rule "present from n >= k" when it is present at
/// exactly the scales from some k on (a note), else a warning names it.
void checkSameProgram(const std::vector<ScaleSkeleton>& scales, SynthesisPlan& plan)
{
    const SkeletonContext& ctx = plan.context;
    std::vector<std::set<uint32_t>> sites;
    for (const ScaleSkeleton& s : scales)
        sites.push_back(callSitesOf(s, ctx));
    std::set<uint32_t> common = sites.front(), any;
    for (const std::set<uint32_t>& s : sites) {
        std::set<uint32_t> both;
        std::set_intersection(common.begin(), common.end(), s.begin(), s.end(),
                              std::inserter(both, both.begin()));
        common = std::move(both);
        any.insert(s.begin(), s.end());
    }
    for (size_t k = 1; k < scales.size(); ++k) {
        if (2 * common.size() > sites[k].size() && 2 * common.size() > sites.front().size())
            continue;
        const std::set<uint32_t>& first = sites.front();
        const std::set<uint32_t>& other = sites[k];
        std::vector<uint32_t> onlyA, onlyB;
        std::set_difference(first.begin(), first.end(), other.begin(), other.end(),
                            std::back_inserter(onlyA));
        std::set_difference(other.begin(), other.end(), first.begin(), first.end(),
                            std::back_inserter(onlyB));
        throw TraceError(scales.front().label + " and " + scales[k].label +
                         " are not traces of the same program: no more than half of their MPI "
                         "call sites are shared by every scale (only in the first: " +
                         listOf(onlyA, ctx) + "; only in the second: " + listOf(onlyB, ctx) + ")");
    }
    std::vector<uint32_t> unruled;
    for (const uint32_t site : any) {
        if (common.count(site)) continue;
        size_t from = 0;
        while (from < sites.size() && !sites[from].count(site))
            ++from;
        bool fromOn = true;
        for (size_t k = from; k < sites.size(); ++k)
            fromOn = fromOn && sites[k].count(site) > 0;
        if (fromOn)
            plan.notes.push_back(
                "the call site " + std::string(ctx.symbols.name(CallSiteId(site))) +
                " is present from " + std::to_string(scales[from].ranks) +
                " ranks on (rule: present for n >= " + std::to_string(scales[from].ranks) + ")");
        else
            unruled.push_back(site);
    }
    if (!unruled.empty())
        plan.warnings.push_back("call sites present at some input scales and not others, by no "
                                "rule in the scale, are carried as the nearest scale shows them: " +
                                listOf(unruled, ctx));
}

std::string eventLimitText(const SynthesisOptions& o, uint64_t events, bool atLeast)
{
    return "the predicted trace at " + std::to_string(o.target) + " ranks would hold " +
           (atLeast ? "at least " : "") + std::to_string(events) +
           " events, more than the limit of " + std::to_string(o.maxEvents) +
           "; choose a smaller target (or raise the event limit)";
}

/// Refuses absurd targets before any per-rank work at the target: every rank runs at least as
/// many events as the smallest rank of any input.
void checkEventBound(const std::vector<const Trace*>& traces, const SynthesisOptions& o)
{
    uint64_t least = UINT64_MAX;
    for (const Trace* t : traces)
        for (uint32_t r = 0; r < t->rankCount(); ++r)
            least = std::min<uint64_t>(least, t->rankEvents(RankId(r)).size());
    const long double events = (long double)least * o.target;
    if (events > (long double)o.maxEvents)
        throw TraceError(eventLimitText(o, uint64_t(std::min<long double>(events, 1e19L)), true));
}

void addRegions(SynthesisPlan& plan, const std::vector<const Trace*>& bySizeDescending)
{
    SymbolTable& symbols = plan.context.symbols;
    for (const Trace* t : bySizeDescending) {
        for (const Region& r : t->regions()) {
            const CallSiteId sym = symbols.find(t->str(r.name));
            if (!sym.valid() || plan.regions.count(sym.value)) continue;
            plan.regions[sym.value] =
                RegionInfo{std::string(t->str(r.name)), r.role, r.paradigm,
                           r.file.valid() ? std::string(t->str(r.file)) : "", r.line};
        }
    }
    const Trace& largest = *bySizeDescending.front();
    plan.threadName =
        std::string(largest.str(largest.location(largest.rank(RankId(0)).mainLocation).name));
    plan.worldName =
        std::string(largest.str(largest.communicator(largest.worldCommunicator()).name));
}

std::string percentText(double share)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f %%", 100.0 * share);
    return buf;
}

/// Every execution interval the roles run at the target has a timing prediction; one seen at
/// fewer than 3 scales is sampled from the largest scale that shows it, with a warning, unless
/// such intervals together carry more than o.maxUnruledShare of the computation time.
void checkTiming(SynthesisPlan& plan, const std::vector<ScaleSkeleton>& scales,
                 const SynthesisOptions& o)
{
    std::set<std::string> predicted;
    for (const IntervalPrediction& p : plan.timing.intervals)
        predicted.insert(p.name);
    std::set<std::string> seen;
    const SkeletonContext& ctx = plan.context;
    double share = 0;
    for (const Role& role : plan.roles) {
        std::vector<uint32_t> walk = role.form.prefix;
        for (uint64_t i = 0; i < std::min<uint64_t>(role.loopCount, 2); ++i)
            walk.insert(walk.end(), role.form.body.begin(), role.form.body.end());
        walk.insert(walk.end(), role.form.suffix.begin(), role.form.suffix.end());
        const bool callsInit = std::any_of(walk.begin(), walk.end(),
                                           [&](uint32_t s) { return ctx.steps.shape(s).init; });
        DeltaSpan span(callsInit);
        uint32_t previous = kNoSymbol;
        for (uint32_t s : walk) {
            const StepShape& shape = ctx.steps.shape(s);
            if (shape.callSite == kNoSymbol) continue;
            if (span.next(shape.init, shape.finalize)) {
                const std::string name = std::string(ctx.symbols.name(CallSiteId(previous))) +
                                         " - " +
                                         std::string(ctx.symbols.name(CallSiteId(shape.callSite)));
                if (!predicted.count(name) && seen.insert(name).second) {
                    UnruledInterval u;
                    u.name = name;
                    for (const ScaleSkeleton& sc : scales) {
                        const auto it = sc.intervals.find(name);
                        if (it == sc.intervals.end() || it->second.rankMeans.empty()) continue;
                        u.scale = sc.ranks;
                        u.share = sc.deltaTotalNs > 0 ? it->second.totalNs / sc.deltaTotalNs : 0;
                        u.rankMeans = it->second.rankMeans;
                    }
                    if (u.rankMeans.empty()) u.rankMeans = {0.0};
                    share += u.share;
                    plan.unruled.push_back(std::move(u));
                }
            }
            previous = shape.callSite;
        }
    }
    if (plan.unruled.empty()) return;
    std::string list;
    for (size_t i = 0; i < plan.unruled.size(); ++i) {
        const UnruledInterval& u = plan.unruled[i];
        if (i < 5)
            list += (i ? "; " : "") + u.name + " (" + percentText(u.share) + " at " +
                    std::to_string(u.scale) + " ranks)";
    }
    if (plan.unruled.size() > 5)
        list += "; and " + std::to_string(plan.unruled.size() - 5) + " more";
    const std::string what = std::to_string(plan.unruled.size()) +
                             " execution interval(s) seen at fewer than 3 scales, " +
                             percentText(share) + " of the computation time: " + list;
    if (share > o.maxUnruledShare)
        plan.refused.push_back({"", what + "; that is more than the limit of " +
                                        percentText(o.maxUnruledShare) +
                                        " (--max-unruled-share), so the timing cannot be "
                                        "extrapolated"});
    else
        plan.warnings.push_back(what + "; their delta times are sampled from the per-rank means "
                                       "at the largest scale that shows them");
}

/// What the timing extrapolation reads when it differs from the structure's inputs.
struct TimingInputs
{
    const std::vector<const Trace*>* traces = nullptr;
    const SynthesisOptions* options = nullptr;
};

SynthesisPlan planOnce(const std::vector<const Trace*>& traces, const SynthesisOptions& o,
                       bool tagsSetAside, TimingInputs timingInputs)
{
    validate(traces, o);
    checkEventBound(traces, o);
    std::vector<size_t> order(traces.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return traces[a]->rankCount() < traces[b]->rankCount(); });

    SynthesisPlan plan;
    plan.target = o.target;
    plan.method = o.method;
    plan.context.tagsSetAside = tagsSetAside;
    std::vector<ScaleSkeleton> scales;
    const double share = 0.3 / double(traces.size());
    std::set<std::string> issues; // call sites refused already (one reason each)
    for (size_t k = 0; k < order.size(); ++k) {
        const Trace& t = *traces[order[k]];
        scales.push_back(readSkeleton(t, labelOf(o, order[k], t), plan.context,
                                      progressSlice(o.progress, k * share, (k + 1) * share)));
        if (scales.back().cancelled) {
            plan.cancelled = true;
            return plan;
        }
        plan.scales.push_back(scales.back().ranks);
        plan.inputs.push_back(scales.back().label);
        for (const std::string& n : scales.back().notes)
            if (std::find(plan.notes.begin(), plan.notes.end(), n) == plan.notes.end())
                plan.notes.push_back(n);
        for (const SkeletonIssue& i : scales.back().issues)
            if (issues.insert(i.callSite).second)
                plan.refused.push_back({i.callSite, i.reason, i.subCommunicator});
    }
    checkSameProgram(scales, plan);

    std::vector<MemberIndex> members;
    std::vector<std::vector<Edge>> edges;
    for (const ScaleSkeleton& s : scales) {
        members.emplace_back(*s.trace);
        edges.push_back(communicationEdges(*s.trace));
    }
    std::vector<Placement> placements = Placement::candidates();
    for (const Placement& p : gridPlacements(edges, plan.scales))
        placements.push_back(p);
    for (size_t i = 0, n = placements.size(); i < n; ++i)
        placements.push_back(placements[i].withRootApart());
    const auto search = [&](bool carry) {
        std::vector<ScaleGroups> groups;
        for (const ScaleSkeleton& s : scales)
            groups.push_back(groupRanks(s));
        RoleSearch best;
        best.stage = -1;
        std::vector<Refusal> loopFailure; // the first placement whose roles' loops differ
        for (const Placement& p : placements) {
            RoleSearch r = searchRoles(p, scales, groups, members, plan.context, o.target, carry);
            if (r.stage == 1 && loopFailure.empty()) {
                loopFailure = r.failures;
                for (Refusal& f : loopFailure)
                    f.reason = "with " + p.describe(o.target) + ", " + f.reason;
            }
            // Carrying, the placement that carries the fewest roles wins (the first of those).
            if (r.stage > best.stage || (r.stage == 4 && r.carried < best.carried))
                best = std::move(r);
            if (best.stage == 4 && best.carried == 0) break;
        }
        // A placement that got further may still fail on a role no input shows; the loops that
        // differ between scales under another placement are then the likelier cause: say both.
        if (best.stage == 3)
            for (Refusal& f : loopFailure)
                best.failures.push_back(std::move(f));
        return best;
    };
    RoleSearch best = search(false);
    if (best.stage < 4) {
        // Second try: the roles by their MPI calls alone, steps whose gaps differ only in
        // user functions called and returned mapped to the variant most ranks run.
        const std::map<std::string, uint64_t> mapped = canonicaliseSteps(scales, plan.context);
        RoleSearch second = mapped.empty() ? RoleSearch{} : search(false);
        // Last try: roles whose calls differ between scales by no rule are carried from the
        // largest scale that shows them, with a warning (a refusal only when even that fails;
        // its reasons are those of the search without carrying).
        if (second.stage < 4 && best.stage < 4) {
            plan.uncarried =
                !mapped.empty() && second.stage > best.stage ? second.failures : best.failures;
            RoleSearch third = search(true);
            if (third.stage == 4 && mapped.empty()) best = std::move(third);
            if (third.stage == 4) second = std::move(third);
        }
        if (!mapped.empty() && second.stage > best.stage) {
            best = std::move(second);
            uint64_t steps = 0;
            std::string sites;
            for (const auto& [site, count] : mapped) {
                steps += count;
                if (sites.size() < 400) sites += (sites.empty() ? "" : ", ") + site;
            }
            plan.warnings.push_back(
                std::to_string(steps) +
                " MPI calls before which ranks call other user functions than most ranks do "
                "are written as most ranks run them (at " +
                sites + ")");
        }
    }
    plan.placement = best.placement;
    if (best.stage < 4) {
        for (Refusal& f : best.failures)
            plan.refused.push_back(std::move(f));
        return plan;
    }
    for (std::string& n : best.notes)
        plan.notes.push_back(std::move(n));
    for (std::string& w : best.warnings)
        plan.warnings.push_back(std::move(w));
    plan.carriedRoles = best.carried;
    plan.roles = std::move(best.roles);
    plan.roleOfClass = std::move(best.roleOfClass);
    const size_t refusedBefore = plan.refused.size();
    fitRoles(plan, best.members, best.counts, scales, members);
    if (plan.carriedRoles > 0 && plan.refused.size() > refusedBefore) {
        // Carried roles whose sizes or counts cannot be fitted: the reasons the roles could
        // not be found without carrying name what fails.
        plan.refused.resize(refusedBefore);
        plan.refused.insert(plan.refused.end(), plan.uncarried.begin(), plan.uncarried.end());
    }
    if (!plan.refused.empty()) return plan;

    std::vector<const Trace*> descending;
    for (auto it = order.rbegin(); it != order.rend(); ++it)
        descending.push_back(traces[*it]);
    addRegions(plan, descending);
    plan.events = 0;
    for (const Role& role : plan.roles)
        plan.events += role.ranksAtTarget * eventsPerRank(plan, role);
    if (plan.events > o.maxEvents) throw TraceError(eventLimitText(o, plan.events, false));

    ExtrapolationOptions eo;
    eo.method = o.method;
    eo.mode = Mode::Interval;
    eo.target = o.target;
    eo.traceNames = timingInputs.options ? timingInputs.options->traceNames : o.traceNames;
    eo.progress = progressSlice(o.progress, 0.3, 1.0);
    eo.allowInputScaleTarget = true; // synthesis may rebuild an input's scale (to compare)
    plan.timing = extrapolate(timingInputs.traces ? *timingInputs.traces : traces, eo);
    if (plan.timing.cancelled) {
        plan.cancelled = true;
        return plan;
    }
    checkTiming(plan, scales, o);
    plan.withinRankCv = fitWithinRankCv(scales, o.target);
    return plan;
}

/// planOnce with the tags kept, then with them set aside when that carries more.
SynthesisPlan planTagged(const std::vector<const Trace*>& traces, const SynthesisOptions& o,
                         TimingInputs timing)
{
    SynthesisPlan plan = planOnce(traces, o, false, timing);
    if (plan.cancelled || (plan.refused.empty() && plan.carriedRoles == 0)) return plan;
    // Tags that change from rank to rank (a message tagged by its sender's grid coordinates)
    // make ranks that run the same calls with the same partners look different: the roles are
    // looked for once more with the tags set aside, and taken when that plan carries more.
    SynthesisPlan untagged = planOnce(traces, o, true, timing);
    if (untagged.cancelled) return untagged;
    if (!untagged.refused.empty() ||
        (plan.refused.empty() && untagged.carriedRoles >= plan.carriedRoles))
        return plan;
    untagged.notes.push_back(
        "the point-to-point tags differ between ranks that make the same calls with the same "
        "partners, by no rule; the predicted trace's messages carry tag 0 and pair up in the "
        "order they are sent");
    return untagged;
}

} // namespace

SynthesisPlan planSynthesis(const std::vector<const Trace*>& traces, const SynthesisOptions& o)
{
    SynthesisPlan plan = planTagged(traces, o, {});
    // More input scales must only help. The smallest runs can alias what the larger ones tell
    // apart: on a periodic dimension of 2 ranks the neighbours at +1 and -1 are one rank, so
    // NPB BT's forward and backward sweeps at 4 ranks are one run of calls where 9 ranks and more
    // show two. When the plan is refused, or carries roles without a rule, the structure is read
    // again from the larger inputs alone (the smallest left out, one at a time, while 3 scales
    // remain) and taken when that carries more; the timing is still extrapolated from every
    // input, and a warning names what was left out and why.
    std::vector<size_t> ascending(traces.size());
    std::iota(ascending.begin(), ascending.end(), size_t(0));
    std::stable_sort(ascending.begin(), ascending.end(), [&](size_t a, size_t b) {
        return traces[a]->rankCount() < traces[b]->rankCount();
    });
    for (size_t drop = 1; !plan.cancelled && (!plan.refused.empty() || plan.carriedRoles > 0) &&
                          traces.size() - drop >= 3;
         ++drop) {
        std::vector<const Trace*> larger;
        SynthesisOptions fewer = o;
        fewer.traceNames.clear();
        std::string left;
        for (size_t k = 0; k < ascending.size(); ++k) {
            const size_t i = ascending[k];
            if (k < drop) {
                left += (left.empty() ? "" : ", ") + labelOf(o, i, *traces[i]);
                continue;
            }
            larger.push_back(traces[i]);
            if (i < o.traceNames.size()) fewer.traceNames.push_back(o.traceNames[i]);
        }
        if (fewer.traceNames.size() != larger.size()) fewer.traceNames.clear();
        SynthesisPlan alone = planTagged(larger, fewer, {&traces, &o});
        if (alone.cancelled) return alone;
        const bool better = alone.refused.empty() &&
                            (!plan.refused.empty() || alone.carriedRoles < plan.carriedRoles);
        if (!better) continue;
        const Refusal* why = plan.refused.empty() ? nullptr : &plan.refused.front();
        std::string reason =
            why ? (why->callSite.empty() ? "" : why->callSite + ": ") + why->reason
                : std::to_string(plan.carriedRoles) + " role(s) carried without a rule";
        alone.warnings.insert(alone.warnings.begin(),
                              "the calls and messages follow the " + std::to_string(larger.size()) +
                                  " larger inputs; left out of them: " + left +
                                  ", whose calls the larger inputs' rules do not carry (" + reason +
                                  "); its computation times are extrapolated with "
                                  "the others'");
        return alone;
    }
    return plan;
}

} // namespace rankscope::extrap
