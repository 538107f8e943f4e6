#include "extraplopo.h"

#include "whatif/extrap/extrapolation.h"
#include "whatif/extrap/sumcomposition.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace rankscope::bench {

using namespace rankscope::extrap;

namespace {

struct Constants
{
    double noise = 0;
    ExcessGrowth growth = ExcessGrowth::Median;
    double widthPerDoubling = 0;
};

struct Figures
{
    double accuracy = 0;       ///< of max_r S(r)
    double medianAccuracy = 0; ///< of the median rank's S(r)
    bool inside = false;
    double width = 0; ///< (high - low) / measured
};

double medianOf(std::vector<double> v)
{
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

Figures judge(const Constants& c, const LopoSet& s, double level)
{
    TypicalOptions t;
    t.noise = c.noise;
    t.widthPerDoubling = c.widthPerDoubling;
    SlowestOptions x;
    x.growth = c.growth;
    x.level = level;
    const TypicalExtreme te = predictTypicalExtreme(s.scales, s.sums, s.target, t, x);
    const double max = *std::max_element(s.measured.begin(), s.measured.end());
    Figures f;
    f.accuracy = accuracyPercent(te.estimate.predicted, max);
    f.medianAccuracy = accuracyPercent(te.typical.predicted, medianOf(s.measured));
    f.inside = max >= te.estimate.low && max <= te.estimate.high;
    f.width = (te.estimate.high - te.estimate.low) / max;
    return f;
}

std::vector<Figures> judgeAll(const Constants& c, const std::vector<const LopoSet*>& sets,
                              double level)
{
    std::vector<Figures> out;
    for (const LopoSet* s : sets)
        out.push_back(judge(c, *s, level));
    return out;
}

constexpr double kNoises[] = {0.02, 0.05, 0.1, 0.2};
constexpr ExcessGrowth kGrowths[] = {ExcessGrowth::Median, ExcessGrowth::Last, ExcessGrowth::Trend};
constexpr double kWidths[] = {0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.6, 0.8, 1.0, 1.5};

Constants choose(const std::vector<const LopoSet*>& train, double level)
{
    Constants best;
    double bestMedian = -INFINITY, bestWorst = -INFINITY;
    for (double noise : kNoises)
        for (ExcessGrowth growth : kGrowths) {
            const Constants c{noise, growth, 0.0};
            std::vector<double> acc;
            for (const Figures& f : judgeAll(c, train, level))
                acc.push_back(f.accuracy);
            const double median = medianOf(acc);
            const double worst = *std::min_element(acc.begin(), acc.end());
            if (median > bestMedian || (median == bestMedian && worst > bestWorst)) {
                best = c;
                bestMedian = median;
                bestWorst = worst;
            }
        }
    for (double w : kWidths) {
        best.widthPerDoubling = w;
        size_t inside = 0;
        for (const Figures& f : judgeAll(best, train, level))
            inside += f.inside ? 1 : 0;
        if (double(inside) >= level * double(train.size())) break;
    }
    return best;
}

std::string text(const Constants& c)
{
    char buf[120];
    std::snprintf(buf, sizeof buf, "noise %.2f, growth %s, width/doubling %.2f", c.noise,
                  excessGrowthName(c.growth).c_str(), c.widthPerDoubling);
    return buf;
}

} // namespace

bool leaveOneProgramOut(const std::vector<LopoSet>& sets)
{
    const double level = SlowestOptions{}.level;
    std::set<std::string> programs;
    for (const LopoSet& s : sets)
        programs.insert(s.program);
    if (programs.size() < 2) {
        std::printf("\nLeave-one-program-out: fewer than two programs, skipped\n");
        return true;
    }
    std::printf("\nRankscope constants by leave-one-program-out (%zu programs, interval level "
                "%.0f %%): each program judged with constants chosen on the others\n",
                programs.size(), level * 100);
    std::printf("%-28s %-52s %8s %8s %4s %7s\n", "left-out set", "constants chosen without it",
                "max", "median", "in?", "width");
    std::vector<double> acc, med, width;
    size_t inside = 0;
    for (const std::string& p : programs) {
        std::vector<const LopoSet*> train, test;
        for (const LopoSet& s : sets)
            (s.program == p ? test : train).push_back(&s);
        const Constants c = choose(train, level);
        for (const LopoSet* s : test) {
            const Figures f = judge(c, *s, level);
            std::printf("%-28s %-52s %7.1f%% %7.1f%% %4s %7.2f\n", s->name.c_str(), text(c).c_str(),
                        f.accuracy, f.medianAccuracy, f.inside ? "yes" : "no", f.width);
            acc.push_back(f.accuracy);
            med.push_back(f.medianAccuracy);
            width.push_back(f.width);
            inside += f.inside ? 1 : 0;
        }
    }
    std::printf("left-out: max S(r) median %.1f%% worst %.1f%%; median rank median %.1f%% worst "
                "%.1f%%; coverage %zu/%zu; median width %.2f\n",
                medianOf(acc), *std::min_element(acc.begin(), acc.end()), medianOf(med),
                *std::min_element(med.begin(), med.end()), inside, acc.size(), medianOf(width));
    std::vector<const LopoSet*> all;
    for (const LopoSet& s : sets)
        all.push_back(&s);
    const Constants chosen = choose(all, level);
    const Constants defaults{TypicalOptions{}.noise, SlowestOptions{}.growth,
                             TypicalOptions{}.widthPerDoubling};
    const bool same = chosen.noise == defaults.noise && chosen.growth == defaults.growth &&
                      chosen.widthPerDoubling == defaults.widthPerDoubling;
    std::printf("chosen on every program: %s; the defaults: %s%s\n", text(chosen).c_str(),
                text(defaults).c_str(), same ? "" : "  <- DIFFERENT: update the defaults");
    return same;
}

} // namespace rankscope::bench
