#include "app/cli/messagescommand.h"

#include "model/analysis/messagestats.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rankscope::cli {

namespace {

struct NamedHistogram
{
    const char* key;
    const Log2Histogram MessageGroup::*member;
};
constexpr NamedHistogram kHistograms[] = {{"size_bytes", &MessageGroup::size},
                                          {"transfer_ns", &MessageGroup::time},
                                          {"bandwidth_bytes_per_s", &MessageGroup::bandwidth}};

nlohmann::ordered_json histogramJson(const Log2Histogram& h)
{
    auto bins = nlohmann::ordered_json::array();
    for (uint32_t k = 0; k < h.counts.size(); ++k)
        if (h.counts[k] > 0)
            bins.push_back({{"lower", Log2Histogram::lower(k)},
                            {"upper", Log2Histogram::upper(k)},
                            {"count", h.counts[k]}});
    return bins;
}

nlohmann::ordered_json groupJson(const MessageGroup& g)
{
    nlohmann::ordered_json j;
    j["name"] = g.name;
    j["count"] = g.count;
    j["bytes"] = g.bytes;
    j["mean_ns"] = g.meanNs();
    j["max_ns"] = g.maxNs;
    for (const NamedHistogram& h : kHistograms)
        j[h.key] = histogramJson(g.*h.member);
    return j;
}

void csvRows(const char* kind, const MessageGroup& g)
{
    for (const NamedHistogram& h : kHistograms) {
        const Log2Histogram& hist = g.*h.member;
        for (uint32_t k = 0; k < hist.counts.size(); ++k) {
            if (hist.counts[k] == 0) continue;
            std::cout << kind << ',' << csvField(g.name) << ',' << h.key << ','
                      << Log2Histogram::lower(k) << ',' << Log2Histogram::upper(k) << ','
                      << hist.counts[k] << '\n';
        }
    }
}

void printGroups(const char* title, const std::vector<MessageGroup>& groups)
{
    // The name goes last: call paths of real programs are long and vary in length.
    std::printf("\n%12s %12s %12s %12s  %s\n", "messages", "bytes", "mean", "max", title);
    for (const MessageGroup& g : groups)
        std::printf("%12s %12s %12s %12s  %s\n", countText(g.count).c_str(),
                    bytesText(g.bytes).c_str(), durationText(g.meanNs()).c_str(),
                    durationText(double(g.maxNs)).c_str(), g.name.c_str());
}

void printHistogram(const char* title, const Log2Histogram& h, bool bytes, bool rate)
{
    std::printf("\n%s:\n", title);
    const uint64_t total = h.total();
    for (uint32_t k = 0; k < h.counts.size(); ++k) {
        if (h.counts[k] == 0) continue;
        auto text = [&](uint64_t v) {
            if (bytes) return bytesText(v);
            if (rate) return bytesText(v) + "/s";
            return durationText(double(v));
        };
        const std::string range = k == 0 ? "0"
                                         : "[" + text(Log2Histogram::lower(k)) + ", " +
                                               text(Log2Histogram::upper(k)) + ")";
        const int bar = total == 0 ? 0 : int(40.0 * double(h.counts[k]) / double(total) + 0.5);
        std::printf("  %-28s %12s  %s\n", range.c_str(), countText(h.counts[k]).c_str(),
                    std::string(size_t(bar), '#').c_str());
    }
}

} // namespace

CLI::App* MessagesCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "messages", "Message statistics: histograms of message size, transfer time and bandwidth, "
                    "per call site and per communicator");
    addTraceInput(cmd, trace_, load_);
    addClockCorrection(cmd, load_);
    addOutputFormats(cmd, json_, &csv_);
    return cmd;
}

int MessagesCommand::run() const
{
    const Trace trace = loadTrace(trace_, load_);
    const MessageStatistics s = computeMessageStatistics(trace);

    if (json_) {
        nlohmann::ordered_json j;
        j["messages"] = s.all.count;
        j["unmatched"] = s.unmatched;
        j["all"] = groupJson(s.all);
        auto& sites = j["by_callsite"] = nlohmann::ordered_json::array();
        for (const MessageGroup& g : s.byCallSite)
            sites.push_back(groupJson(g));
        auto& comms = j["by_communicator"] = nlohmann::ordered_json::array();
        for (const MessageGroup& g : s.byCommunicator)
            comms.push_back(groupJson(g));
        printJson(j);
        return kOk;
    }
    if (csv_) {
        std::cout << "group,name,histogram,lower,upper,count\n";
        csvRows("all", s.all);
        for (const MessageGroup& g : s.byCallSite)
            csvRows("callsite", g);
        for (const MessageGroup& g : s.byCommunicator)
            csvRows("communicator", g);
        return kOk;
    }
    std::printf("%s messages, %s, mean transfer %s, max %s", countText(s.all.count).c_str(),
                bytesText(s.all.bytes).c_str(), durationText(s.all.meanNs()).c_str(),
                durationText(double(s.all.maxNs)).c_str());
    if (s.unmatched > 0) std::printf(" (%s unmatched left out)", countText(s.unmatched).c_str());
    std::printf("\n");
    printHistogram("message size", s.all.size, true, false);
    printHistogram("transfer time", s.all.time, false, false);
    printHistogram("bandwidth", s.all.bandwidth, false, true);
    printGroups("call site", s.byCallSite);
    printGroups("communicator", s.byCommunicator);
    return kOk;
}

} // namespace rankscope::cli
