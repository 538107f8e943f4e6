#include "app/cli/linkfigures.h"

#include "app/cli/clicommon.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace rankscope::cli {

namespace {

constexpr size_t kHottest = 5;

int64_t ns(double t)
{
    return std::llround(t);
}

/// Point-to-point messages by contention delay, most delayed first (ties: lower id), those
/// delayed at all, at most `n`.
std::vector<size_t> mostDelayed(const netsim::NetworkFigures& f, size_t n)
{
    std::vector<size_t> order;
    for (size_t m = 0; m < f.messages.size(); ++m)
        if (f.messages[m].contentionNs > 0) order.push_back(m);
    const auto later = [&f](size_t a, size_t b) {
        if (f.messages[a].contentionNs != f.messages[b].contentionNs)
            return f.messages[a].contentionNs > f.messages[b].contentionNs;
        return a < b;
    };
    n = std::min(n, order.size());
    std::partial_sort(order.begin(), order.begin() + long(n), order.end(), later);
    order.resize(n);
    return order;
}

} // namespace

void addLinkFigures(nlohmann::ordered_json& j, const netsim::NetworkFigures& f, const Trace& trace)
{
    auto& links = j["links"] = nlohmann::ordered_json::array();
    for (const netsim::LinkFigures& l : f.links)
        links.push_back({{"name", l.info.name},
                         {"class", l.info.linkClass},
                         {"from", l.info.from},
                         {"to", l.info.to},
                         {"bytes", l.bytes},
                         {"busy_ns", ns(l.busyNs)},
                         {"utilisation", l.utilisation},
                         {"peak_utilisation", l.peakUtilisation},
                         {"contention_ns", ns(l.contentionNs)}});
    auto& s = j["link_summary"];
    s["contention_ns"] = ns(f.contentionNs);
    s["collective_contention_ns"] = ns(f.collectiveContentionNs);
    s["window_ns"] = f.windowNs;
    auto& hot = s["hottest_links"] = nlohmann::ordered_json::array();
    for (size_t i : f.hottest(kHottest)) {
        const netsim::LinkFigures& l = f.links[i];
        hot.push_back({{"name", l.info.name},
                       {"utilisation", l.utilisation},
                       {"peak_utilisation", l.peakUtilisation},
                       {"contention_ns", ns(l.contentionNs)}});
    }
    auto& delayed = s["most_delayed_messages"] = nlohmann::ordered_json::array();
    for (size_t m : mostDelayed(f, kHottest)) {
        const netsim::MessageFigures& x = f.messages[m];
        const Message& msg = trace.message(MessageId(uint32_t(m)));
        delayed.push_back({{"message", m},
                           {"sender", trace.messageSender(msg).value},
                           {"receiver", trace.messageReceiver(msg).value},
                           {"bytes", msg.bytes},
                           {"hops", x.hops},
                           {"transfer_ns", ns(x.transferNs)},
                           {"contention_ns", ns(x.contentionNs)}});
    }
}

std::string linkFiguresCsv(const netsim::NetworkFigures& f)
{
    std::string out =
        "name,class,from,to,bytes,busy_ns,utilisation,peak_utilisation,contention_ns\n";
    char numbers[160];
    for (const netsim::LinkFigures& l : f.links) {
        out += csvField(l.info.name) + ',' + csvField(l.info.linkClass) + ',' +
               csvField(l.info.from) + ',' + csvField(l.info.to);
        std::snprintf(numbers, sizeof numbers, ",%llu,%lld,%.9g,%.9g,%lld\n",
                      (unsigned long long)l.bytes, (long long)ns(l.busyNs), l.utilisation,
                      l.peakUtilisation, (long long)ns(l.contentionNs));
        out += numbers;
    }
    return out;
}

std::string linkFiguresText(const netsim::NetworkFigures& f)
{
    size_t delayed = 0;
    for (const netsim::MessageFigures& m : f.messages)
        delayed += m.contentionNs > 0;
    std::string out = "network: contention delay " + durationText(f.contentionNs) + " in all (" +
                      std::to_string(delayed) + " of " + std::to_string(f.messages.size()) +
                      " point-to-point messages delayed; collectives " +
                      durationText(f.collectiveContentionNs) + ")\n";
    char line[320];
    for (size_t i : f.hottest(kHottest)) {
        const netsim::LinkFigures& l = f.links[i];
        std::snprintf(line, sizeof line,
                      "  %-28s utilisation %5.1f %%, peak %5.1f %% (windows of %s), "
                      "contention %s\n",
                      l.info.name.c_str(), 100 * l.utilisation, 100 * l.peakUtilisation,
                      durationText(f.windowNs).c_str(), durationText(l.contentionNs).c_str());
        out += line;
    }
    return out;
}

} // namespace rankscope::cli
