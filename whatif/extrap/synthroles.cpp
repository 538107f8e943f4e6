#include "whatif/extrap/synthroles.h"

#include "whatif/extrap/synthruns.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace rankscope::extrap::synth {

namespace {

// Classes a placement can form: 4 positions in each of up to 3 grid dimensions, and rank 0 apart.
constexpr uint32_t kMaxClasses = Placement::kRootClass + 1;

std::string siteName(const SkeletonContext& ctx, uint32_t step)
{
    const uint32_t site = ctx.steps.shape(step).callSite;
    return site == kNoSymbol ? std::string("(after the last MPI call)")
                             : std::string(ctx.symbols.name(CallSiteId(site)));
}

/// The call site of the first step where two sequences differ.
std::string firstDifference(const SkeletonContext& ctx, const std::vector<uint32_t>& a,
                            const std::vector<uint32_t>& b)
{
    const size_t n = std::min(a.size(), b.size());
    size_t i = 0;
    while (i < n && a[i] == b[i])
        ++i;
    if (i < a.size()) return siteName(ctx, a[i]);
    return i < b.size() ? siteName(ctx, b[i]) : std::string();
}

/// Candidate rules of one rank slot, narrowed occurrence by occurrence.
struct SlotRules
{
    std::vector<RankRule> candidates;
    std::optional<RankRule> preset; ///< the only rule allowed (a run's r XOR k)
    bool seen = false;
    bool failed = false;
    uint32_t n = 0, r = 0, p = 0; // the first occurrence, for the refusal
};

class Search
{
public:
    Search(RoleSearch& out, const std::vector<ScaleSkeleton>& scales,
           const std::vector<ScaleGroups>& groups, const std::vector<MemberIndex>& members,
           SkeletonContext& ctx, uint32_t target, bool carry)
        : out_(out), scales_(scales), groups_(groups), memberIndex_(members), ctx_(ctx),
          target_(target), carry_(carry)
    {
    }

    bool sameStepsPerClass();
    bool sameFormAcrossScales();
    bool rulesHold();
    /// The loop count of `steps` (scale k) under role's form without the steps of call sites
    /// scale k never runs (present from a larger scale on); fills role.inputForms[k].
    std::optional<uint64_t> matchWithout(Role& role, size_t k, const std::vector<uint32_t>& steps);
    bool targetCovered();
    /// A grid class no input shows runs the role of the seen class that differs from it in the
    /// fewest dimensions (the first such), with a warning.
    void composeRole(uint32_t cls);
    /// The class's steps as runs whose length changes with the scale (synthruns.h): fills the
    /// role's form at the target, its input forms, XOR partners and aliases, and the counts.
    /// `why` says what failed when they cannot be.
    bool readAsRuns(Role& role, std::vector<uint64_t>& counts, std::string& why);
    /// The class's role as the largest scale showing it runs it; scales running other MPI
    /// calls (beyond the loop count and call sites they lack) are left out of `at` and named
    /// in a warning.
    void carryFromLargest(Role& role, std::vector<std::vector<uint32_t>>& at,
                          std::vector<uint64_t>& counts);

private:
    void fail(std::string site, std::string reason)
    {
        out_.failures.push_back({std::move(site), std::move(reason)});
    }
    void checkSlot(SlotRules& slot, uint32_t n, uint32_t r, uint32_t p, const ProcessGrid* grid,
                   const std::string& site, const std::string& role);

    RoleSearch& out_;
    const std::vector<ScaleSkeleton>& scales_;
    const std::vector<ScaleGroups>& groups_;
    const std::vector<MemberIndex>& memberIndex_;
    SkeletonContext& ctx_; // runs add steps with the tags of copies no input shows
    uint32_t target_;
    bool carry_;
    std::set<std::string> reportedSites_;
    std::vector<std::set<uint32_t>> sitesAt_; // call sites run at each scale
    std::vector<uint32_t> callKey_;           // step -> its MPI call without the gap
    // byClass_[cls][k]: ranks of class cls at scale k
    std::vector<std::vector<std::vector<uint32_t>>> byClass_;
};

bool Search::sameStepsPerClass()
{
    const Placement& pl = out_.placement;
    byClass_.assign(kMaxClasses, std::vector<std::vector<uint32_t>>(scales_.size()));
    for (size_t k = 0; k < scales_.size(); ++k) {
        const uint32_t n = scales_[k].ranks;
        const auto grid = pl.grid(n);
        for (uint32_t r = 0; r < n; ++r) {
            auto& same = byClass_[pl.classOf(r, n, grid ? &*grid : nullptr)][k];
            if (!same.empty() && groups_[k].groupOf[same.front()] != groups_[k].groupOf[r]) {
                const uint32_t a = same.front();
                fail(
                    firstDifference(ctx_, scales_[k].perRank[a].steps, scales_[k].perRank[r].steps),
                    "with " + pl.describe(n) + ", ranks " + std::to_string(a) + " and " +
                        std::to_string(r) + " of " + scales_[k].label + " are both '" +
                        pl.className(pl.classOf(r, n, grid ? &*grid : nullptr)) +
                        "' but make different MPI calls");
                return false;
            }
            same.push_back(r);
        }
    }
    return true;
}

std::optional<uint64_t> Search::matchWithout(Role& role, size_t k,
                                             const std::vector<uint32_t>& steps)
{
    if (sitesAt_.empty()) {
        for (const ScaleGroups& g : groups_) {
            std::set<uint32_t> sites;
            for (const std::vector<uint32_t>* seq : g.sequence)
                for (uint32_t step : *seq)
                    sites.insert(ctx_.steps.shape(step).callSite);
            sitesAt_.push_back(std::move(sites));
        }
    }
    if (callKey_.size() < ctx_.steps.size()) {
        // Steps compared by their MPI call alone: the regions left and entered in the gap
        // before a call change where call sites come and go (the region of a call site left
        // before the next call).
        StepTable keys;
        callKey_.clear();
        for (uint32_t id = 0; id < ctx_.steps.size(); ++id) {
            StepShape key = ctx_.steps.shape(id);
            key.events.erase(key.events.begin(), key.events.begin() + key.callBegin);
            key.callBegin = 0;
            callKey_.push_back(keys.intern(std::move(key)));
        }
    }
    const auto kept = [&](uint32_t step) {
        const uint32_t site = ctx_.steps.shape(step).callSite;
        return site == kNoSymbol || sitesAt_[k].count(site) > 0;
    };
    LoopForm form;
    ScaleForm sf;
    uint32_t pos = 0;
    for (uint32_t step : role.form.prefix) {
        if (kept(step)) form.prefix.push_back(step), sf.toFull.push_back(pos);
        ++pos;
    }
    for (uint32_t step : role.form.body) {
        if (kept(step)) form.body.push_back(step), sf.toFull.push_back(pos);
        ++pos;
    }
    for (uint32_t step : role.form.suffix) {
        if (kept(step)) form.suffix.push_back(step), sf.toFull.push_back(pos);
        ++pos;
    }
    if (sf.toFull.size() == pos) return std::nullopt; // nothing left out: no other match
    const auto keyed = [&](std::vector<uint32_t>& v) {
        for (uint32_t& step : v)
            step = callKey_[step];
    };
    keyed(form.prefix);
    keyed(form.body);
    keyed(form.suffix);
    std::vector<uint32_t> keyedSteps(steps);
    keyed(keyedSteps);
    const auto count = matchLoop(form, keyedSteps);
    if (!count) return std::nullopt;
    sf.prefix = form.prefix.size();
    sf.body = form.body.size();
    role.inputForms[k] = std::move(sf);
    return count;
}

bool Search::readAsRuns(Role& role, std::vector<uint64_t>& counts, std::string& why)
{
    const auto& at = byClass_[role.cls];
    std::vector<RunScale> in;
    for (size_t k = 0; k < at.size(); ++k)
        if (!at[k].empty()) in.push_back({&scales_[k], &memberIndex_[k], &at[k], k});
    auto runs = fitRuns(in, out_.placement, ctx_, target_, scales_.size(), why);
    if (!runs) return false;
    role.form = std::move(runs->form);
    role.inputForms = std::move(runs->inputForms);
    role.xorAt = std::move(runs->xorAt);
    role.alias = std::move(runs->alias);
    role.xorRunFunctions = std::move(runs->xorRunFunctions);
    counts = std::move(runs->counts);
    role.scales.clear();
    for (const RunScale& r : in)
        role.scales.push_back(r.scale->ranks);
    for (std::string& note : runs->notes)
        out_.notes.push_back("'" + role.name + "' ranks: " + std::move(note));
    return true;
}

void Search::carryFromLargest(Role& role, std::vector<std::vector<uint32_t>>& at,
                              std::vector<uint64_t>& counts)
{
    size_t last = 0;
    for (size_t k = 0; k < at.size(); ++k)
        if (!at[k].empty()) last = k;
    const std::vector<uint32_t>& lastSteps = scales_[last].perRank[at[last].front()].steps;
    role.form = findLoop(lastSteps).first;
    role.inputForms.assign(at.size(), {});
    role.xorAt.clear();
    role.alias.clear();
    role.xorRunFunctions.clear();
    role.scales.clear();
    counts.assign(at.size(), 0);
    std::set<std::string> sites;
    std::string left;
    for (size_t k = 0; k < at.size(); ++k) {
        if (at[k].empty()) continue;
        const std::vector<uint32_t>& steps = scales_[k].perRank[at[k].front()].steps;
        auto count = matchLoop(role.form, steps);
        if (!count) count = matchWithout(role, k, steps);
        if (!count) {
            sites.insert(firstDifference(ctx_, lastSteps, steps));
            left += (left.empty() ? "" : ", ") + std::to_string(scales_[k].ranks);
            at[k].clear();
            continue;
        }
        counts[k] = *count;
        role.scales.push_back(scales_[k].ranks);
    }
    std::string siteList;
    for (const std::string& site : sites)
        siteList += (siteList.empty() ? "" : ", ") + site;
    ++out_.carried;
    out_.warnings.push_back("the '" + role.name + "' ranks make other MPI calls at " + left +
                            " ranks than at " + std::to_string(scales_[last].ranks) +
                            " ranks, by no rule in the scale (first at " + siteList +
                            "): carried as they run at " + std::to_string(scales_[last].ranks) +
                            " ranks, their partner rules from the scales that run the same calls");
}

bool Search::sameFormAcrossScales()
{
    out_.roleOfClass.assign(kMaxClasses, -1);
    for (uint32_t cls = 0; cls < kMaxClasses; ++cls) {
        std::vector<std::vector<uint32_t>> at = byClass_[cls];
        // The reference is the scale where the class's ranks run the most steps.
        size_t ref = SIZE_MAX;
        for (size_t k = 0; k < at.size(); ++k)
            if (!at[k].empty() &&
                (ref == SIZE_MAX || scales_[k].perRank[at[k].front()].steps.size() >
                                        scales_[ref].perRank[at[ref].front()].steps.size()))
                ref = k;
        if (ref == SIZE_MAX) continue;
        Role role;
        role.cls = cls;
        role.name = out_.placement.className(cls);
        const std::vector<uint32_t>& refSteps = scales_[ref].perRank[at[ref].front()].steps;
        role.form = findLoop(refSteps).first;
        std::vector<uint64_t> counts(at.size(), 0);
        role.inputForms.assign(at.size(), {});
        for (size_t k = 0; k < at.size(); ++k) {
            if (at[k].empty()) continue;
            const std::vector<uint32_t>& steps = scales_[k].perRank[at[k].front()].steps;
            auto count = matchLoop(role.form, steps);
            if (!count) count = matchWithout(role, k, steps);
            std::string why;
            if (!count && !readAsRuns(role, counts, why)) {
                if (carry_) {
                    carryFromLargest(role, at, counts);
                    break;
                }
                fail(firstDifference(ctx_, refSteps, steps),
                     "the '" + role.name + "' ranks make different MPI calls in " +
                         scales_[ref].label + " and " + scales_[k].label +
                         ", beyond a loop running more or fewer times (read as runs whose "
                         "length changes with the scale: " +
                         why + ")");
                return false;
            }
            if (!count) break; // read as runs: every scale is placed
            counts[k] = *count;
            role.scales.push_back(scales_[k].ranks);
        }
        out_.roleOfClass[cls] = int32_t(out_.roles.size());
        out_.roles.push_back(std::move(role));
        out_.members.push_back(at);
        out_.counts.push_back(std::move(counts));
    }
    return true;
}

void Search::checkSlot(SlotRules& slot, uint32_t n, uint32_t r, uint32_t p, const ProcessGrid* grid,
                       const std::string& site, const std::string& role)
{
    if (slot.failed) return;
    if (!slot.seen) {
        slot.seen = true;
        slot.n = n;
        slot.r = r;
        slot.p = p;
        if (p != kNoPartner && slot.preset) {
            if (slot.preset->evaluate(r, n, grid) == p) slot.candidates = {*slot.preset};
        } else if (p != kNoPartner) {
            slot.candidates = rulesFor(r, p, n, grid);
        }
    } else {
        std::erase_if(slot.candidates,
                      [&](const RankRule& rule) { return rule.evaluate(r, n, grid) != p; });
    }
    if (!slot.candidates.empty()) return;
    slot.failed = true;
    if (!reportedSites_.insert(role + '\n' + site).second) return; // one reason per call site
    const auto who = [](uint32_t nn, uint32_t rr, uint32_t pp) {
        return "rank " + std::to_string(rr) + " -> " +
               (pp == kNoPartner ? std::string("none") : std::to_string(pp)) + " at " +
               std::to_string(nn) + " ranks";
    };
    fail(site, "the partners of the '" + role +
                   "' ranks follow no rule (constant rank, n-k, r+k, "
                   "(r+k) mod n, grid neighbour): " +
                   who(slot.n, slot.r, slot.p) + " but " + who(n, r, p));
}

bool Search::rulesHold()
{
    for (size_t ri = 0; ri < out_.roles.size(); ++ri) {
        Role& role = out_.roles[ri];
        const uint32_t rankSlots = layoutSlots(role, ctx_.steps).first;
        std::vector<SlotRules> slots(rankSlots);
        role.rankSlotSite.assign(rankSlots, kNoSymbol);
        for (size_t pos = 0; pos < role.positions(); ++pos) {
            const StepShape& shape = ctx_.steps.shape(role.stepAt(pos));
            uint32_t slot = role.rankSlotBase[pos];
            const int64_t x = role.xorAt.empty() ? 0 : role.xorAt[pos];
            for (const EventShape& e : shape.events)
                for (int i = 0; i < rankParams(e); ++i) {
                    if (x != 0) slots[slot].preset = RankRule{RuleKind::Xor, x, {}};
                    role.rankSlotSite[slot++] = shape.callSite;
                }
        }
        for (size_t k = 0; k < scales_.size(); ++k) {
            const ScaleSkeleton& sc = scales_[k];
            const auto grid = out_.placement.grid(sc.ranks);
            const ProcessGrid* g = grid ? &*grid : nullptr;
            for (const uint32_t r : out_.members[ri][k]) {
                const RankSteps& rs = sc.perRank[r];
                for (size_t j = 0; j < rs.steps.size(); ++j) {
                    const size_t pos = role.inputPosition(k, j, out_.counts[ri][k]);
                    const StepShape& shape = ctx_.steps.shape(rs.steps[j]);
                    uint32_t slot = role.rankSlotBase[pos];
                    for (uint32_t e = 0; e < shape.events.size(); ++e) {
                        if (rankParams(shape.events[e]) == 0) continue;
                        const EventParams p =
                            eventParams(*sc.trace, memberIndex_[k], RankId(r), rs.eventAt(j, e));
                        checkSlot(slots[slot++], sc.ranks, r, p.partner, g,
                                  siteName(ctx_, rs.steps[j]), role.name);
                    }
                }
            }
        }
        for (const SlotRules& s : slots)
            role.rankRules.push_back(s.preset               ? *s.preset
                                     : s.candidates.empty() ? RankRule{}
                                                            : s.candidates.front());
        // Positions no input shows (the longer runs at the target) take their copy's rules.
        for (size_t pos = 0; pos < role.positions(); ++pos) {
            const size_t from = role.aliasOf(pos);
            if (from == pos) continue;
            const uint32_t count =
                (pos + 1 < role.positions() ? role.rankSlotBase[pos + 1] : rankSlots) -
                role.rankSlotBase[pos];
            for (uint32_t i = 0; i < count; ++i) {
                SlotRules& own = slots[role.rankSlotBase[pos] + i];
                if (!own.seen && !own.preset)
                    role.rankRules[role.rankSlotBase[pos] + i] =
                        role.rankRules[role.rankSlotBase[from] + i];
            }
        }
    }
    return out_.failures.empty();
}

void Search::composeRole(uint32_t cls)
{
    if (out_.placement.gridDims() == 0 || cls == Placement::kRootClass) return;
    int best = -1, bestDiff = 0;
    for (uint32_t seen = 0; seen < Placement::kRootClass; ++seen) {
        if (out_.roleOfClass[seen] < 0 || out_.roles[size_t(out_.roleOfClass[seen])].cls != seen)
            continue;
        int diff = 0;
        for (int d = 0; d < out_.placement.gridDims(); ++d)
            diff += ((seen >> (2 * d)) & 3) != ((cls >> (2 * d)) & 3) ? 1 : 0;
        if (best < 0 || diff < bestDiff) best = int(seen), bestDiff = diff;
    }
    if (best < 0) return;
    out_.roleOfClass[cls] = out_.roleOfClass[uint32_t(best)];
    ++out_.carried;
    out_.warnings.push_back("the '" + out_.placement.className(cls) + "' ranks at " +
                            std::to_string(target_) +
                            ", a position no input shows, run the calls of the '" +
                            out_.placement.className(uint32_t(best)) +
                            "' ranks (the seen position nearest by dimension)");
}

bool Search::targetCovered()
{
    const Placement& pl = out_.placement;
    const auto grid = pl.grid(target_);
    const ProcessGrid* g = grid ? &*grid : nullptr;
    std::vector<bool> reported(out_.roles.size(), false);
    for (uint32_t r = 0; r < target_; ++r) {
        const uint32_t cls = pl.classOf(r, target_, g);
        if (out_.roleOfClass[cls] < 0 && carry_) composeRole(cls);
        const int32_t ri = out_.roleOfClass[cls];
        if (ri < 0) {
            fail("", "with " + pl.describe(target_) + ", rank " + std::to_string(r) + " of " +
                         std::to_string(target_) + " would be '" + pl.className(cls) +
                         "', a role none of the input traces shows");
            return false;
        }
        Role& role = out_.roles[size_t(ri)];
        ++role.ranksAtTarget;
        if (reported[size_t(ri)]) continue;
        for (size_t s = 0; s < role.rankRules.size(); ++s) {
            if (role.rankRules[s].evaluate(r, target_, g)) continue;
            reported[size_t(ri)] = true;
            const uint32_t site = role.rankSlotSite[s];
            fail(site == kNoSymbol ? std::string()
                                   : std::string(ctx_.symbols.name(CallSiteId(site))),
                 "the '" + role.name + "' rule " + role.rankRules[s].text() + " gives rank " +
                     std::to_string(r) + " no partner among " + std::to_string(target_) + " ranks");
            break;
        }
    }
    return out_.failures.empty();
}

} // namespace

ScaleGroups groupRanks(const ScaleSkeleton& scale)
{
    ScaleGroups g;
    std::map<std::vector<uint32_t>, uint32_t> index;
    g.groupOf.resize(scale.ranks);
    for (uint32_t r = 0; r < scale.ranks; ++r) {
        const auto& steps = scale.perRank[r].steps;
        const auto [it, added] = index.try_emplace(steps, uint32_t(g.sequence.size()));
        if (added) g.sequence.push_back(&steps);
        g.groupOf[r] = it->second;
    }
    return g;
}

std::pair<uint32_t, uint32_t> layoutSlots(Role& role, const StepTable& steps)
{
    role.rankSlotBase.clear();
    role.sizeSlotBase.clear();
    uint32_t ranks = 0, sizes = 0;
    for (size_t pos = 0; pos < role.positions(); ++pos) {
        role.rankSlotBase.push_back(ranks);
        role.sizeSlotBase.push_back(sizes);
        for (const EventShape& e : steps.shape(role.stepAt(pos)).events) {
            ranks += uint32_t(rankParams(e));
            sizes += uint32_t(sizeParams(e));
        }
    }
    return {ranks, sizes};
}

RoleSearch searchRoles(const Placement& placement, const std::vector<ScaleSkeleton>& scales,
                       const std::vector<ScaleGroups>& groups,
                       const std::vector<MemberIndex>& memberIndex, SkeletonContext& context,
                       uint32_t target, bool carry)
{
    RoleSearch out;
    out.placement = placement;
    Search s(out, scales, groups, memberIndex, context, target, carry);
    if (!s.sameStepsPerClass()) return out;
    out.stage = 1;
    if (!s.sameFormAcrossScales()) return out;
    out.stage = 2;
    if (!s.rulesHold()) return out;
    out.stage = 3;
    if (!s.targetCovered()) return out;
    out.stage = 4;
    return out;
}

} // namespace rankscope::extrap::synth
