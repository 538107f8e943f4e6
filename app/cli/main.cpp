// rankscope-cli: the command-line twin of the Rankscope GUI.

#include "app/cli/calibratecommand.h"
#include "app/cli/clicommon.h"
#include "app/cli/clidocs.h"
#include "app/cli/collectivecommand.h"
#include "app/cli/commmatrixcommand.h"
#include "app/cli/comparecommand.h"
#include "app/cli/convertcommand.h"
#include "app/cli/criticalpathcommand.h"
#include "app/cli/extrapolatecommand.h"
#include "app/cli/fitcommand.h"
#include "app/cli/generatecommand.h"
#include "app/cli/infocommand.h"
#include "app/cli/intervalscommand.h"
#include "app/cli/messagescommand.h"
#include "app/cli/metricscommand.h"
#include "app/cli/popcommand.h"
#include "app/cli/predictcommand.h"
#include "app/cli/profilecommand.h"
#include "app/cli/rootcausecommand.h"
#include "app/cli/scalingcommand.h"
#include "app/cli/scenariocommand.h"
#include "app/cli/simulatecommand.h"
#include "app/cli/summarizecommand.h"
#include "app/cli/sweepcommand.h"
#include "app/cli/waitstatescommand.h"
#include "model/trace/traceerror.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <functional>
#include <new>
#include <string>
#include <utility>
#include <vector>

using namespace rankscope;
using namespace rankscope::cli;

int main(int argc, char** argv)
{
    CLI::App app{"Rankscope command line: MPI trace analysis and what-if studies.\n"
                 "Exit codes: 0 success, 1 bad input, 2 bad usage."};
    app.set_version_flag("--version", RANKSCOPE_VERSION);
    // At most one subcommand; "none" is reported below. (require_subcommand(1) would make CLI11
    // say "a subcommand is required" even for a misspelt one, hiding the word it did not know.)
    app.require_subcommand(0, 1);
    // Hidden (empty group): the build writes the man page and the bash completion with it.
    std::string docs;
    app.add_option("--generate-docs", docs, "Print the man page or the bash completion")
        ->check(CLI::IsMember({"man", "bash-completion"}))
        ->group("");

    InfoCommand info;
    ProfileCommand profile;
    IntervalsCommand intervals;
    ConvertCommand convert;
    GenerateCommand generate;
    WaitStatesCommand waitstates;
    CommMatrixCommand commmatrix;
    MessagesCommand messages;
    MetricsCommand metrics;
    RootCauseCommand rootcause;
    CriticalPathCommand criticalpath;
    SimulateCommand simulate;
    SweepCommand sweep;
    CollectiveCommand collective;
    FitCommand fit;
    ExtrapolateCommand extrapolate;
    PredictCommand predict;
    CalibrateCommand calibrate;
    CompareCommand compare;
    ScenarioCommand scenario;
    SummarizeCommand summarize;
    PopCommand pop;
    ScalingCommand scaling;
    const std::vector<std::pair<CLI::App*, std::function<int()>>> commands = {
        {info.add(app), [&] { return info.run(); }},
        {profile.add(app), [&] { return profile.run(); }},
        {intervals.add(app), [&] { return intervals.run(); }},
        {convert.add(app), [&] { return convert.run(); }},
        {generate.add(app), [&] { return generate.run(); }},
        {waitstates.add(app), [&] { return waitstates.run(); }},
        {rootcause.add(app), [&] { return rootcause.run(); }},
        {commmatrix.add(app), [&] { return commmatrix.run(); }},
        {messages.add(app), [&] { return messages.run(); }},
        {metrics.add(app), [&] { return metrics.run(); }},
        {criticalpath.add(app), [&] { return criticalpath.run(); }},
        {simulate.add(app), [&] { return simulate.run(); }},
        {sweep.add(app), [&] { return sweep.run(); }},
        {collective.add(app), [&] { return collective.run(); }},
        {fit.add(app), [&] { return fit.run(); }},
        {extrapolate.add(app), [&] { return extrapolate.run(); }},
        {predict.add(app), [&] { return predict.run(); }},
        {calibrate.add(app), [&] { return calibrate.run(); }},
        {compare.add(app), [&] { return compare.run(); }},
        {scenario.add(app), [&] { return scenario.run(); }},
        {summarize.add(app), [&] { return summarize.run(); }},
        {pop.add(app), [&] { return pop.run(); }},
        {scaling.add(app), [&] { return scaling.run(); }},
    };

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? kOk : kBadUsage;
    }

    if (!docs.empty()) {
        const std::string text =
            docs == "man" ? manPage(app, RANKSCOPE_VERSION) : bashCompletion(app);
        std::fwrite(text.data(), 1, text.size(), stdout);
        return std::fflush(stdout) == 0 ? kOk : kBadInput;
    }

    try {
        for (const auto& [cmd, run] : commands)
            if (cmd->parsed()) return run();
    } catch (const UsageError& e) {
        std::fprintf(stderr, "rankscope-cli: %s\nRun with --help for more information.\n",
                     e.what());
        return kBadUsage;
    } catch (const TraceError& e) {
        std::fprintf(stderr, "rankscope-cli: error: %s\n", e.what());
        return kBadInput;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "rankscope-cli: error: out of memory\n");
        return kBadInput;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rankscope-cli: error: %s\n", e.what());
        return kBadInput;
    }
    std::string names;
    for (const auto& [cmd, run] : commands)
        names += (names.empty() ? "" : ", ") + cmd->get_name();
    std::fprintf(stderr,
                 "rankscope-cli: a subcommand is required (%s)\n"
                 "Run with --help for more information.\n",
                 names.c_str());
    return kBadUsage;
}
