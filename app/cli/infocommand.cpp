#include "app/cli/infocommand.h"

#include "model/matching/clockviolations.h"
#include "model/profile/tracesummary.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rankscope::cli {

CLI::App* InfoCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand("info", "Summarise a trace: ranks, events, duration, "
                                                  "MPI calls, messages, collectives");
    addTraceInput(cmd, trace_, load_);
    addClockCorrection(cmd, load_);
    addOutputFormats(cmd, json_);
    return cmd;
}

int InfoCommand::run() const
{
    ClockCorrection correction;
    LoadOptions load = load_;
    load.reportProblems = false; // the report below says them
    const Trace trace = loadTrace(trace_, load, &correction);
    const TraceSummary s = summarizeTrace(trace);
    const TraceDiagnostics& d = trace.diagnostics();
    const ClockViolations clock = findClockViolations(trace);

    if (json_) {
        nlohmann::ordered_json j;
        j["ranks"] = s.ranks;
        j["events"] = s.events;
        j["duration_ns"] = s.durationNs;
        j["regions"] = s.regions;
        j["mpi_calls"] = nlohmann::ordered_json::object();
        for (const auto& [name, count] : s.mpiCalls)
            j["mpi_calls"][name] = count;
        j["messages"] = s.messages;
        j["collectives"] = s.collectives;
        j["unmatched_messages"] = s.unmatchedMessages();
        j["unmatched_sends"] = s.unmatchedSends;
        j["unmatched_receives"] = s.unmatchedReceives;
        j["incomplete_collectives"] = s.incompleteCollectives;
        j["locations"] = s.locations;
        j["bytes_sent"] = s.bytesSent;
        j["clock_violations"] = {{"count", clock.count()},
                                 {"messages", clock.messages},
                                 {"collectives", clock.collectives},
                                 {"worst_offset_ns", clock.worstOffsetNs}};
        if (load_.correctClocks)
            j["clock_correction"] = {{"violations_before", correction.before.count()},
                                     {"worst_offset_before_ns", correction.before.worstOffsetNs},
                                     {"events_moved", correction.eventsMoved},
                                     {"jumps", correction.jumps},
                                     {"mean_shift_ns", correction.meanShiftNs},
                                     {"max_shift_ns", correction.maxShiftNs},
                                     {"unresolved", correction.unresolved}};
        j["metrics"] = trace.metrics().size();
        j["metric_records"] = trace.metricRecords();
        j["clock_resolution_hz"] = trace.clock().sourceTicksPerSecond;
        j["provenance"] = {{"kind", trace.provenance().kind},
                           {"source", trace.provenance().source},
                           {"parameters", trace.provenance().parameters}};
        j["partial"] = d.partial;
        j["warnings"] = d.warnings;
        printJson(j);
        return kOk;
    }

    std::printf("Trace         %s (%s)\n", trace_.c_str(), trace.provenance().kind.c_str());
    std::printf("Ranks         %llu (%llu locations)\n", (unsigned long long)s.ranks,
                (unsigned long long)s.locations);
    std::printf("Events        %llu\n", (unsigned long long)s.events);
    std::printf("Duration      %s\n", durationText(s.durationNs).c_str());
    std::printf("Regions       %llu\n", (unsigned long long)s.regions);
    std::printf("Messages      %llu matched (%s), %llu unmatched (%llu sends, %llu receives)\n",
                (unsigned long long)s.messages, bytesText(s.bytesSent).c_str(),
                (unsigned long long)s.unmatchedMessages(), (unsigned long long)s.unmatchedSends,
                (unsigned long long)s.unmatchedReceives);
    std::printf("Collectives   %llu (%llu incomplete)\n", (unsigned long long)s.collectives,
                (unsigned long long)s.incompleteCollectives);
    if (clock.count() > 0)
        std::printf("Clock         %llu violations (%llu messages received before sent, %llu "
                    "collectives), worst offset %s\n",
                    (unsigned long long)clock.count(), (unsigned long long)clock.messages,
                    (unsigned long long)clock.collectives,
                    durationText(clock.worstOffsetNs).c_str());
    else
        std::printf("Clock         no violations\n");
    if (load_.correctClocks)
        std::printf("Corrected     %llu violations before (worst %s); %llu of %llu events moved, "
                    "by %s on average, at most %s\n",
                    (unsigned long long)correction.before.count(),
                    durationText(correction.before.worstOffsetNs).c_str(),
                    (unsigned long long)correction.eventsMoved,
                    (unsigned long long)correction.events,
                    durationText(correction.meanShiftNs).c_str(),
                    durationText(correction.maxShiftNs).c_str());
    if (!trace.metrics().empty()) {
        std::printf("Metrics       %llu records of %zu metrics:",
                    (unsigned long long)trace.metricRecords(), trace.metrics().size());
        for (uint32_t m = 0; m < trace.metrics().size(); ++m)
            std::printf("%s %s", m == 0 ? "" : ",",
                        std::string(trace.metricName(MetricId(m))).c_str());
        std::printf("\n");
    }
    std::printf("MPI calls\n");
    for (const auto& [name, count] : s.mpiCalls)
        std::printf("  %-28s %llu\n", name.c_str(), (unsigned long long)count);
    if (d.partial) std::printf("PARTIAL TRACE: parts of the input could not be read\n");
    for (const auto& w : d.warnings)
        std::printf("warning: %s\n", w.c_str());
    return kOk;
}

} // namespace rankscope::cli
