#include "whatif/extrap/synthfit.h"

#include "whatif/extrap/countmodel.h"
#include "whatif/extrap/leastsquares.h"
#include "whatif/extrap/pmnf.h"
#include "whatif/extrap/synthroles.h"
#include "whatif/extrap/synthruns.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <tuple>

namespace rankscope::extrap::synth {

namespace {

// Largest size a fit may predict (bytes); beyond it the int64 arithmetic of sizes breaks down.
constexpr double kMaxBytes = 4e18;

/// Per input scale: sum and count of one quantity.
struct ScaleSums
{
    std::vector<double> sum, n;
    explicit ScaleSums(size_t scales = 0) : sum(scales, 0.0), n(scales, 0.0) {}
    void add(size_t k, double v)
    {
        sum[k] += v;
        n[k] += 1;
    }
    std::vector<FitPoint> points(const std::vector<ScaleSkeleton>& scales) const
    {
        std::vector<FitPoint> p;
        for (size_t k = 0; k < sum.size(); ++k)
            if (n[k] > 0) p.push_back({double(scales[k].ranks), 0, sum[k] / n[k]});
        return p;
    }
};

/// A size slot across roles: the call site, the event's kind, tag and collective op, and which
/// size of the event (sent or received). So the halo message in one direction is one series
/// whichever role sends it, while faces, edges and corners (other tags) stay apart.
using SizeKey = std::tuple<uint32_t, EventKind, int32_t, uint8_t, int>;

SizeKey sizeKey(uint32_t callSite, const EventShape& e, int which)
{
    return {callSite, e.kind, e.tag, e.kind == EventKind::MpiCollectiveEnd ? e.detail : 0, which};
}

std::string siteOf(const SynthesisPlan& plan, uint32_t step)
{
    const uint32_t site = plan.context.steps.shape(step).callSite;
    return site == kNoSymbol ? std::string("(after the last MPI call)")
                             : std::string(plan.context.symbols.name(CallSiteId(site)));
}

std::optional<uint64_t> exactPowerLaw(std::span<const FitPoint> points, double target)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const FitPoint& p : points) {
        if (p.value <= 0) return std::nullopt;
        const double x = std::log(p.n), y = std::log(p.value);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    const double m = double(points.size());
    const double den = m * sxx - sx * sx;
    if (den <= 0) return std::nullopt;
    const double b = (m * sxy - sx * sy) / den, a = (sy - b * sx) / m;
    for (const FitPoint& p : points) {
        const double fitted = std::exp(a + b * std::log(p.n));
        if (std::abs(fitted - p.value) > std::max(1.0, 1e-3 * p.value)) return std::nullopt;
    }
    return uint64_t(std::llround(std::min(kMaxBytes, std::exp(a + b * std::log(target)))));
}

/// A size that is a + b / d(n) exactly at every point, then a + b / d(target); d(n) nothing where
/// it does not apply.
template <typename Divisor>
std::optional<uint64_t> exactInverse(std::span<const FitPoint> points, uint32_t target, Divisor d)
{
    if (points.size() < 3 || !d(target)) return std::nullopt;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    std::vector<double> xs;
    for (const FitPoint& p : points) {
        const std::optional<double> dn = d(uint32_t(p.n));
        if (!dn || *dn <= 0) return std::nullopt;
        const double x = 1.0 / *dn;
        xs.push_back(x);
        sx += x;
        sy += p.value;
        sxx += x * x;
        sxy += x * p.value;
    }
    const double m = double(points.size());
    const double den = m * sxx - sx * sx;
    if (den <= 1e-12) return std::nullopt;
    const double b = (m * sxy - sx * sy) / den, a = (sy - b * sx) / m;
    for (size_t i = 0; i < points.size(); ++i)
        if (std::abs(a + b * xs[i] - points[i].value) > std::max(1.0, 1e-3 * points[i].value))
            return std::nullopt;
    const double v = a + b / *d(target);
    return uint64_t(std::llround(std::clamp(v, 0.0, kMaxBytes)));
}

/// A size that is a + b / d(n) exactly, d(n) one dimension of the placement's grid at scale n
/// (a halo face of a 2-D decomposition whose grid is not square at every scale).
std::optional<uint64_t> exactInGridDimension(std::span<const FitPoint> points, uint32_t target,
                                             const Placement& placement)
{
    for (int d = 0; d < placement.gridDims(); ++d) {
        const auto dim = [&](uint32_t n) -> std::optional<double> {
            const auto g = placement.grid(n);
            if (!g) return std::nullopt;
            return double(g->dims()[size_t(d)]);
        };
        if (const auto v = exactInverse(points, target, dim)) return v;
    }
    return std::nullopt;
}

/// A size that is the face of a block of a decomposed grid, exactly at every point:
/// c (floor(N / d(n)) + g)^k, d(n) one dimension of the placement's grid at scale n, N the global
/// extent the ranks of that dimension share (an integer), g ghost cells (0-3) and k the face's
/// dimensions (1-3), to the byte. NPB BT's multi-partition sweeps send 240 (floor(64 / sqrt p) +
/// 1)^2 bytes: cells of 64 / sqrt p points, one ghost plane, 30 doubles a point. The floor makes
/// a grid that does not divide the extent (64 points on 3, 5 or 6 cells) exact too, and the
/// whole numbers N and c check the law at 3 scales, which a polynomial in 1 / d with as many
/// coefficients would not.
std::optional<uint64_t> exactBlockFace(std::span<const FitPoint> points, uint32_t target,
                                       const Placement& placement)
{
    // Exact byte counts only (a mean over ranks of uneven blocks is no such law).
    if (points.size() < 3 || std::any_of(points.begin(), points.end(), [](const FitPoint& p) {
            return p.value < 1 || p.value != std::round(p.value);
        }))
        return std::nullopt;
    constexpr uint32_t kMaxBlock = 1024; // points of a block along one dimension
    constexpr uint32_t kMaxExtent = 1u << 16;
    for (int d = 0; d < placement.gridDims(); ++d) {
        std::vector<uint32_t> dims;
        for (const FitPoint& p : points) {
            const auto g = placement.grid(uint32_t(p.n));
            if (!g) break;
            dims.push_back(g->dims()[size_t(d)]);
        }
        const auto t = placement.grid(target);
        if (dims.size() != points.size() || !t) continue;
        const uint32_t dt = t->dims()[size_t(d)];
        // The dimension must change across the inputs, or the law says nothing of it.
        if (*std::min_element(dims.begin(), dims.end()) ==
            *std::max_element(dims.begin(), dims.end()))
            continue;
        // The point of the widest dimension has the fewest points per block: its m = floor(N / d)
        // + g is tried from 1 up; c = value / m^k must be a whole number of bytes (bytes per
        // point), which gives every other point's m exactly or not at all, hence an interval of
        // N per point; the law holds when the intervals meet. Of the laws that hold, the one
        // with the smallest extent N is taken (with 3 points a larger extent with fewer ghost
        // cells may fit too: NPB BT A's 9/16/25 runs fit N = 64 with g = 1 and N = 68 with
        // g = 0; the smallest extent that explains every input is the plainer reading).
        const size_t widest = size_t(std::max_element(dims.begin(), dims.end()) - dims.begin());
        const uint64_t lowest = std::max(dt, dims[widest]);
        std::optional<std::tuple<uint64_t, double, int, uint32_t>> best; // N, c, k, g
        for (int k = 1; k <= 3; ++k)
            for (uint32_t ghost = 0; ghost <= 3; ++ghost)
                for (uint32_t m = ghost + 1;
                     m <= kMaxBlock && (m - ghost) * dims[widest] <= kMaxExtent; ++m) {
                    const double c = std::round(points[widest].value / std::pow(double(m), k));
                    if (c < 1 || std::abs(c * std::pow(double(m), k) - points[widest].value) > 0.5)
                        continue;
                    uint64_t from = std::max<uint64_t>(lowest, uint64_t(m - ghost) * dims[widest]);
                    uint64_t to = uint64_t(m - ghost + 1) * dims[widest]; // exclusive
                    for (size_t i = 0; i < points.size() && from < to; ++i) {
                        const double mi = std::round(std::pow(points[i].value / c, 1.0 / k));
                        if (mi < ghost + 1 ||
                            std::abs(c * std::pow(mi, k) - points[i].value) > 0.5) {
                            from = to;
                            break;
                        }
                        const uint64_t blocks = uint64_t(mi) - ghost;
                        from = std::max(from, blocks * dims[i]);
                        to = std::min(to, (blocks + 1) * dims[i]);
                    }
                    if (from < to && (!best || from < std::get<0>(*best)))
                        best = std::tuple{from, c, k, ghost};
                }
        if (best) {
            const auto [extent, c, k, ghost] = *best;
            const double face = std::pow(double(extent / dt + ghost), double(k));
            return uint64_t(std::llround(std::clamp(c * face, 0.0, kMaxBytes)));
        }
    }
    return std::nullopt;
}

/// A size that is b / d(n) + c / d(n)^2 (or c / d(n)^2 alone) within 1 % at every point, d(n)
/// one dimension of the placement's grid: the mean over ranks of faces of uneven blocks (NPB
/// BT's copy_faces sends the faces of its sqrt p - 1 inner cells of (64 / sqrt p)^2 points:
/// 64^2 (1 / d - 1 / d^2) per plane), which no exact law carries when the grid does not divide
/// the extent. Two coefficients, so 3 points check it.
std::optional<uint64_t> nearFacePolynomial(std::span<const FitPoint> points, uint32_t target,
                                           const Placement& placement)
{
    if (points.size() < 3) return std::nullopt;
    for (int d = 0; d < placement.gridDims(); ++d) {
        std::vector<double> x;
        for (const FitPoint& p : points) {
            const auto g = placement.grid(uint32_t(p.n));
            if (!g) break;
            x.push_back(1.0 / double(g->dims()[size_t(d)]));
        }
        const auto t = placement.grid(target);
        if (x.size() != points.size() || !t) continue;
        const double xt = 1.0 / double(t->dims()[size_t(d)]);
        for (const bool linear : {false, true}) {
            // Relative least squares of value ~ b x + c x^2 (b = 0 when not linear).
            Eigen::MatrixXd a(Eigen::Index(x.size()), linear ? 2 : 1);
            Eigen::VectorXd y(Eigen::Index(x.size()));
            for (size_t i = 0; i < x.size(); ++i) {
                const auto r = Eigen::Index(i);
                a(r, 0) = x[i] * x[i] / points[i].value;
                if (linear) a(r, 1) = x[i] / points[i].value;
                y(r) = 1;
            }
            const auto c = solveLeastSquares(a, y);
            if (!c) continue;
            const auto at = [&](double v) { return (*c)(0) * v * v + (linear ? (*c)(1) * v : 0); };
            bool near = true;
            for (size_t i = 0; i < x.size() && near; ++i)
                near = std::abs(at(x[i]) - points[i].value) <= 0.01 * points[i].value;
            if (near && at(xt) > 0)
                return uint64_t(std::llround(std::clamp(at(xt), 0.0, kMaxBytes)));
        }
    }
    return std::nullopt;
}

/// A size that is a + b / 2^f(n) exactly, f(n) the length of one of the role's XOR runs: the
/// 2^f(n) ranks such a run exchanges with (a row of a grid the partners show, as NPB CG's
/// vector segments of na / npcols elements).
std::optional<uint64_t> exactInRunWidth(std::span<const FitPoint> points, uint32_t target,
                                        const std::vector<size_t>& functions)
{
    for (const size_t f : functions) {
        const auto width = [&](uint32_t n) -> std::optional<double> {
            const auto l = scaleFunctions()[f].value(n);
            if (!l || *l >= 62) return std::nullopt;
            return double(uint64_t(1) << *l);
        };
        if (const auto v = exactInverse(points, target, width)) return v;
    }
    return std::nullopt;
}

void fitLoopCounts(SynthesisPlan& plan,
                   const std::vector<std::vector<std::vector<uint32_t>>>& members,
                   const std::vector<std::vector<uint64_t>>& counts,
                   const std::vector<ScaleSkeleton>& scales)
{
    // Pooled series: the count every looping role shares at a scale, where they agree.
    std::vector<FitPoint> pooled;
    for (size_t k = 0; k < scales.size(); ++k) {
        std::set<uint64_t> seen;
        for (size_t ri = 0; ri < plan.roles.size(); ++ri)
            if (!plan.roles[ri].form.body.empty() && !members[ri][k].empty())
                seen.insert(counts[ri][k]);
        if (seen.size() == 1) pooled.push_back({double(scales[k].ranks), 0, double(*seen.begin())});
    }
    for (size_t ri = 0; ri < plan.roles.size(); ++ri) {
        Role& role = plan.roles[ri];
        if (role.form.body.empty()) continue;
        std::vector<FitPoint> own;
        for (size_t k = 0; k < scales.size(); ++k)
            if (!members[ri][k].empty())
                own.push_back({double(scales[k].ranks), 0, double(counts[ri][k])});
        const std::vector<FitPoint>& points = own.size() >= 3 ? own : pooled;
        if (points.size() < 3) {
            plan.refused.push_back({siteOf(plan, role.form.body.front()),
                                    "the loop of the '" + role.name +
                                        "' ranks is seen at fewer "
                                        "than 3 scales, so its count cannot be extrapolated"});
            continue;
        }
        role.loopCount = uint64_t(fitCount(points, plan.target, "loop count").prediction);
    }
}

void fitGaps(Role& role, const StepTable& steps, const ScaleSkeleton& scale, size_t scaleIndex,
             const std::vector<uint32_t>& ranks, uint64_t count)
{
    const size_t positions = role.positions();
    std::vector<double> gapSum(positions, 0.0), gapN(positions, 0.0), fractionN(positions, 0.0);
    role.gapFractions.assign(positions, {});
    for (size_t pos = 0; pos < positions; ++pos)
        role.gapFractions[pos].assign(steps.shape(role.stepAt(pos)).callBegin, 0.0);
    for (const uint32_t r : ranks) {
        const EventStream& ev = scale.trace->rankEvents(RankId(r));
        const RankSteps& rs = scale.perRank[r];
        for (size_t j = 0; j < rs.steps.size(); ++j) {
            const size_t pos = role.aliasOf(role.inputPosition(scaleIndex, j, count));
            // The gap as the rank ran it; its events are placed only where it ran the role's.
            const StepShape& shape = steps.shape(rs.realStep(j));
            const uint32_t first = rs.firstEvent[j];
            if (shape.events.empty()) continue;
            // Fractions only from ranks that ran the position's own step (the gap has its events).
            const bool own = rs.realStep(j) == rs.steps[j] && rs.steps[j] == role.stepAt(pos);
            const int64_t start = ev.time(first == 0 ? 0 : first - 1);
            const uint32_t endEvent = shape.callBegin < shape.events.size()
                                          ? first + shape.callBegin
                                          : first + uint32_t(shape.events.size()) - 1;
            const double gap = double(ev.time(endEvent) - start);
            gapSum[pos] += gap;
            gapN[pos] += 1;
            for (uint32_t i = 0; own && i < shape.callBegin; ++i)
                role.gapFractions[pos][i] +=
                    gap > 0 ? double(ev.time(first + i) - start) / gap : 0.0;
            fractionN[pos] += own ? 1 : 0;
        }
    }
    role.gapMeanNs.assign(positions, 0.0);
    for (size_t pos = 0; pos < positions; ++pos) {
        if (gapN[pos] == 0) continue;
        role.gapMeanNs[pos] = gapSum[pos] / gapN[pos];
        for (double& f : role.gapFractions[pos])
            f = fractionN[pos] > 0 ? std::clamp(f / fractionN[pos], 0.0, 1.0) : 0.0;
    }
    for (size_t pos = 0; pos < positions; ++pos)
        if (role.aliasOf(pos) != pos) {
            role.gapMeanNs[pos] = role.gapMeanNs[role.aliasOf(pos)];
            role.gapFractions[pos] = role.gapFractions[role.aliasOf(pos)];
        }
}

} // namespace

uint64_t fitSize(std::span<const FitPoint> points, double target, const Placement* placement,
                 const std::vector<size_t>& xorRunFunctions)
{
    const bool constant = std::all_of(points.begin(), points.end(), [&](const FitPoint& p) {
        return p.value == points.front().value;
    });
    if (constant) return uint64_t(std::llround(std::max(0.0, points.front().value)));
    if (const auto power = exactPowerLaw(points, target)) return *power;
    if (placement) {
        if (const auto linear = exactInGridDimension(points, uint32_t(target), *placement))
            return *linear;
        if (const auto face = exactBlockFace(points, uint32_t(target), *placement)) return *face;
    }
    if (const auto width = exactInRunWidth(points, uint32_t(target), xorRunFunctions))
        return *width;
    if (placement)
        if (const auto mean = nearFacePolynomial(points, uint32_t(target), *placement))
            return *mean;
    const SeriesFit fit = fitPmnf(points, target, 0, "bytes");
    return uint64_t(std::llround(std::clamp(fit.prediction, 0.0, kMaxBytes)));
}

/// Role::sizeByDirection: a slot whose partners lie in two or more directions, each seen at 3
/// or more scales with sizes that differ between them, gets a size per direction (NPB BT's
/// sweeps and HPCG's halo exchange send different faces to each neighbour from one call site in
/// one loop); a direction seen at fewer scales takes the slot's size.
void fitDirections(Role& role, const std::vector<const std::map<uint32_t, ScaleSums>*>& byDirection,
                   const std::vector<uint32_t>& sizeFrom, const std::vector<ScaleSkeleton>& scales,
                   const SynthesisPlan& plan)
{
    role.sizeByDirection.assign(byDirection.size(), {});
    for (size_t slot = 0; slot < byDirection.size(); ++slot) {
        if (sizeFrom[slot] != slot || byDirection[slot]->size() < 2) continue;
        std::map<uint32_t, uint64_t> sizes;
        bool differ = false;
        std::optional<std::vector<FitPoint>> first;
        for (const auto& [dir, sums] : *byDirection[slot]) {
            const std::vector<FitPoint> points = sums.points(scales);
            if (points.size() < 3) continue;
            if (!first) first = points;
            differ = differ || points != *first;
            sizes[dir] = fitSize(points, plan.target, &plan.placement, role.xorRunFunctions);
        }
        if (differ) role.sizeByDirection[slot] = std::move(sizes);
    }
    for (size_t slot = 0; slot < byDirection.size(); ++slot)
        if (sizeFrom[slot] != slot)
            role.sizeByDirection[slot] = role.sizeByDirection[sizeFrom[slot]];
}

void fitRoles(SynthesisPlan& plan, const std::vector<std::vector<std::vector<uint32_t>>>& members,
              const std::vector<std::vector<uint64_t>>& counts,
              const std::vector<ScaleSkeleton>& scales, const std::vector<MemberIndex>& memberIndex)
{
    const StepTable& steps = plan.context.steps;
    fitLoopCounts(plan, members, counts, scales);

    // Sizes: every occurrence of every size slot, per role and pooled by call site and tag.
    std::vector<std::vector<ScaleSums>> own(plan.roles.size());
    std::vector<std::vector<SizeKey>> keys(plan.roles.size());
    std::map<SizeKey, ScaleSums> pooled;
    // Per role and size slot of a point-to-point call: the sizes by the partner's direction.
    std::vector<std::vector<std::map<uint32_t, ScaleSums>>> byDirection(plan.roles.size());
    std::map<SizeKey, std::map<uint32_t, ScaleSums>> pooledByDirection;
    std::vector<std::optional<ProcessGrid>> grids;
    for (const ScaleSkeleton& s : scales)
        grids.push_back(plan.placement.grid(s.ranks));
    for (size_t ri = 0; ri < plan.roles.size(); ++ri) {
        Role& role = plan.roles[ri];
        const uint32_t slots = layoutSlots(role, steps).second;
        byDirection[ri].resize(slots);
        own[ri].assign(slots, ScaleSums(scales.size()));
        keys[ri].resize(slots);
        for (size_t pos = 0; pos < role.positions(); ++pos) {
            const StepShape& shape = steps.shape(role.stepAt(pos));
            uint32_t slot = role.sizeSlotBase[pos];
            for (const EventShape& e : shape.events)
                for (int which = 0; which < sizeParams(e); ++which)
                    keys[ri][slot++] = sizeKey(shape.callSite, e, which);
        }
        for (size_t k = 0; k < scales.size(); ++k) {
            for (const uint32_t r : members[ri][k]) {
                const RankSteps& rs = scales[k].perRank[r];
                for (size_t j = 0; j < rs.steps.size(); ++j) {
                    // A run's copies share the sizes of the copy every scale shows.
                    const size_t pos = role.aliasOf(role.inputPosition(k, j, counts[ri][k]));
                    uint32_t slot = role.sizeSlotBase[pos];
                    const auto& events = steps.shape(rs.steps[j]).events;
                    for (uint32_t e = 0; e < events.size(); ++e) {
                        const int n = sizeParams(events[e]);
                        if (n == 0) continue;
                        const EventParams p = eventParams(*scales[k].trace, memberIndex[k],
                                                          RankId(r), rs.eventAt(j, e));
                        if (hasPartner(events[e].kind) && grids[k] && p.partner < scales[k].ranks) {
                            const uint32_t dir = grids[k]->direction(r, p.partner);
                            auto [d, added] = byDirection[ri][slot].try_emplace(dir, scales.size());
                            d->second.add(k, double(p.bytes));
                            auto [q, fresh] =
                                pooledByDirection[keys[ri][slot]].try_emplace(dir, scales.size());
                            q->second.add(k, double(p.bytes));
                        }
                        for (int which = 0; which < n; ++which) {
                            const double v = double(which == 0 ? p.bytes : p.received);
                            own[ri][slot].add(k, v);
                            auto [it, added] = pooled.try_emplace(keys[ri][slot], scales.size());
                            it->second.add(k, v);
                            ++slot;
                        }
                    }
                }
            }
        }
    }
    std::set<std::string> reported;
    std::vector<std::string> carried;
    for (size_t ri = 0; ri < plan.roles.size(); ++ri) {
        Role& role = plan.roles[ri];
        role.sizes.clear();
        // The size slots of aliased positions: fitted once, at the position they take after.
        std::vector<uint32_t> sizeFrom(own[ri].size());
        for (uint32_t slot = 0; slot < sizeFrom.size(); ++slot)
            sizeFrom[slot] = slot;
        for (size_t pos = 0; pos < role.positions(); ++pos) {
            const size_t from = role.aliasOf(pos);
            const uint32_t end =
                pos + 1 < role.positions() ? role.sizeSlotBase[pos + 1] : uint32_t(own[ri].size());
            for (uint32_t slot = role.sizeSlotBase[pos]; slot < end; ++slot)
                sizeFrom[slot] = role.sizeSlotBase[from] + (slot - role.sizeSlotBase[pos]);
        }
        for (size_t slot = 0; slot < own[ri].size(); ++slot) {
            if (sizeFrom[slot] < slot) {
                role.sizes.push_back(role.sizes[sizeFrom[slot]]);
                continue;
            }
            if (sizeFrom[slot] != slot) {
                role.sizes.push_back(0); // set below, once its position is fitted
                continue;
            }
            std::vector<FitPoint> points = own[ri][slot].points(scales);
            if (points.size() < 3) points = pooled.at(keys[ri][slot]).points(scales);
            if (points.size() < 3) {
                const uint32_t symbol = std::get<0>(keys[ri][slot]);
                const std::string site =
                    symbol == kNoSymbol
                        ? std::string("(outside MPI calls)")
                        : std::string(plan.context.symbols.name(CallSiteId(symbol)));
                if (points.empty()) {
                    if (reported.insert(site).second)
                        plan.refused.push_back({site, "its message sizes are never seen"});
                    role.sizes.push_back(0);
                    continue;
                }
                // Seen at 1 or 2 scales only (a call site present from some scale on): carried
                // from the largest scale that shows it, with a warning.
                if (reported.insert(site).second) carried.push_back(site);
                role.sizes.push_back(uint64_t(std::llround(std::max(0.0, points.back().value))));
                continue;
            }
            role.sizes.push_back(
                fitSize(points, plan.target, &plan.placement, role.xorRunFunctions));
        }
        // A role seen at fewer than 3 scales takes the directions of its call site's slot.
        std::vector<const std::map<uint32_t, ScaleSums>*> directions(own[ri].size());
        for (size_t slot = 0; slot < own[ri].size(); ++slot) {
            directions[slot] = &byDirection[ri][slot];
            if (own[ri][slot].points(scales).size() < 3) {
                const auto it = pooledByDirection.find(keys[ri][slot]);
                if (it != pooledByDirection.end()) directions[slot] = &it->second;
            }
        }
        fitDirections(role, directions, sizeFrom, scales, plan);
        for (size_t slot = 0; slot < own[ri].size(); ++slot)
            role.sizes[slot] = role.sizes[sizeFrom[slot]];
        // Gaps are placed as at the largest scale the role occurs at (closest to the target).
        size_t largest = scales.size();
        for (size_t k = 0; k < scales.size(); ++k)
            if (!members[ri][k].empty()) largest = k;
        fitGaps(role, steps, scales[largest], largest, members[ri][largest], counts[ri][largest]);
    }
    if (!carried.empty()) {
        std::string list;
        for (size_t i = 0; i < carried.size() && i < 5; ++i)
            list += (i ? ", " : "") + carried[i];
        if (carried.size() > 5) list += " and " + std::to_string(carried.size() - 5) + " more";
        plan.warnings.push_back("message sizes seen at fewer than 3 scales are carried from the "
                                "largest scale that shows them, not extrapolated: " +
                                list);
    }
}

uint64_t eventsPerRank(const SynthesisPlan& plan, const Role& role)
{
    const auto events = [&](const std::vector<uint32_t>& part) {
        uint64_t n = 0;
        for (uint32_t s : part)
            for (const EventShape& e : plan.context.steps.shape(s).events)
                n += e.omitted ? 0 : 1;
        return n;
    };
    return events(role.form.prefix) + role.loopCount * events(role.form.body) +
           events(role.form.suffix);
}

std::map<std::string, double> fitWithinRankCv(const std::vector<ScaleSkeleton>& scales,
                                              uint32_t target)
{
    std::map<std::string, std::vector<FitPoint>> series;
    for (const ScaleSkeleton& s : scales)
        for (const auto& [name, cv] : s.withinRankCv)
            series[name].push_back({double(s.ranks), 0, cv});
    std::map<std::string, double> out;
    for (const auto& [name, points] : series) {
        // A spread, not a time: kept within [0, 1] whatever the fit says far from the inputs.
        const double v =
            points.size() >= 3 ? fitPmnf(points, target, 0, "cv").prediction : points.back().value;
        out[name] = std::clamp(v, 0.0, 1.0);
    }
    return out;
}

} // namespace rankscope::extrap::synth
