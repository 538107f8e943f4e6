#include "app/cli/fitcommand.h"

#include "whatif/extrap/extrapolation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <vector>

namespace rankscope::cli {

namespace {

using extrap::FitPoint;
using extrap::Method;
using extrap::SeriesFit;

double number(const std::string& text, const std::string& what)
{
    size_t used = 0;
    double v = 0;
    try {
        v = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size() || !std::isfinite(v))
        throw UsageError("not a number in " + what + ": '" + text + "'");
    return v;
}

/// "N" or "N,S" -> (n, s).
std::pair<double, double> scaleOf(const std::string& text, const std::string& what)
{
    const size_t comma = text.find(',');
    const double n = number(text.substr(0, comma), what);
    const double s = comma == std::string::npos ? 0 : number(text.substr(comma + 1), what);
    if (!(n > 0) || (comma != std::string::npos && !(s > 0)))
        throw UsageError("scales and problem sizes must be positive in " + what + ": '" + text +
                         "'");
    return {n, s};
}

FitPoint pointOf(const std::string& text)
{
    const size_t colon = text.rfind(':');
    if (colon == std::string::npos)
        throw UsageError("--point takes N:VALUE or N,S:VALUE, got '" + text + "'");
    const auto [n, s] = scaleOf(text.substr(0, colon), "--point " + text);
    return {n, s, number(text.substr(colon + 1), "--point " + text)};
}

nlohmann::ordered_json finite(double v)
{
    return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json();
}

nlohmann::ordered_json toJson(const SeriesFit& f)
{
    nlohmann::ordered_json j;
    auto& models = j["models"] = nlohmann::ordered_json::array();
    for (const auto& m : f.models)
        models.push_back(
            {{"name", m.name},
             {"d", finite(m.d)},
             {"prediction", finite(m.prediction)},
             {"formula", m.formula},
             {"held_out_pct", m.heldOutPct >= 0 ? finite(m.heldOutPct) : nlohmann::ordered_json()},
             {"plausible", m.plausible}});
    j["chosen"] = f.chosenName();
    j["prediction"] = finite(f.prediction);
    j["low"] = finite(f.low);
    j["high"] = finite(f.high);
    j["clamped"] = f.clamped;
    j["interval_method"] = "model_spread_and_noise";
    return j;
}

void printText(const SeriesFit& f, Method method)
{
    std::printf("%-40s %12s %14s\n",
                method == Method::Classic ? "model" : "model (d = held-out SMAPE %)", "d",
                "prediction");
    // Best first; the PMNF search has dozens of candidates (thousands with a problem size), so
    // text shows the best kShown and the chosen one; --json lists them all.
    constexpr size_t kShown = 12;
    std::vector<size_t> order(f.models.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return f.models[a].d < f.models[b].d; });
    size_t shown = 0;
    for (size_t k = 0; k < order.size(); ++k) {
        const size_t i = order[k];
        if (k >= kShown && int(i) != f.chosen) continue;
        const auto& m = f.models[i];
        std::printf("%-40s %12.6g %14.6g%s\n", m.name.c_str(), m.d, m.prediction,
                    int(i) == f.chosen ? "  <- chosen"
                    : !m.plausible     ? "  (implausible: negative at the target)"
                                       : "");
        ++shown;
    }
    if (shown < f.models.size())
        std::printf("(%zu more candidates; --json lists all)\n", f.models.size() - shown);
    std::printf("\nchosen: %s (%s)\nprediction: %.6g", f.chosenName().c_str(),
                f.chosen >= 0 ? f.models[size_t(f.chosen)].formula.c_str() : "", f.prediction);
    if (method == Method::Rankscope) std::printf("  [%.6g, %.6g]", f.low, f.high);
    std::printf("%s\n", f.clamped ? "  (negative prediction clamped to 0)" : "");
}

} // namespace

CLI::App* FitCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "fit", "Fit one series of timings (classic four models or Rankscope's PMNF search) and "
               "predict it at a target scale");
    cmd->add_option("--method", method_, "classic or rankscope")
        ->check(CLI::IsMember({"classic", "rankscope"}))
        ->capture_default_str();
    cmd->add_option("--point", points_, "A sample N:VALUE (or N,S:VALUE with a problem size)")
        ->required();
    cmd->add_option("--target", target_, "The scale to predict: N (or N,S)")->required();
    cmd->add_flag("--compare", compare_, "Run both methods and print them side by side");
    addOutputFormats(cmd, json_);
    return cmd;
}

int FitCommand::run() const
{
    std::vector<FitPoint> points;
    for (const std::string& p : points_)
        points.push_back(pointOf(p));
    // (A pair, not a structured binding: clang 14 cannot capture those in a lambda.)
    const std::pair<double, double> scale = scaleOf(target_, "--target");
    const double n = scale.first, s = scale.second;
    const auto fit = [&](Method m) { return extrap::fitSeries(points, m, n, s); };
    if (compare_) {
        const SeriesFit classic = fit(Method::Classic);
        const SeriesFit rankscope = fit(Method::Rankscope);
        if (json_) {
            nlohmann::ordered_json j;
            j["classic"] = toJson(classic);
            j["rankscope"] = toJson(rankscope);
            printJson(j);
            return kOk;
        }
        std::printf("%-10s %-40s %14s %14s %14s\n", "method", "chosen", "prediction", "low",
                    "high");
        for (const auto& [name, f] :
             {std::pair{"classic", &classic}, std::pair{"rankscope", &rankscope}})
            std::printf("%-10s %-40s %14.6g %14.6g %14.6g\n", name, f->chosenName().c_str(),
                        f->prediction, f->low, f->high);
        return kOk;
    }
    const Method method = method_ == "classic" ? Method::Classic : Method::Rankscope;
    const SeriesFit f = fit(method);
    if (json_)
        printJson(toJson(f));
    else
        printText(f, method);
    return kOk;
}

} // namespace rankscope::cli
