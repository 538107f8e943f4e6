#include "app/cli/commmatrixcommand.h"

#include "model/analysis/commmatrix.h"
#include "whatif/netsim/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

namespace rankscope::cli {

namespace {

/// Matrices up to this many ranks are printed as a grid; larger ones as their busiest cells.
constexpr uint32_t kGridRanks = 16;
constexpr size_t kTopCells = 20;

/// "2.5ms", "300us", "1s" or a bare number of nanoseconds, since the start of the trace.
int64_t parseTime(const std::string& option, const std::string& text)
{
    std::optional<double> ns;
    if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos)
        ns = std::strtod(text.c_str(), nullptr);
    else
        ns = netsim::parseDuration(text);
    if (!ns || !std::isfinite(*ns) || *ns < -9.2e18 || *ns > 9.2e18)
        throw UsageError(option + " " + text +
                         ": expected a time since the trace start such as 2.5ms, 300us or 1200 "
                         "(nanoseconds)");
    return int64_t(std::llround(*ns));
}

CommMatrixMetric metricOf(const std::string& name)
{
    if (name == "bytes") return CommMatrixMetric::Bytes;
    if (name == "time") return CommMatrixMetric::MeanTime;
    return CommMatrixMetric::Count;
}

std::string valueText(const CommMatrixCell& c, CommMatrixMetric metric)
{
    switch (metric) {
    case CommMatrixMetric::Bytes:
        return bytesText(c.bytes);
    case CommMatrixMetric::MeanTime:
        return durationText(c.meanNs());
    case CommMatrixMetric::MaxTime:
        return durationText(double(c.maxNs));
    case CommMatrixMetric::Count:
        break;
    }
    return countText(c.count);
}

void printText(const CommMatrix& m, CommMatrixMetric metric, const std::string& metricName)
{
    uint64_t count = 0, bytes = 0;
    for (const CommMatrixCell& c : m.cells) {
        count += c.count;
        bytes += c.bytes;
    }
    std::printf("%s messages, %s, between %zu sender/receiver pairs of %u ranks",
                countText(count).c_str(), bytesText(bytes).c_str(), m.cells.size(), m.rankCount);
    if (m.unmatched > 0) std::printf(" (%s unmatched left out)", countText(m.unmatched).c_str());
    std::printf("\n\n");
    if (m.rankCount <= kGridRanks) {
        std::printf("%s, sender (row) x receiver (column):\n%6s", metricName.c_str(), "");
        for (uint32_t r = 0; r < m.rankCount; ++r)
            std::printf(" %10u", r);
        std::printf("\n");
        for (uint32_t s = 0; s < m.rankCount; ++s) {
            std::printf("%6u", s);
            for (uint32_t r = 0; r < m.rankCount; ++r) {
                const CommMatrixCell* c = m.find(s, r);
                std::printf(" %10s", c ? valueText(*c, metric).c_str() : ".");
            }
            std::printf("\n");
        }
        return;
    }
    std::vector<const CommMatrixCell*> top;
    for (const CommMatrixCell& c : m.cells)
        top.push_back(&c);
    std::stable_sort(top.begin(), top.end(), [metric](const auto* a, const auto* b) {
        return a->value(metric) > b->value(metric);
    });
    if (top.size() > kTopCells) top.resize(kTopCells);
    std::printf("%8s %8s %12s %12s %12s %12s\n", "sender", "receiver", "count", "bytes", "mean",
                "max");
    for (const CommMatrixCell* c : top)
        std::printf("%8u %8u %12s %12s %12s %12s\n", c->sender, c->receiver,
                    countText(c->count).c_str(), bytesText(c->bytes).c_str(),
                    durationText(c->meanNs()).c_str(), durationText(double(c->maxNs)).c_str());
    if (m.cells.size() > top.size())
        std::printf("(the %zu pairs with the largest %s of %zu; --json or --csv lists all)\n",
                    top.size(), metricName.c_str(), m.cells.size());
}

} // namespace

CLI::App* CommMatrixCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "commmatrix", "Communication matrix: messages, bytes and mean/max transfer time per "
                      "sender and receiver rank");
    addTraceInput(cmd, trace_, load_);
    addClockCorrection(cmd, load_);
    cmd->add_option("--metric", metric_, "What the text output shows per cell")
        ->check(CLI::IsMember({"count", "bytes", "time"}))
        ->capture_default_str();
    cmd->add_option("--from", from_,
                    "Only messages sent at or after this time since the trace start (2.5ms, "
                    "300us, or ns)");
    cmd->add_option("--to", to_, "Only messages sent before this time since the trace start");
    cmd->add_flag("--collectives", collectives_,
                  "Add the traffic collective operations imply (count and bytes)");
    addOutputFormats(cmd, json_, &csv_);
    return cmd;
}

int CommMatrixCommand::run() const
{
    CommMatrixOptions options;
    if (!from_.empty()) options.from = parseTime("--from", from_);
    if (!to_.empty()) options.to = parseTime("--to", to_);
    if (options.from >= options.to)
        throw UsageError("--from " + from_ + " must be before --to " + to_);
    options.includeCollectives = collectives_;
    const CommMatrixMetric metric = metricOf(metric_);

    const Trace trace = loadTrace(trace_, load_);
    const CommMatrix m = computeCommMatrix(trace, options);

    if (json_) {
        nlohmann::ordered_json j;
        j["ranks"] = m.rankCount;
        j["metric"] = metric_;
        j["from_ns"] =
            from_.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(options.from);
        j["to_ns"] = to_.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(options.to);
        j["collectives"] = collectives_;
        j["unmatched"] = m.unmatched;
        auto& cells = j["cells"] = nlohmann::ordered_json::array();
        for (const CommMatrixCell& c : m.cells)
            cells.push_back({{"sender", c.sender},
                             {"receiver", c.receiver},
                             {"count", c.count},
                             {"bytes", c.bytes},
                             {"mean_ns", c.meanNs()},
                             {"max_ns", c.maxNs}});
        printJson(j);
        return kOk;
    }
    if (csv_) {
        std::cout << "sender,receiver,count,bytes,mean_ns,max_ns\n";
        for (const CommMatrixCell& c : m.cells) {
            char row[160];
            std::snprintf(row, sizeof row, "%u,%u,%llu,%llu,%.1f,%lld\n", c.sender, c.receiver,
                          (unsigned long long)c.count, (unsigned long long)c.bytes, c.meanNs(),
                          (long long)c.maxNs);
            std::cout << row;
        }
        return kOk;
    }
    printText(m, metric, metric_ == "time" ? "mean transfer time" : metric_);
    return kOk;
}

} // namespace rankscope::cli
