#include "app/cli/popcommand.h"

#include "whatif/pop/popmetrics.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace rankscope::cli {

namespace {

using nlohmann::ordered_json;
using pop::RunMetrics;

/// The fractions of a run, by JSON key, in the order the table prints them.
std::vector<std::pair<const char*, std::optional<double>>> fractions(const RunMetrics& m)
{
    return {{"load_balance", m.loadBalance},
            {"communication_efficiency", m.communicationEfficiency},
            {"parallel_efficiency", m.parallelEfficiency},
            {"serialisation_efficiency", m.serialisationEfficiency},
            {"transfer_efficiency", m.transferEfficiency},
            {"computation_scalability", m.computationScalability},
            {"global_efficiency", m.globalEfficiency},
            {"ipc_scalability", m.ipcScalability},
            {"instruction_scalability", m.instructionScalability}};
}

ordered_json toJson(const RunMetrics& m)
{
    ordered_json j;
    j["trace"] = m.trace;
    j["ranks"] = m.ranks;
    j["span_ns"] = m.spanNs;
    if (m.idealSpanNs) j["ideal_span_ns"] = *m.idealSpanNs;
    for (const auto& [key, value] : fractions(m))
        if (value) j[key] = *value;
    if (m.ipc) j["ipc"] = *m.ipc;
    if (m.instructions) j["instructions"] = *m.instructions;
    auto& missing = j["missing"] = ordered_json::array();
    for (const pop::MissingMetric& x : m.missing)
        missing.push_back({{"metric", x.metric}, {"reason", x.reason}});
    return j;
}

std::string percent(const std::optional<double>& v)
{
    if (!v) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", *v * 100);
    return buf;
}

void printText(const std::vector<RunMetrics>& runs, bool weak)
{
    std::printf("POP efficiency metrics (%s scaling; reference: %s)\n", weak ? "weak" : "strong",
                runs.front().trace.c_str());
    std::printf("%-34s", "metric");
    for (const RunMetrics& m : runs)
        std::printf(" %10u", m.ranks);
    std::printf("\n");
    const char* labels[] = {"load balance",           "communication efficiency",
                            "parallel efficiency",    "  serialisation efficiency",
                            "  transfer efficiency",  "computation scalability",
                            "global efficiency",      "IPC scalability",
                            "instruction scalability"};
    for (size_t k = 0; k < std::size(labels); ++k) {
        std::printf("%-34s", labels[k]);
        for (const RunMetrics& m : runs)
            std::printf(" %10s", percent(fractions(m)[k].second).c_str());
        std::printf("\n");
    }
    std::printf("%-34s", "IPC");
    for (const RunMetrics& m : runs) {
        char buf[32] = "-";
        if (m.ipc) std::snprintf(buf, sizeof buf, "%.3f", *m.ipc);
        std::printf(" %10s", buf);
    }
    std::printf("\n%-34s", "span");
    for (const RunMetrics& m : runs)
        std::printf(" %10s", durationText(double(m.spanNs)).c_str());
    std::printf("\n");
    for (const RunMetrics& m : runs)
        for (const pop::MissingMetric& x : m.missing)
            std::printf("%s: no %s: %s\n", m.trace.c_str(), x.metric.c_str(), x.reason.c_str());
}

void printCsv(const std::vector<RunMetrics>& runs)
{
    std::cout << "trace,ranks,span_ns,ideal_span_ns";
    for (const auto& [key, value] : fractions(runs.front()))
        std::cout << ',' << key;
    std::cout << ",ipc,instructions\n";
    const auto field = [](const std::optional<double>& v) {
        if (!v) return std::string();
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", *v);
        return std::string(buf);
    };
    for (const RunMetrics& m : runs) {
        std::cout << csvField(m.trace) << ',' << m.ranks << ',' << m.spanNs << ','
                  << (m.idealSpanNs ? std::to_string(*m.idealSpanNs) : std::string());
        for (const auto& [key, value] : fractions(m))
            std::cout << ',' << field(value);
        std::cout << ',' << field(m.ipc) << ',' << field(m.instructions) << '\n';
    }
}

} // namespace

CLI::App* PopCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "pop", "POP efficiency metrics of each run (load balance, communication, serialisation "
               "and transfer efficiency) and, over a set of runs of one program, their "
               "scalability against the run of fewest ranks");
    cmd->add_option("traces", traces_, "Traces of one program (any importable format)")->required();
    cmd->add_flag("--weak", weak_,
                  "Weak scaling: the problem grows with the ranks (computation and instruction "
                  "scalability x p / p_ref)");
    cmd->add_flag("--allow-partial", load_.allowPartial,
                  "Keep what can be read from a damaged trace and say what is missing");
    addOutputFormats(cmd, json_, &csv_);
    return cmd;
}

int PopCommand::run() const
{
    std::vector<std::unique_ptr<Trace>> owned;
    std::vector<const Trace*> traces;
    for (const std::string& path : traces_) {
        owned.push_back(std::make_unique<Trace>(loadTrace(path, load_)));
        traces.push_back(owned.back().get());
    }
    pop::PopOptions options;
    options.weak = weak_;
    const std::vector<RunMetrics> runs = pop::popMetrics(traces, traces_, options);
    if (csv_) {
        printCsv(runs);
        return kOk;
    }
    if (!json_) {
        printText(runs, weak_);
        return kOk;
    }
    ordered_json j;
    j["scaling"] = weak_ ? "weak" : "strong";
    j["reference"] = runs.front().trace;
    auto& a = j["runs"] = ordered_json::array();
    for (const RunMetrics& m : runs)
        a.push_back(toJson(m));
    printJson(j);
    return kOk;
}

} // namespace rankscope::cli
