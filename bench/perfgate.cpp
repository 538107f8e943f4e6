// rankscope-perf-gate: the performance gate's measurements and verdict (scripts/perf-gate.sh
// runs it in CI). Each ratio (perfgate.h) is compared with its threshold in bench/thresholds.yaml;
// a median worse than its threshold by more than the run's measured noise fails the gate with
// the figure and the threshold. A threshold moves only by a commit that says why.
//
// Usage: rankscope-perf-gate [--thresholds FILE] [--data DIR] [--shared DIR] [--repeat K]
//                            [--case import|replay|frame|waits|extrap]... [--json]
// Exit status: 0 every ratio at or above its threshold (within the noise), 1 a ratio below,
// 2 bad usage or a thresholds file that cannot be read.

#include "perfgate.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>
#include <yaml-cpp/yaml.h>

using namespace rankscope::bench;

namespace {

/// The thresholds file: a map from ratio name to {min: X, ...}; other keys are documentation.
std::map<std::string, double> readThresholds(const std::string& file)
{
    std::map<std::string, double> out;
    const YAML::Node root = YAML::LoadFile(file);
    if (!root.IsMap()) throw std::runtime_error(file + ": not a map of ratio names");
    for (const auto& entry : root) {
        const std::string name = entry.first.as<std::string>();
        const YAML::Node min = entry.second["min"];
        if (!min) throw std::runtime_error(file + ": " + name + " has no 'min'");
        const double v = min.as<double>();
        if (!std::isfinite(v) || v <= 0)
            throw std::runtime_error(file + ": " + name + ": 'min' must be a positive number");
        if (!out.emplace(name, v).second)
            throw std::runtime_error(file + ": " + name + " is given twice");
    }
    return out;
}

int usage(const char* why)
{
    std::fprintf(stderr,
                 "rankscope-perf-gate: %s\nusage: rankscope-perf-gate [--thresholds FILE] "
                 "[--data DIR] [--shared DIR] [--repeat K] [--case NAME]... [--json]\n",
                 why);
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    // The frame case renders into images; it needs no display.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);

    GateOptions o;
#ifdef RANKSCOPE_SHARED_TRACES
    o.sharedTraces = RANKSCOPE_SHARED_TRACES;
#endif
    std::string thresholdsFile;
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "--json") {
            json = true;
        } else if (hasValue && a == "--thresholds") {
            thresholdsFile = argv[++i];
        } else if (hasValue && a == "--data") {
            o.data = argv[++i];
        } else if (hasValue && a == "--shared") {
            o.sharedTraces = argv[++i];
        } else if (hasValue && a == "--repeat") {
            o.repeat = std::atoi(argv[++i]);
            if (o.repeat < 1 || o.repeat > 100) return usage("--repeat takes 1 to 100");
        } else if (hasValue && a == "--case") {
            const std::string c = argv[++i];
            static const char* kCases[] = {"import", "replay", "frame", "waits", "extrap"};
            if (std::none_of(std::begin(kCases), std::end(kCases),
                             [&](const char* k) { return c == k; }))
                return usage(("unknown case '" + c + "'").c_str());
            o.only.push_back(c);
        } else {
            return usage(("unknown option '" + a + "'").c_str());
        }
    }

    std::map<std::string, double> thresholds;
    try {
        if (!thresholdsFile.empty()) thresholds = readThresholds(thresholdsFile);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rankscope-perf-gate: %s\n", e.what());
        return 2;
    }

    std::vector<GateRatio> ratios;
    try {
        ratios = measureCoreRatios(o);
        if (o.only.empty() || std::find(o.only.begin(), o.only.end(), "frame") != o.only.end()) {
            auto frames = measureFrameRatios(o);
            ratios.insert(ratios.end(), frames.begin(), frames.end());
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rankscope-perf-gate: %s\n", e.what());
        return 1;
    }

    bool failed = false;
    nlohmann::json rows = nlohmann::json::array();
    std::printf("\n%-28s %8s %7s %9s  %s\n", "ratio (higher is better)", "median", "noise",
                "threshold", "verdict");
    for (const GateRatio& r : ratios) {
        const auto t = thresholds.find(r.name);
        const GateVerdict v = judge(r.samples, t == thresholds.end() ? nullptr : &t->second);
        const bool missing = !thresholdsFile.empty() && !v.hasThreshold;
        const char* verdict = v.fails ? "FAIL" : missing ? "FAIL (no threshold)" : "ok";
        failed = failed || v.fails || missing;
        char thr[32] = "-";
        if (v.hasThreshold) std::snprintf(thr, sizeof thr, "%.3f", v.threshold);
        std::printf("%-28s %8.3f %6.1f%% %9s  %s   %s\n", r.name.c_str(), v.median, 100 * v.noise,
                    thr, verdict, r.what.c_str());
        rows.push_back({{"name", r.name},
                        {"what", r.what},
                        {"samples", r.samples},
                        {"median", v.median},
                        {"noise", v.noise},
                        {"threshold", v.hasThreshold ? nlohmann::json(v.threshold) : nullptr},
                        {"fails", v.fails || missing}});
    }
    // A threshold for a ratio this run should have measured but did not: the gate lost a case.
    if (o.only.empty())
        for (const auto& entry : thresholds) {
            const std::string& name = entry.first; // not a structured binding: a lambda uses it
            if (std::none_of(ratios.begin(), ratios.end(),
                             [&](const GateRatio& r) { return r.name == name; }) &&
                name.rfind("extrap_", 0) != 0) {
                std::printf("%-28s %8s %7s %9.3f  FAIL (not measured)\n", name.c_str(), "-", "-",
                            entry.second);
                failed = true;
            }
        }
    for (const GateRatio& r : ratios) {
        const auto t = thresholds.find(r.name);
        const GateVerdict v = judge(r.samples, t == thresholds.end() ? nullptr : &t->second);
        if (v.fails)
            std::printf("perf-gate: FAIL %s: %.3f (noise %.1f %%) is below its threshold %.3f "
                        "by more than the noise\n",
                        r.name.c_str(), v.median, 100 * v.noise, v.threshold);
    }
    if (json)
        std::printf("%s\n", nlohmann::json{{"ratios", rows}, {"pass", !failed}}.dump(2).c_str());
    std::printf("perf-gate: %s\n", failed ? "FAILED" : "passed");
    return failed ? 1 : 0;
}
