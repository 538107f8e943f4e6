#include "whatif/extrap/synthtiming.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace rankscope::extrap::synth {

namespace {

QuantileFunction constantAt(double v)
{
    return QuantileFunction({{0.0, v}, {1.0, v}});
}

QuantileFunction distributionOf(const IntervalPrediction& p, Method method)
{
    if (method == Method::Rankscope) {
        if (p.predicted.quantiles.size() >= 2)
            return QuantileFunction::ofEquallySpaced(p.predicted.quantiles);
        return constantAt(std::max(0.0, p.predictedMean * p.predictedCount));
    }
    if (!p.predicted.empty()) {
        QuantileFunction q = QuantileFunction::ofHistogram(p.predicted);
        if (!q.empty()) return q;
    }
    return constantAt(std::max(0.0, p.predictedMean));
}

} // namespace

std::vector<double> rankSumFactors(const std::vector<double>& have,
                                   const std::vector<double>& quantiles)
{
    const auto n = uint32_t(have.size());
    std::vector<uint32_t> order(n);
    for (uint32_t r = 0; r < n; ++r)
        order[r] = r;
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return have[a] < have[b]; });
    const QuantileFunction target = QuantileFunction::ofEquallySpaced(quantiles);
    std::vector<double> factor(n, 1.0);
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t r = order[k];
        if (have[r] <= 0) continue;
        const double level = n > 1 ? double(k) / double(n - 1) : 1.0;
        factor[r] = std::max(0.0, target(level)) / have[r];
    }
    return factor;
}

DeltaSampler::DeltaSampler(const SynthesisPlan& plan, uint64_t seed, const ProcessGrid* grid)
    : plan_(plan), seed_(seed)
{
    std::map<std::string, int32_t> index;
    for (const IntervalPrediction& p : plan.timing.intervals) {
        index.emplace(p.name, int32_t(intervals_.size()));
        IntervalTiming t;
        t.quantiles = distributionOf(p, plan.method);
        const auto cv = plan.withinRankCv.find(p.name);
        t.cv = cv == plan.withinRankCv.end() ? 0.0 : cv->second;
        t.presence = 0;
        intervals_.push_back(std::move(t));
    }
    for (const UnruledInterval& u : plan.unruled) {
        if (!index.emplace(u.name, int32_t(intervals_.size())).second) continue;
        IntervalTiming t;
        t.quantiles = u.rankMeans.size() >= 2 ? QuantileFunction::ofEquallySpaced(u.rankMeans)
                                              : constantAt(u.rankMeans.front());
        const auto cv = plan.withinRankCv.find(u.name);
        t.cv = cv == plan.withinRankCv.end() ? 0.0 : cv->second;
        t.presence = 0;
        t.perOccurrence = true;
        intervals_.push_back(std::move(t));
    }
    const SkeletonContext& ctx = plan.context;
    for (const Role& role : plan.roles) {
        RoleTiming rt;
        rt.slotOf.assign(intervals_.size(), -1);
        const uint64_t steps = role.stepCount();
        bool callsInit = false;
        for (size_t pos = 0; pos < role.positions(); ++pos)
            callsInit = callsInit || ctx.steps.shape(role.stepAt(pos)).init;
        DeltaSpan span(callsInit);
        uint32_t previous = kNoSymbol;
        rt.intervalOfStep.assign(steps, -1);
        for (uint64_t k = 0; k < steps; ++k) {
            const StepShape& s = ctx.steps.shape(role.stepAt(role.positionOf(k, role.loopCount)));
            if (s.callSite == kNoSymbol) continue;
            if (span.next(s.init, s.finalize)) {
                const auto it =
                    index.find(std::string(ctx.symbols.name(CallSiteId(previous))) + " - " +
                               std::string(ctx.symbols.name(CallSiteId(s.callSite))));
                if (it != index.end()) {
                    int32_t& slot = rt.slotOf[size_t(it->second)];
                    if (slot < 0) {
                        slot = int32_t(rt.occurrences.size());
                        rt.occurrences.push_back({it->second, 0});
                        intervals_[size_t(it->second)].presence += double(role.ranksAtTarget);
                    }
                    ++rt.occurrences[size_t(slot)].second;
                    rt.intervalOfStep[k] = it->second;
                }
            }
            previous = s.callSite;
        }
        roles_.push_back(std::move(rt));
    }
    for (IntervalTiming& t : intervals_)
        t.presence = std::min(1.0, t.presence / double(plan.target));

    if (plan.method == Method::Rankscope) {
        const uint32_t n = plan.target;
        level_.resize(n);
        for (uint32_t r = 0; r < n; ++r)
            level_[r] = n > 1 ? double(r) / double(n - 1) : 1.0;
        GeneratorRandom random(seed);
        for (uint32_t i = n; i > 1; --i) {
            const auto j = uint32_t(std::min<double>(i - 1, std::floor(random.uniform() * i)));
            std::swap(level_[i - 1], level_[j]);
        }
        calibrateRankSums(grid);
    }
}

double DeltaSampler::total(uint32_t r, const std::pair<int32_t, uint64_t>& occurrence) const
{
    const IntervalTiming& t = intervals_[size_t(occurrence.first)];
    // The per-rank means of an unruled interval are those of the ranks running it.
    const double u = t.perOccurrence ? level_[r] : 1.0 - t.presence + t.presence * level_[r];
    const double q = std::max(0.0, t.quantiles(std::clamp(u, 0.0, 1.0)));
    return t.perOccurrence ? q * double(occurrence.second) : q;
}

void DeltaSampler::calibrateRankSums(const ProcessGrid* grid)
{
    const ExtrapolationResult& timing = plan_.timing;
    if (timing.sumModel != "direct" || timing.predictedSums.quantiles.size() < 2) return;
    const uint32_t n = plan_.target;
    std::vector<double> composed(n, 0.0);
    for (uint32_t r = 0; r < n; ++r) {
        const int32_t role = plan_.roleOf(r, grid);
        if (role < 0) continue;
        for (const auto& occurrence : roles_[size_t(role)].occurrences)
            composed[r] += total(r, occurrence);
    }
    factor_ = rankSumFactors(composed, timing.predictedSums.quantiles);
}

void DeltaSampler::split(double total, uint64_t count, double cv, GeneratorRandom& random,
                         std::vector<int64_t>& out)
{
    std::vector<double> weights(count);
    double sum = 0;
    for (double& w : weights) {
        w = cv > 0 ? std::max(0.0, 1.0 + cv * random.normal()) : 1.0;
        sum += w;
    }
    if (sum <= 0) {
        std::fill(weights.begin(), weights.end(), 1.0);
        sum = double(count);
    }
    // Cumulative rounding: the parts are whole nanoseconds and add up to round(total).
    double cumulative = 0;
    int64_t placed = 0;
    for (const double w : weights) {
        cumulative += w;
        const int64_t upTo = std::llround(total * std::min(1.0, cumulative / sum));
        out.push_back(upTo - placed);
        placed = upTo;
    }
}

void DeltaSampler::gaps(uint32_t r, size_t roleIndex, std::vector<int64_t>& out) const
{
    const Role& role = plan_.roles[roleIndex];
    const RoleTiming& rt = roles_[roleIndex];
    // One stream per rank: a rank's delta times do not depend on how many ranks came before.
    GeneratorRandom random(seed_ ^ (uint64_t(r) + 1) * 0xD1B54A32D192ED03ull);
    std::vector<int64_t> drawn;
    std::vector<size_t> first, next;
    for (const auto& [iv, count] : rt.occurrences) {
        first.push_back(drawn.size());
        const IntervalTiming& t = intervals_[size_t(iv)];
        if (plan_.method == Method::Rankscope) {
            split(total(r, {iv, count}) * rankFactor(r), count, t.cv, random, drawn);
        } else {
            for (uint64_t j = 0; j < count; ++j)
                drawn.push_back(std::max<int64_t>(0, std::llround(t.quantiles(random.uniform()))));
        }
    }
    next = first;
    const uint64_t steps = role.stepCount();
    out.resize(steps);
    for (uint64_t k = 0; k < steps; ++k) {
        const int32_t iv = rt.intervalOfStep[k];
        if (iv < 0) {
            out[k] = std::llround(role.gapMeanNs[role.positionOf(k, role.loopCount)]);
        } else {
            out[k] = drawn[next[size_t(rt.slotOf[size_t(iv)])]++];
        }
    }
}

} // namespace rankscope::extrap::synth
