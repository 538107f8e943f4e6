#include "app/cli/summarizecommand.h"

#include "app/report/analysisjson.h"
#include "importers/rsum/resultsummary.h"
#include "model/trace/traceerror.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace rankscope::cli {

CLI::App* SummarizeCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "summarize", "Write a trace's result summary (.rsum: profile, intervals, wait states, "
                     "root causes, timeline pyramids), or print one (--json)");
    addTraceInput(cmd, trace_, load_);
    cmd->add_option("-o,--output", output_, "The .rsum file to write");
    cmd->add_option("--eager-limit", eagerLimit_,
                    "Messages above BYTES use rendezvous: their send waits for the receiver")
        ->check(nonNegativeCount())
        ->capture_default_str();
    cmd->add_option("--hotspot-threshold", hotspotThreshold_,
                    "A function is a hotspot when its exclusive time is at least PCT % of the "
                    "total (0 < PCT <= 100)")
        ->check(finiteNumber())
        ->check(CLI::Range(1e-9, 100.0))
        ->capture_default_str();
    cmd->add_flag("--json", json_,
                  "Print the summary's results (of TRACE, or of a .rsum given as TRACE) with the "
                  "keys of `rankscope-mpi analyse --json`");
    return cmd;
}

int SummarizeCommand::run() const
{
    ResultSummary s;
    if (isResultSummaryPath(trace_)) {
        if (!output_.empty())
            throw UsageError("summarize: " + trace_ + " is a summary already; give a trace");
        s = readResultSummary(trace_);
        noteInput(trace_, s.trace->diagnostics(), true);
    } else {
        if (output_.empty() && !json_)
            throw UsageError("summarize: give -o RESULT.rsum, --json, or both");
        if (!output_.empty() && !isResultSummaryPath(output_))
            throw UsageError("summarize: the output must end in .rsum, got " + output_);
        if (!output_.empty()) refuseOutputOverInputs("summarize -o", output_, {trace_});
        auto trace = std::make_shared<const Trace>(loadTrace(trace_, load_));
        WaitStateOptions waits;
        waits.eagerLimit = eagerLimit_;
        // The absolute path: the GUI opens the trace's ranks from it (or looks beside the
        // summary when the pair has moved).
        s = summarizeWholeTrace(std::move(trace),
                                std::filesystem::absolute(trace_).lexically_normal().string(),
                                waits, hotspotThreshold_, load_.threads);
        if (!output_.empty()) {
            writeResultSummary(output_, s);
            if (!json_) {
                std::error_code ec;
                const auto bytes = std::filesystem::file_size(output_, ec);
                std::printf("%s: %zu ranks, %llu events summarised in %.1f MB\n", output_.c_str(),
                            s.trace->rankCount(), (unsigned long long)s.events,
                            ec ? 0.0 : double(bytes) / 1e6);
            }
        }
    }
    if (json_) {
        nlohmann::ordered_json j;
        j["profile"] = profileJson(*s.trace, summaryProfile(s));
        j["intervals"] = intervalsJson(s.trace->rankCount(), summaryIntervals(s));
        j["waitstates"] = waitStatesJson(s.waits);
        j["rootcause"] = rootCauseJson(*s.trace, s.waits.callSites, s.rootCauses);
        // The trace summarised: read now, or recorded in the .rsum's NOTE section.
        j["partial"] = s.sourcePartial;
        j["source_problems"] = s.sourceProblems;
        printJson(j);
    }
    return kOk;
}

} // namespace rankscope::cli
