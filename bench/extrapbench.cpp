// Extrapolation benchmark (ALGORITHMS.md §3-§4): accuracy of max_r S(r), normalised W1 of the
// S(r) histogram, the uncertainty interval and whether the measured value lies in it, and the
// held-out error each method scored on its inputs, for classic (sum, interval), Rankscope and
// auto (the default: the lowest held-out error wins):
// - on generated patterns whose intervals scale differently (constant, 1/n, n) and whose spread
//   widens with n;
// - on every real multi-scale set: the Score-P runs in the shared traces folder (NPB MG,
//   CloverLeaf; `--traces DIR`, default the build's RANKSCOPE_SHARED_TRACES) and the cluster-like
//   SMPI runs beside them (NPB BT, miniFE, HPCG; `--smpi DIR`, default <build>/bench-data/smpi,
//   unpacked there from the shared archives on first use). Each program gives one set per target
//   scale beyond its third: the three scales before it, and every scale before it.
// Then, across the real sets, per method: the median and the worst accuracy of max_r S(r) and of
// the median rank's S(r), interval coverage and median interval width (relative to the measured
// value), and how far auto is from the better classic mode on each set (its worst shortfall).
// Judge methods across programs by these lines, never by one set.

#include "benchsupport.h"
#include "extraplopo.h"
#include "importers/tracefile.h"
#include "model/deltas/intervals.h"
#include "model/generator/tracegenerator.h"
#include "model/trace/trace.h"
#include "whatif/extrap/extrapolation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

using namespace rankscope;
using namespace rankscope::extrap;

namespace {

struct Case
{
    std::string pattern;
    std::vector<uint32_t> scales;
    uint32_t target;
    std::vector<ComputeRegion> regions;
};

Trace generate(const Case& c, uint32_t ranks)
{
    GeneratorOptions o;
    o.pattern = c.pattern;
    o.ranks = ranks;
    o.iterations = 10;
    o.seed = 11;
    o.regions = c.regions;
    o.noiseGrowth = 0.3;
    return generateTrace(o);
}

struct Variant
{
    const char* label;
    Method method;
    Mode mode;
};

constexpr Variant kVariants[] = {{"classic sum", Method::Classic, Mode::Sum},
                                 {"classic interval", Method::Classic, Mode::Interval},
                                 {"rankscope", Method::Rankscope, Mode::Interval},
                                 {"auto (default)", Method::Auto, Mode::Interval}};

std::string scalesText(const std::vector<uint32_t>& scales)
{
    std::string s;
    for (uint32_t n : scales)
        s += (s.empty() ? "" : ",") + std::to_string(n);
    return s;
}

/// One method on one real set, for the summary across sets.
struct Score
{
    double accuracy = 0;       ///< of max_r S(r), %
    double medianAccuracy = 0; ///< of the median rank's S(r), %
    bool inside = false;       ///< the measured max lies in the interval
    double width = 0;          ///< (high - low) / measured
};

/// The median of the predicted S(r) histogram (its 0.5 quantile), or its mean without quantiles.
double predictedMedian(const Histogram& h)
{
    return h.quantiles.size() == size_t(Histogram::kQuantileCount)
               ? h.quantiles[size_t(Histogram::kQuantileCount / 2)]
               : h.mean;
}

double measuredMedian(const Trace& t)
{
    const IntervalTable table = computeIntervals(t);
    std::vector<int64_t> s = table.rankDeltaSums;
    if (s.empty()) return 0;
    std::nth_element(s.begin(), s.begin() + long(s.size() / 2), s.end());
    return double(s[s.size() / 2]);
}

/// Runs every variant on one set and prints a row each; returns the scores by variant.
std::vector<Score> runSet(const std::string& name, const std::vector<const Trace*>& inputs,
                          uint32_t target, const Trace& measured)
{
    std::vector<uint32_t> scales;
    for (const Trace* t : inputs)
        scales.push_back(uint32_t(t->rankCount()));
    const double median = measuredMedian(measured);
    std::vector<Score> scores;
    for (const Variant& v : kVariants) {
        ExtrapolationOptions o;
        o.method = v.method;
        o.mode = v.mode;
        o.target = target;
        const auto t0 = bench::Clock::now();
        ExtrapolationResult r;
        try {
            r = extrapolate(inputs, o, &measured);
        } catch (const std::exception& e) {
            std::printf("%-11s %-12s %6u  %-16s refused: %s\n", name.c_str(),
                        scalesText(scales).c_str(), target, v.label, e.what());
            scores.push_back({});
            continue;
        }
        const double s = bench::seconds(t0, bench::Clock::now());
        const double m = *r.measuredMaxRankDeltaSum;
        const bool in = m >= r.predictedMaxLow && m <= r.predictedMaxHigh;
        const double medianAcc = accuracyPercent(predictedMedian(r.predictedSums), median);
        scores.push_back({*r.accuracyPct, medianAcc, in,
                          m > 0 ? (r.predictedMaxHigh - r.predictedMaxLow) / m : 0});
        std::string chosen = r.autoChosen ? methodName(r.method) + " " + modeName(r.mode) : "";
        if (!r.sumModel.empty()) chosen += (chosen.empty() ? "" : ", ") + r.sumModel;
        char held[32] = "-";
        if (r.heldOutErrorPct) std::snprintf(held, sizeof held, "%.1f%%", *r.heldOutErrorPct);
        std::printf("%-11s %-12s %6u  %-16s %7.1f%% %7.1f%% %6.3f %9.2f [%8.2f, %8.2f] %9.2f  "
                    "%-3s %8s %7.3f  %s\n",
                    name.c_str(), scalesText(scales).c_str(), target, v.label, *r.accuracyPct,
                    medianAcc, *r.w1Normalized, r.predictedMaxRankDeltaSum / 1e6,
                    r.predictedMaxLow / 1e6, r.predictedMaxHigh / 1e6, m / 1e6, in ? "yes" : "no",
                    held, s, chosen.c_str());
    }
    return scores;
}

double medianOf(std::vector<double> v)
{
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// The lines across sets: per variant, and auto against the better classic mode.
void summarise(const std::vector<std::pair<std::string, std::vector<Score>>>& sets)
{
    if (sets.empty()) return;
    std::printf("\nAcross %zu real sets (median and worst accuracy, interval coverage and median "
                "relative width)\n",
                sets.size());
    std::printf("%-18s %10s %10s %12s %12s %10s %10s\n", "method", "median max", "worst max",
                "median med.", "worst med.", "coverage", "width");
    for (size_t v = 0; v < std::size(kVariants); ++v) {
        std::vector<double> acc, med, width;
        size_t inside = 0;
        for (const auto& [name, scores] : sets) {
            acc.push_back(scores[v].accuracy);
            med.push_back(scores[v].medianAccuracy);
            width.push_back(scores[v].width);
            inside += scores[v].inside ? 1 : 0;
        }
        std::printf("%-18s %9.1f%% %9.1f%% %11.1f%% %11.1f%% %6zu/%-3zu %9.2f\n",
                    kVariants[v].label, medianOf(acc), *std::min_element(acc.begin(), acc.end()),
                    medianOf(med), *std::min_element(med.begin(), med.end()), inside, sets.size(),
                    medianOf(width));
    }
    // auto (the last variant) against the better of the two classic modes, set by set.
    double worstGap = INFINITY;
    std::string worstSet;
    size_t atLeast = 0;
    for (const auto& [name, scores] : sets) {
        const double classic = std::max(scores[0].accuracy, scores[1].accuracy);
        const double gap = scores.back().accuracy - classic;
        if (gap >= -1.0) ++atLeast;
        if (gap < worstGap) {
            worstGap = gap;
            worstSet = name;
        }
    }
    std::printf("auto within 1 point of the better classic mode (or above) on %zu of %zu sets; "
                "worst shortfall %+.1f points (%s)\n",
                atLeast, sets.size(), worstGap, worstSet.c_str());
}

/// Auto keeps classic interval unless sum is clearly better on the inputs (extrapolation.cpp):
/// that preference, chosen left out program by program (the mode with the better median
/// accuracy of max S(r) on the other programs' sets), and the left-out program's figure.
void classicModeByProgram(const std::vector<std::pair<std::string, std::vector<Score>>>& sets,
                          const std::vector<bench::LopoSet>& lopo)
{
    if (sets.size() != lopo.size() || sets.empty()) return;
    std::vector<std::string> programs;
    for (const bench::LopoSet& l : lopo)
        if (std::find(programs.begin(), programs.end(), l.program) == programs.end())
            programs.push_back(l.program);
    std::printf("\nClassic mode preferred, left out program by program (median accuracy of max "
                "S(r) on the other programs)\n");
    std::vector<double> leftOut;
    for (const std::string& p : programs) {
        std::vector<double> sum, interval;
        for (size_t i = 0; i < sets.size(); ++i)
            if (lopo[i].program != p) {
                sum.push_back(sets[i].second[0].accuracy);
                interval.push_back(sets[i].second[1].accuracy);
            }
        const bool useInterval = medianOf(interval) >= medianOf(sum);
        std::vector<double> own;
        for (size_t i = 0; i < sets.size(); ++i)
            if (lopo[i].program == p) own.push_back(sets[i].second[useInterval ? 1 : 0].accuracy);
        leftOut.insert(leftOut.end(), own.begin(), own.end());
        std::printf("  without %-12s %-9s (sum %5.1f%%, interval %5.1f%%); on it: median %5.1f%%\n",
                    p.c_str(), useInterval ? "interval" : "sum", medianOf(sum), medianOf(interval),
                    medianOf(own));
    }
    std::printf("  left-out: median %.1f%%, worst %.1f%%\n", medianOf(leftOut),
                *std::min_element(leftOut.begin(), leftOut.end()));
}

void header()
{
    std::printf("%-11s %-12s %6s  %-16s %8s %8s %6s %9s %22s %9s  %-3s %8s %7s  %s\n", "set",
                "scales", "target", "method", "accuracy", "median", "W1", "pred. ms", "interval ms",
                "meas. ms", "in?", "held-out", "time s", "chosen");
}

} // namespace

/// A program's runs at several scales: `pattern` with %u for the rank count.
/// --dump-sums FILE: every input's S(r) per rank, one CSV line per (program, scale).
std::FILE* gDump = nullptr;

/// One set per target beyond the third scale: the three scales before it, and all before it.
std::vector<double> rankSums(const Trace& t)
{
    const IntervalTable table = computeIntervals(t);
    return std::vector<double>(table.rankDeltaSums.begin(), table.rankDeltaSums.end());
}

struct Program
{
    const char* name;
    std::string pattern;
    std::vector<uint32_t> scales;
    /// The repeated runs of the same command (SMPI sets), "" when there are none.
    std::string repeatPattern = "";
};

/// The repeats' spread: the accuracy with which one run predicts its identical repeat's max and
/// median S(r). No method can be judged finer than this.
void printRepeats(const Program& p, const std::vector<std::vector<double>>& sums)
{
    namespace fs = std::filesystem;
    for (size_t i = 0; i < p.scales.size() && !p.repeatPattern.empty(); ++i) {
        char path[1024];
        std::snprintf(path, sizeof path, p.repeatPattern.c_str(), p.scales[i], p.scales[i]);
        if (!fs::exists(path)) continue;
        const std::vector<double> rep = rankSums(readTraceFile(path));
        const auto maxOf = [](const std::vector<double>& v) {
            return *std::max_element(v.begin(), v.end());
        };
        const auto medianOf = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
        };
        std::printf("%-11s repeat at %3u ranks: max S(r) %.2f ms against %.2f ms (accuracy "
                    "%.1f %%), median %.2f against %.2f ms (%.1f %%)\n",
                    p.name, p.scales[i], maxOf(rep) / 1e6, maxOf(sums[i]) / 1e6,
                    accuracyPercent(maxOf(rep), maxOf(sums[i])), medianOf(rep) / 1e6,
                    medianOf(sums[i]) / 1e6, accuracyPercent(medianOf(rep), medianOf(sums[i])));
        if (gDump) {
            std::fprintf(gDump, "%s,%u-rep2", p.name, p.scales[i]);
            for (double v : rep)
                std::fprintf(gDump, ",%.0f", v);
            std::fprintf(gDump, "\n");
        }
    }
}

void runProgram(const Program& p, std::vector<std::pair<std::string, std::vector<Score>>>& out,
                std::vector<bench::LopoSet>& lopo)
{
    namespace fs = std::filesystem;
    std::vector<std::unique_ptr<Trace>> loaded;
    for (uint32_t n : p.scales) {
        char path[1024];
        std::snprintf(path, sizeof path, p.pattern.c_str(), n, n);
        if (!fs::exists(path)) {
            std::printf("%-11s %u ranks: %s not found, the program is skipped\n", p.name, n, path);
            return;
        }
        loaded.push_back(std::make_unique<Trace>(readTraceFile(path)));
    }
    std::vector<std::vector<double>> sums;
    for (const auto& t : loaded)
        sums.push_back(rankSums(*t));
    if (gDump) {
        for (size_t i = 0; i < sums.size(); ++i) {
            std::fprintf(gDump, "%s,%u", p.name, p.scales[i]);
            for (double v : sums[i])
                std::fprintf(gDump, ",%.0f", v);
            std::fprintf(gDump, "\n");
        }
    }
    printRepeats(p, sums);
    for (size_t k = 3; k < p.scales.size(); ++k) {
        // The three scales before the target; then, when there are more, all of them.
        std::vector<size_t> firsts = {k - 3};
        if (k > 3) firsts.push_back(0);
        for (const size_t first : firsts) {
            std::vector<const Trace*> inputs;
            std::vector<uint32_t> scales;
            bench::LopoSet set;
            for (size_t i = first; i < k; ++i) {
                inputs.push_back(loaded[i].get());
                scales.push_back(p.scales[i]);
                set.scales.push_back(p.scales[i]);
                set.sums.push_back(sums[i]);
            }
            const std::string name = std::string(p.name) + " " + scalesText(scales) + " -> " +
                                     std::to_string(p.scales[k]);
            set.program = p.name;
            set.name = name;
            set.target = p.scales[k];
            set.measured = sums[k];
            lopo.push_back(std::move(set));
            out.emplace_back(name, runSet(p.name, inputs, p.scales[k], *loaded[k]));
        }
    }
}

int main(int argc, char** argv)
{
    std::string traces = RANKSCOPE_SHARED_TRACES;
    std::string smpi = "build/bench-data/smpi";
    bool generatedOnly = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--traces") == 0 && i + 1 < argc) {
            traces = argv[++i];
        } else if (std::strcmp(argv[i], "--smpi") == 0 && i + 1 < argc) {
            smpi = argv[++i];
        } else if (std::strcmp(argv[i], "--dump-sums") == 0 && i + 1 < argc) {
            gDump = std::fopen(argv[++i], "w");
            if (!gDump) {
                std::fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[i]);
                return 1;
            }
        } else if (std::strcmp(argv[i], "--generated-only") == 0) {
            generatedOnly = true;
        } else {
            std::fprintf(
                stderr,
                "usage: %s [--traces DIR] [--smpi DIR] [--generated-only] [--dump-sums CSV]\n",
                argv[0]);
            return 2;
        }
    }
    const std::vector<Case> cases = {
        {"stencil2d",
         {16, 36, 64, 144},
         576,
         {{"pack", 200e3, ScalingLaw::Constant},
          {"interior", 3.2e8, ScalingLaw::InverseN},
          {"unpack", 2e3, ScalingLaw::LinearN},
          {"boundary", 50e3, ScalingLaw::Constant}}},
        {"alltoall",
         {8, 16, 32, 64},
         256,
         {{"local_sort", 6e7, ScalingLaw::InverseN},
          {"bucket_count", 5e3, ScalingLaw::LinearN},
          {"merge", 300e3, ScalingLaw::Constant}}},
        {"stencil3d",
         {8, 27, 64, 125},
         343,
         {{"pack", 100e3, ScalingLaw::Constant},
          {"interior", 2e8, ScalingLaw::InverseN},
          {"unpack", 4e3, ScalingLaw::LinearN},
          {"boundary", 50e3, ScalingLaw::Constant}}},
    };
    std::printf("Generated series\n");
    header();
    for (const Case& c : cases) {
        std::vector<std::unique_ptr<Trace>> small;
        std::vector<const Trace*> ptrs;
        for (uint32_t n : c.scales) {
            small.push_back(std::make_unique<Trace>(generate(c, n)));
            ptrs.push_back(small.back().get());
        }
        runSet(c.pattern, ptrs, c.target, generate(c, c.target));
    }

    if (generatedOnly) return 0;
    namespace fs = std::filesystem;
    std::vector<std::pair<std::string, std::vector<Score>>> sets;
    std::vector<bench::LopoSet> lopo;
    if (!fs::is_directory(traces)) {
        std::printf("\nReal multi-scale traces: %s not found, skipped\n", traces.c_str());
    } else {
        std::printf("\nReal multi-scale Score-P runs (%s; oversubscribed on 2 cores)\n",
                    traces.c_str());
        header();
        const std::string t = traces + "/";
        runProgram({"NPB MG W", t + "scorep84-npb-mg-W-%u/traces.otf2", {4, 8, 16, 32}}, sets,
                   lopo);
        runProgram({"CloverLeaf", t + "scorep84-cloverleaf-%u/traces.otf2", {4, 8, 16, 32, 64}},
                   sets, lopo);
        // The SMPI runs: unpacked once from the shared archives.
        const fs::path archives = fs::path(traces) / "smpi" / "extract.sh";
        if (!fs::is_directory(smpi) && fs::exists(archives)) {
            std::printf("unpacking the SMPI runs into %s (once, about 900 MB)\n", smpi.c_str());
            const std::string cmd = "sh '" + archives.string() + "' '" + smpi + "' >/dev/null";
            if (std::system(cmd.c_str()) != 0)
                std::printf("could not unpack %s\n", archives.string().c_str());
        }
        if (fs::is_directory(smpi)) {
            std::printf("\nCluster-like SMPI runs of real programs (%s)\n", smpi.c_str());
            header();
            const std::string d = smpi + "/";
            runProgram({"NPB BT A",
                        d + "smpi-npb-bt-A50/bt-A50-%u/bt-A50-%u.paje",
                        {4, 9, 16, 25, 36, 64},
                        d + "smpi-npb-bt-A50/bt-A50-%u-rep2/bt-A50-%u-rep2.paje"},
                       sets, lopo);
            runProgram({"miniFE",
                        d + "smpi-minife-128/minife-128-%u/minife-128-%u.paje",
                        {4, 8, 16, 32, 64},
                        d + "smpi-minife-128/minife-128-%u-rep2/minife-128-%u-rep2.paje"},
                       sets, lopo);
            runProgram({"HPCG",
                        d + "smpi-hpcg-128x128x16/hpcg-128x128x16-%u/hpcg-128x128x16-%u.paje",
                        {2, 4, 8, 16, 32},
                        d + "smpi-hpcg-128x128x16/hpcg-128x128x16-%u-rep2/"
                            "hpcg-128x128x16-%u-rep2.paje"},
                       sets, lopo);
        } else {
            std::printf("\nSMPI runs: %s not found, skipped\n", smpi.c_str());
        }
    }
    summarise(sets);
    classicModeByProgram(sets, lopo);
    bench::leaveOneProgramOut(lopo);
    std::printf(
        "(accuracy of max_r S(r); median: accuracy of the median rank's S(r); W1 of the S(r) "
        "histograms normalised by the measured mean; interval: the method's uncertainty "
        "interval; held-out: its error predicting the largest input from the smaller ones; "
        "time: extrapolation of traces in memory)\n");
    return 0;
}
