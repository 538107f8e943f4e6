#include "app/cli/scenariocommand.h"

#include "app/cli/netsimoptions.h"
#include "app/report/whatifjson.h"
#include "importers/simgrid/simgridpeer.h"
#include "model/trace/traceerror.h"
#include "whatif/scenario/scenariorun.h"
#include "whatif/scenario/whatifpipeline.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace rankscope::cli {

namespace {

using nlohmann::ordered_json;

std::string signedDuration(int64_t ns)
{
    return (ns < 0 ? "-" : "+") + durationText(ns < 0 ? -ns : ns);
}

std::string percent(const std::optional<double>& v)
{
    if (!v) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f %%", *v);
    return buf;
}

void printCalibration(const whatif::WhatIfCalibration& c)
{
    std::printf("  calibration to %s (%u ranks): its replay %+.1f %% on the spec, %+.1f %% on "
                "the fit: %s\n",
                c.source.c_str(), c.sourceRanks, c.uncalibratedErrorPct, c.calibratedErrorPct,
                c.applied ? (c.partial ? "applied in part" : "applied") : "not applied");
    if (!c.reason.empty()) std::printf("    %s\n", c.reason.c_str());
    if (!c.placement.empty()) std::printf("    target placement: %s\n", c.placement.c_str());
}

void printExtrapolation(const whatif::WhatIfResult& r)
{
    const whatif::WhatIfExtrapolation& e = *r.extrapolation;
    const auto line = [](const char* what, const extrap::ExtrapolationResult& x) {
        std::printf("  %-9s %-22s max S(r) %s [%s, %s]", what,
                    (extrap::methodName(x.method) + " (" + extrap::modeName(x.mode) + ")").c_str(),
                    durationText(x.predictedMaxRankDeltaSum).c_str(),
                    durationText(x.predictedMaxLow).c_str(),
                    durationText(x.predictedMaxHigh).c_str());
        if (x.accuracyPct) std::printf("  accuracy %.1f %%", *x.accuracyPct);
        std::printf("\n");
    };
    const extrap::ExtrapolationResult* primary = e.primary();
    if (!primary) return;
    std::printf("  target %u ranks%s\n", primary->target,
                e.autoChosen ? " (method chosen automatically)" : "");
    if (primary->measuredMaxRankDeltaSum)
        std::printf("  measured  max S(r) %s\n",
                    durationText(*primary->measuredMaxRankDeltaSum).c_str());
    line("predicted", *primary);
    for (const auto* other :
         {e.rankscope ? &*e.rankscope : nullptr, e.classic ? &*e.classic : nullptr})
        if (other && other != primary) line("other", *other);
}

bool hasEdit(const whatif::Scenario& s)
{
    return !s.overrides.empty() || !s.collectives.empty() || s.cpuFactor != 1.0 ||
           !s.sweepParam.empty();
}

void printResult(const whatif::Scenario& s, const whatif::WhatIfResult& r)
{
    std::printf("scenario: %s\n  %s\n", r.name.c_str(), whatif::describe(s).c_str());
    if (r.kind == whatif::ScenarioKind::Extrapolate) {
        printExtrapolation(r);
        return;
    }
    if (r.calibration) printCalibration(*r.calibration);
    if (!r.span.empty()) std::printf("  span: %s\n", r.span.c_str());
    std::printf("  %-24s %12s %12s %12s\n", "", "run time", "MPI time", "wait time");
    if (r.measured)
        std::printf("  %-24s %12s %12s\n", "measured", durationText(r.measured->runNs).c_str(),
                    durationText(r.measured->mpiNs).c_str());
    if (r.baseline)
        std::printf("  %-24s %12s %12s %12s   calibration error %s\n", "baseline replay",
                    durationText(r.baseline->runNs).c_str(),
                    durationText(r.baseline->mpiNs).c_str(),
                    r.baselineWaitNs ? durationText(*r.baselineWaitNs).c_str() : "-",
                    percent(r.baselineErrorPct).c_str());
    const bool scale = r.kind == whatif::ScenarioKind::Scale;
    for (const whatif::WhatIfPoint& p : r.runs) {
        const std::string label = p.value.empty()
                                      ? std::string(scale ? "predicted" : "edited replay")
                                      : r.sweepParam + "=" + p.value;
        if (!p.error.empty()) {
            std::printf("  %-24s failed: %s\n", label.c_str(), p.error.c_str());
            continue;
        }
        std::printf("  %-24s %12s %12s %12s\n", label.c_str(),
                    durationText(p.predicted.runNs).c_str(),
                    durationText(p.predicted.mpiNs).c_str(),
                    p.waitNs ? durationText(*p.waitNs).c_str() : "-");
        if (scale)
            std::printf("    predicted run time %s at %u ranks (%llu events)\n",
                        durationText(p.predicted.runNs).c_str(), p.ranks,
                        (unsigned long long)p.events);
        // The effect of the edit (edited vs baseline), then the error (prediction vs measured).
        if (p.effectNs && (!scale || hasEdit(s))) {
            char pct[32] = "";
            if (p.effectPct) std::snprintf(pct, sizeof pct, " (%+.1f%%)", *p.effectPct);
            std::printf("    effect %s%s%s (edited vs baseline)\n",
                        signedDuration(*p.effectNs).c_str(), pct,
                        *p.effectNs > 0 ? ", slower" : (*p.effectNs < 0 ? ", faster" : ""));
        }
        if (p.errorPct && (scale || r.measured))
            std::printf("    error %s (prediction vs measured)\n", percent(p.errorPct).c_str());
        if (p.structure)
            std::printf("    against the measured run: messages per call site off by at most "
                        "%.3g %% (%llu predicted, %llu measured), bytes by at most %.3g %%\n",
                        p.structure->messagesPct,
                        (unsigned long long)p.structure->predictedMessages,
                        (unsigned long long)p.structure->measuredMessages, p.structure->bytesPct);
    }
    if (r.peer)
        std::printf("  engines on the edited spec: rankscope (%s) %s, %s (smpirun) %s: %+.2f %% "
                    "(wall-clock %.3f s and %.3f s)\n",
                    r.peer->model.c_str(), durationText(r.peer->rankscopeNs).c_str(),
                    r.peer->engine.c_str(), durationText(r.peer->peerNs).c_str(),
                    r.peer->differencePercent, r.peer->rankscopeWallSeconds,
                    r.peer->peerWallSeconds);
}

} // namespace

CLI::App* ScenarioCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand("scenario", "Run saved what-if scenarios");
    cmd->require_subcommand(1);
    run_ = cmd->add_subcommand(
        "run", "Run the scenarios of a scenario or session file through the what-if pipeline "
               "the GUI uses: for a replay the measured run, the baseline replay, the edited "
               "replay and the effect of the edit; for a scale scenario the synthesised run, "
               "its error against a measured run and the calibration used; for an "
               "extrapolation max S(r) by both methods");
    run_->add_option("file", file_, "Scenario file (YAML), or a session file")->required();
    run_->add_flag("--allow-partial", load_.allowPartial,
                   "Keep what can be read from a damaged trace and say what is missing");
    addOutputFormats(run_, json_);
    return cmd;
}

int ScenarioCommand::run() const
{
    const std::vector<whatif::Scenario> scenarios = whatif::readScenarioFile(file_);
    ordered_json all = ordered_json::array();
    for (const whatif::Scenario& s : scenarios) {
        if (const std::string problem = whatif::validate(s); !problem.empty())
            throw TraceError(file_ + ": scenario '" + s.name + "': " + problem);
        whatif::WhatIfInputs in;
        if (s.kind != whatif::ScenarioKind::Extrapolate || !s.network.empty())
            in.fileSpec = loadNetworkSpec(s.network, {});
        for (const std::string& path : s.baselines) {
            in.baselines.push_back(std::make_shared<const Trace>(loadTrace(path, load_)));
            in.names.push_back(path);
        }
        if (!s.compareWith.empty()) {
            in.measured = std::make_shared<const Trace>(loadTrace(s.compareWith, load_));
            in.measuredName = s.compareWith;
        }
        whatif::WhatIfOptions options;
        options.peer = &bench::simgridPeer();
        const whatif::WhatIfResult r = whatif::runWhatIf(s, in, options);
        for (const std::string& n : r.notes)
            std::fprintf(stderr, "rankscope-cli: note: %s\n", n.c_str());
        for (const std::string& w : r.warnings)
            std::fprintf(stderr, "rankscope-cli: warning: %s\n", w.c_str());
        if (!r.peerError.empty())
            throw TraceError(file_ + ": scenario '" + s.name + "' has engine: simgrid, but " +
                             r.peerError);
        if (json_)
            all.push_back(whatIfJson(r));
        else
            printResult(s, r);
    }
    if (json_) printJson((all.size() == 1 ? all.front() : all));
    return kOk;
}

} // namespace rankscope::cli
