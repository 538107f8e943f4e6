#include "app/cli/extrapolatecommand.h"

#include "model/deltas/histogram.h"
#include "model/trace/traceerror.h"
#include "whatif/extrap/extrapolation.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace rankscope::cli {

namespace {

using extrap::ExtrapolationResult;
using nlohmann::ordered_json;

ordered_json finite(double v)
{
    return std::isfinite(v) ? ordered_json(v) : ordered_json();
}

ordered_json optional(const std::optional<double>& v)
{
    return v ? finite(*v) : ordered_json();
}

ordered_json toJson(const extrap::SumEstimate& e)
{
    return {{"predicted", finite(e.predicted)},
            {"low", finite(e.low)},
            {"high", finite(e.high)},
            {"held_out_error_pct", optional(e.heldOutErrorPct)}};
}

ordered_json toJson(const ExtrapolationResult& r)
{
    ordered_json j;
    j["method"] = extrap::methodName(r.method);
    j["mode"] = extrap::modeName(r.mode);
    if (r.autoChosen) {
        j["method_chosen"] = extrap::methodName(r.method);
        auto& candidates = j["candidates"] = ordered_json::array();
        for (const extrap::MethodCandidate& c : r.candidates) {
            ordered_json o = {{"method", extrap::methodName(c.method)},
                              {"mode", extrap::modeName(c.mode)}};
            o.update(toJson(c.estimate));
            candidates.push_back(std::move(o));
        }
    }
    j["target"] = r.target;
    j["scales"] = r.scales;
    ordered_json& max = j["max_rank_delta_sum_ns"];
    max["predicted"] = finite(r.predictedMaxRankDeltaSum);
    max["low"] = finite(r.predictedMaxLow);
    max["high"] = finite(r.predictedMaxHigh);
    if (r.measuredMaxRankDeltaSum) {
        max["measured"] = finite(*r.measuredMaxRankDeltaSum);
        max["in_interval"] = *r.measuredMaxRankDeltaSum >= r.predictedMaxLow &&
                             *r.measuredMaxRankDeltaSum <= r.predictedMaxHigh;
    }
    if (r.accuracyPct) max["accuracy_pct"] = finite(*r.accuracyPct);
    j["interval_method"] = r.intervalMethod;
    j["held_out_error_pct"] = optional(r.heldOutErrorPct);
    if (!r.autoReason.empty()) j["auto_reason"] = r.autoReason;
    if (!r.sumModel.empty()) j["sum_model"] = r.sumModel;
    if (r.composition) j["composition"] = toJson(*r.composition);
    if (r.direct) j["direct"] = toJson(*r.direct);
    if (r.w1Normalized) j["w1_normalized"] = finite(*r.w1Normalized);
    auto& intervals = j["intervals"] = ordered_json::array();
    for (const auto& p : r.intervals) {
        ordered_json i;
        i["name"] = p.name;
        i["model"] = p.chosenModel;
        i["predicted_mean_ns"] = finite(p.predictedMean);
        i["predicted_mean_low_ns"] = finite(p.predictedMeanLow);
        i["predicted_mean_high_ns"] = finite(p.predictedMeanHigh);
        i["predicted_count"] = finite(p.predictedCount);
        if (p.measuredMean) i["measured_mean_ns"] = finite(*p.measuredMean);
        if (p.measuredCount) i["measured_count"] = finite(*p.measuredCount);
        intervals.push_back(std::move(i));
    }
    j["missing_intervals"] = r.missingIntervals;
    return j;
}

std::string label(extrap::Method method, extrap::Mode mode)
{
    return extrap::methodName(method) + " (" + extrap::modeName(mode) + ")";
}

std::string label(const ExtrapolationResult& r)
{
    return label(r.method, r.mode);
}

std::string heldOutText(const std::optional<double>& e)
{
    if (!e) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %%", *e);
    return buf;
}

void printOne(const ExtrapolationResult& r)
{
    std::printf("%s%s extrapolation to %u ranks from", r.autoChosen ? "auto: " : "",
                label(r).c_str(), r.target);
    for (uint32_t s : r.scales)
        std::printf(" %u", s);
    if (r.autoChosen) {
        std::printf("\n\n%-22s %12s %12s %12s %16s\n", "method (held-out err.)", "predicted", "low",
                    "high", "held-out error");
        for (const extrap::MethodCandidate& c : r.candidates)
            std::printf("%-22s %12s %12s %12s %16s%s\n", label(c.method, c.mode).c_str(),
                        durationText(int64_t(c.estimate.predicted)).c_str(),
                        durationText(int64_t(c.estimate.low)).c_str(),
                        durationText(int64_t(c.estimate.high)).c_str(),
                        heldOutText(c.estimate.heldOutErrorPct).c_str(),
                        &c == &r.candidates.front() ? "  <- chosen" : "");
        if (!r.autoReason.empty()) std::printf("auto chose %s\n", r.autoReason.c_str());
    }
    if (!r.sumModel.empty())
        std::printf(
            "\nmax S(r) from the %s (held-out error: composition %s, direct %s)",
            r.sumModel.c_str(),
            heldOutText(r.composition ? r.composition->heldOutErrorPct : std::nullopt).c_str(),
            heldOutText(r.direct ? r.direct->heldOutErrorPct : std::nullopt).c_str());
    std::printf("\nmax rank delta sum: %s [%s, %s]",
                durationText(int64_t(r.predictedMaxRankDeltaSum)).c_str(),
                durationText(int64_t(r.predictedMaxLow)).c_str(),
                durationText(int64_t(r.predictedMaxHigh)).c_str());
    if (r.measuredMaxRankDeltaSum)
        std::printf(", measured %s, accuracy %.1f %%, W1 %.3f",
                    durationText(int64_t(*r.measuredMaxRankDeltaSum)).c_str(), *r.accuracyPct,
                    *r.w1Normalized);
    std::printf("\n\n%12s %10s %12s %10s  %-26s %s\n", "mean", "count", "meas. mean", "meas. cnt",
                "model", "interval");
    for (const auto& p : r.intervals) {
        const std::string mm = p.measuredMean ? durationText(int64_t(*p.measuredMean)) : "-";
        const std::string mc =
            p.measuredCount ? std::to_string(std::llround(*p.measuredCount)) : "-";
        std::printf("%12s %10.0f %12s %10s  %-26s %s\n",
                    durationText(int64_t(p.predictedMean)).c_str(), p.predictedCount, mm.c_str(),
                    mc.c_str(), p.chosenModel.c_str(), p.name.c_str());
    }
    for (const std::string& m : r.missingIntervals)
        std::printf("missing: %s\n", m.c_str());
}

void printCompare(const ExtrapolationResult& c, const ExtrapolationResult& r)
{
    std::printf("%-28s %20s %20s\n", "", label(c).c_str(), label(r).c_str());
    const auto row = [](const char* what, const std::string& a, const std::string& b) {
        std::printf("%-28s %20s %20s\n", what, a.c_str(), b.c_str());
    };
    row("predicted max S(r)", durationText(int64_t(c.predictedMaxRankDeltaSum)),
        durationText(int64_t(r.predictedMaxRankDeltaSum)));
    if (c.measuredMaxRankDeltaSum) {
        const auto pct = [](double v) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.1f %%", v);
            return std::string(buf);
        };
        const auto w1 = [](double v) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.3f", v);
            return std::string(buf);
        };
        row("measured max S(r)", durationText(int64_t(*c.measuredMaxRankDeltaSum)),
            durationText(int64_t(*r.measuredMaxRankDeltaSum)));
        row("accuracy", pct(*c.accuracyPct), pct(*r.accuracyPct));
        row("W1 (normalised)", w1(*c.w1Normalized), w1(*r.w1Normalized));
    }
    for (const std::string& m : r.missingIntervals)
        std::printf("missing: %s\n", m.c_str());
}

} // namespace

CLI::App* ExtrapolateCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "extrapolate", "Predict delta times and max rank delta sum at a larger scale from traces "
                       "at 3 or more small scales (classic or Rankscope method)");
    cmd->add_option("traces", traces_, "OTF2 traces of the same program at small scales")
        ->required();
    cmd->add_option("--method", method_,
                    "auto (score classic and rankscope by held-out error, keep the best), "
                    "classic or rankscope")
        ->check(CLI::IsMember({"auto", "classic", "rankscope"}))
        ->capture_default_str();
    cmd->add_option("--mode", mode_,
                    "sum or interval (default: sum for classic, interval for "
                    "rankscope, which never fits the sum)")
        ->check(CLI::IsMember({"sum", "interval"}));
    cmd->add_option("--target", target_, "The rank count to predict")->required();
    cmd->add_option("--bins", bins_, "Histogram bins")->capture_default_str();
    cmd->add_option("--measured", measured_,
                    "A measured trace at the target scale to compare with");
    cmd->add_flag("--compare", compare_, "Run both methods and print them side by side");
    cmd->add_flag("--allow-partial", load_.allowPartial,
                  "Keep what can be read from a damaged trace and say what is missing");
    addOutputFormats(cmd, json_);
    return cmd;
}

int ExtrapolateCommand::run() const
{
    if (target_ < 1)
        throw UsageError("--target must be a rank count of at least 1, got " +
                         std::to_string(target_));
    if (target_ > int64_t(extrap::kMaxTargetRanks))
        throw TraceError("--target " + std::to_string(target_) + " is above the limit of " +
                         std::to_string(extrap::kMaxTargetRanks) + " (2^24) ranks");
    if (bins_ < 1 || bins_ > kMaxHistogramBins)
        throw UsageError("--bins must be in 1.." + std::to_string(kMaxHistogramBins) + ", got " +
                         std::to_string(bins_));
    if (method_ == "rankscope" && mode_ == "sum" && !compare_)
        throw UsageError("the rankscope method never fits the sum directly: use --mode interval "
                         "(or --method classic)");

    std::vector<std::unique_ptr<Trace>> owned;
    std::vector<const Trace*> traces;
    for (const std::string& path : traces_) {
        owned.push_back(std::make_unique<Trace>(loadTrace(path, load_)));
        traces.push_back(owned.back().get());
    }
    std::unique_ptr<Trace> measured;
    if (!measured_.empty()) measured = std::make_unique<Trace>(loadTrace(measured_, load_));

    extrap::ExtrapolationOptions options;
    options.target = uint32_t(target_);
    options.bins = bins_;
    options.traceNames = traces_;
    const auto run = [&](extrap::Method method, const std::string& mode) {
        options.method = method;
        options.mode = mode == "sum" || (mode.empty() && method == extrap::Method::Classic)
                           ? extrap::Mode::Sum
                           : extrap::Mode::Interval;
        return extrap::extrapolate(traces, options, measured.get());
    };
    if (compare_) {
        const ExtrapolationResult c = run(extrap::Method::Classic, mode_);
        const ExtrapolationResult r = run(extrap::Method::Rankscope, "interval");
        if (json_) {
            ordered_json j;
            j["classic"] = toJson(c);
            j["rankscope"] = toJson(r);
            printJson(j);
        } else {
            printCompare(c, r);
        }
        return kOk;
    }
    const ExtrapolationResult r = run(method_ == "classic"     ? extrap::Method::Classic
                                      : method_ == "rankscope" ? extrap::Method::Rankscope
                                                               : extrap::Method::Auto,
                                      mode_);
    if (json_)
        printJson(toJson(r));
    else
        printOne(r);
    return kOk;
}

} // namespace rankscope::cli
