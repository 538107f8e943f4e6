#include "whatif/pop/popmetrics.h"

#include "model/analysis/usefultime.h"
#include "model/deltas/intervals.h"
#include "model/metrics/metricprofile.h"
#include "model/trace/trace.h"
#include "model/trace/traceerror.h"
#include "whatif/extrap/extrapolation.h"
#include "whatif/netsim/simulation.h"

#include <algorithm>
#include <numeric>

namespace rankscope::pop {

namespace {

// One crossbar over the single node: the netsim needs a network, which no message takes (all
// ranks share the node, and without an intra-node link a message there is free).
constexpr const char* kIdealSpec = R"(name: ideal
nodes: 1
ranks_per_node: 1
links:
  unused: {latency: 0us, bandwidth: 1TB/s}
networks:
  none: {topology: crossbar, link: unused}
)";

bool hasEvents(const Trace& trace)
{
    for (uint32_t r = 0; r < trace.rankCount(); ++r)
        if (!trace.rankEvents(RankId(r)).empty()) return true;
    return false;
}

/// Useful instructions and cycles over all ranks: the exclusive deltas of non-MPI regions.
struct UsefulCounters
{
    double instructions = 0;
    double cycles = 0;
};

std::optional<UsefulCounters> usefulCounters(const Trace& trace)
{
    const MetricProfile p = computeMetricProfile(trace);
    std::optional<MetricId> ins, cyc;
    for (const MetricTotals& t : p.metrics) {
        if (!t.accumulated) continue;
        const std::string_view name = trace.metricName(t.metric);
        if (name == "PAPI_TOT_INS") ins = t.metric;
        if (name == "PAPI_TOT_CYC") cyc = t.metric;
    }
    if (!ins || !cyc) return std::nullopt;
    UsefulCounters c;
    for (const MetricRegion& r : p.regions) {
        if (trace.region(r.region).isMpi()) continue;
        if (r.metric == *ins) c.instructions += r.exclusive;
        if (r.metric == *cyc) c.cycles += r.exclusive;
    }
    return c;
}

void replayIdeal(const Trace& trace, RunMetrics& m, int64_t maxUseful)
{
    netsim::SimulationResult r;
    try {
        r = netsim::simulate(trace, idealNetworkSpec(m.ranks), netsim::SimulationOptions{});
    } catch (const std::exception& e) {
        const std::string why = std::string("the ideal-network replay failed: ") + e.what();
        m.missing.push_back({"serialisation_efficiency", why});
        m.missing.push_back({"transfer_efficiency", why});
        return;
    }
    if (r.predictedRuntimeNs <= 0) {
        const std::string why = "the ideal-network replay has an empty span";
        m.missing.push_back({"serialisation_efficiency", why});
        m.missing.push_back({"transfer_efficiency", why});
        return;
    }
    m.idealSpanNs = r.predictedRuntimeNs;
    m.serialisationEfficiency = double(maxUseful) / double(r.predictedRuntimeNs);
    m.transferEfficiency = double(r.predictedRuntimeNs) / double(m.spanNs);
}

} // namespace

netsim::NetworkSpec idealNetworkSpec(uint32_t ranks)
{
    netsim::NetworkSpec spec = netsim::NetworkSpec::fromString(kIdealSpec, "the ideal network");
    // Set here, not in the text: a file allows at most 4096 ranks per node.
    spec.ranksPerNode = std::max(1u, ranks);
    return spec;
}

RunMetrics runMetrics(const Trace& trace, const std::string& label)
{
    if (trace.rankCount() == 0 || !hasEvents(trace))
        throw TraceError(label + " has no events: the POP metrics need a run");
    const UsefulTime u = usefulTime(trace);
    if (!u.span.fromInit)
        throw TraceError(label + " has no MPI_Init: the POP metrics are taken over the span from "
                                 "the end of MPI_Init to the end of MPI_Finalize");
    RunMetrics m;
    m.trace = label;
    m.ranks = uint32_t(trace.rankCount());
    m.spanNs = u.span.duration();
    m.useful = u.perRank;
    if (m.spanNs <= 0)
        throw TraceError(label + " has an empty span (the end of MPI_Init is its end)");
    const int64_t maxU = *std::max_element(m.useful.begin(), m.useful.end());
    const double meanU = double(std::accumulate(m.useful.begin(), m.useful.end(), int64_t(0))) /
                         double(m.useful.size());
    if (maxU <= 0)
        throw TraceError(label + " has no useful time: every rank is in MPI for the whole span");
    m.loadBalance = meanU / double(maxU);
    m.communicationEfficiency = double(maxU) / double(m.spanNs);
    m.parallelEfficiency = m.loadBalance * m.communicationEfficiency;
    replayIdeal(trace, m, maxU);
    if (const std::optional<UsefulCounters> c = usefulCounters(trace); c && c->cycles > 0) {
        m.ipc = c->instructions / c->cycles;
        m.instructions = c->instructions;
    } else {
        m.missing.push_back(
            {"ipc", c ? "PAPI_TOT_CYC counted no cycles outside MPI"
                      : "the trace has no PAPI_TOT_INS and PAPI_TOT_CYC counters (both needed)"});
    }
    return m;
}

std::vector<RunMetrics> popMetrics(const std::vector<const Trace*>& traces,
                                   const std::vector<std::string>& labels,
                                   const PopOptions& options)
{
    if (traces.empty()) throw TraceError("the POP metrics need at least one trace");
    std::vector<size_t> order(traces.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return traces[a]->rankCount() < traces[b]->rankCount();
    });
    const auto label = [&](size_t i) {
        return i < labels.size() ? labels[i] : "trace " + std::to_string(i + 1);
    };
    std::vector<RunMetrics> runs;
    for (size_t i : order)
        runs.push_back(runMetrics(*traces[i], label(i)));
    if (traces.size() > 1) {
        std::vector<IntervalTable> tables;
        std::vector<uint32_t> ranks;
        std::vector<std::string> names;
        for (size_t i : order) {
            tables.push_back(computeIntervals(*traces[i]));
            ranks.push_back(uint32_t(traces[i]->rankCount()));
            names.push_back(label(i));
        }
        std::vector<const IntervalTable*> pointers;
        for (const IntervalTable& t : tables)
            pointers.push_back(&t);
        extrap::checkSameProgram(ranks, pointers, names);
    }
    const RunMetrics& ref = runs.front();
    const auto sum = [](const std::vector<int64_t>& v) {
        return double(std::accumulate(v.begin(), v.end(), int64_t(0)));
    };
    for (RunMetrics& m : runs) {
        const double weak = options.weak ? double(m.ranks) / double(ref.ranks) : 1.0;
        m.computationScalability = sum(ref.useful) / sum(m.useful) * weak;
        m.globalEfficiency = m.parallelEfficiency * *m.computationScalability;
        if (m.ipc && ref.ipc) {
            m.ipcScalability = *m.ipc / *ref.ipc;
            if (*m.instructions > 0)
                m.instructionScalability = *ref.instructions / *m.instructions * weak;
            else
                m.missing.push_back({"instruction_scalability", "no useful instructions"});
        } else {
            const std::string why = !m.ipc ? "this run has no IPC (see ipc)"
                                           : "the reference run (" + ref.trace + ") has no IPC";
            m.missing.push_back({"ipc_scalability", why});
            m.missing.push_back({"instruction_scalability", why});
        }
    }
    return runs;
}

} // namespace rankscope::pop
