// bench/netsim: replay throughput (actions/s) and peak extra memory of the network models.
//  - LogGP, flow and packet on a generated 1024-rank stencil2d trace with >= 500k messages
//    (generated in memory, turned into action lists once; the replay alone is timed), each
//    without and with link statistics (SimulationOptions::linkStats, linkstats.h): what
//    collecting them costs in replay throughput (target <= 15 %; the two are run in turn,
//    repeat times each, and their medians compared);
//  - SimGrid (when smpirun is on PATH): the same 1024-rank workload exported as a SimGrid
//    time-independent trace with an equivalent platform (simgridexport.h) and replayed once by
//    `smpirun -replay`; the whole smpirun process is timed against the LogGP replay, and both
//    predicted run times are printed. Without SimGrid the case says so and is skipped;
//  - LogGP at 1M ranks (65536 nodes x 16 ranks): a ring exchange built directly as action
//    lists (a million-location Trace would dwarf the program it reduces to), 4 iterations and
//    an allreduce. The allreduce is one action per rank but 20 rounds of messages at this
//    scale (4/5 of the transfers), so the transfer rate is printed beside the action rate.
// Usage: rankscope-bench-netsim [--repeat K] [--case loggp|flow|packet|simgrid|million]...
// (every case when none is named; naming one helps profiling it alone)

#include "benchsupport.h"
#include "importers/simgrid/simgridexport.h"
#include "model/generator/tracegenerator.h"
#include "whatif/netsim/actionbuilder.h"
#include "whatif/netsim/simulation.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

using namespace rankscope;
using namespace rankscope::bench;
using namespace rankscope::netsim;

namespace {

/// 1M ranks in a ring: per iteration compute 10 us, then send right / receive from left.
ActionProgram ringProgram(uint32_t ranks, uint32_t iterations, uint64_t bytes)
{
    ActionProgram p;
    p.comms.emplace_back();
    p.collectives.push_back(ProgramCollective{CollKind::Allreduce, 0, 0, 8});
    p.startNs.assign(ranks, 0.0);
    p.messages.resize(size_t(ranks) * iterations);
    for (uint32_t it = 0; it < iterations; ++it)
        for (uint32_t r = 0; r < ranks; ++r)
            p.messages[size_t(it) * ranks + r] = ProgramMessage{r, (r + 1) % ranks, bytes};
    p.actions.reserve(size_t(ranks) * (iterations * 7 + 3));
    p.rankBegin.resize(size_t(ranks) + 1);
    for (uint32_t r = 0; r < ranks; ++r) {
        p.rankBegin[r] = p.actions.size();
        for (uint32_t it = 0; it < iterations; ++it) {
            const uint32_t out = it * ranks + r, in = it * ranks + (r + ranks - 1) % ranks;
            p.actions.push_back({ActionKind::Compute, 0, 10'000});
            p.actions.push_back({ActionKind::Enter, 0, 0});
            p.actions.push_back({ActionKind::PostSend, out, 0});
            p.actions.push_back({ActionKind::PostRecv, in, 0});
            p.actions.push_back({ActionKind::WaitSend, out, 0});
            p.actions.push_back({ActionKind::WaitRecv, in, 0});
            p.actions.push_back({ActionKind::Leave, 0, 0});
        }
        p.actions.push_back({ActionKind::Enter, 0, 0});
        p.actions.push_back({ActionKind::Collective, 0, double(r)});
        p.actions.push_back({ActionKind::Leave, 0, 0});
    }
    p.rankBegin[ranks] = p.actions.size();
    return p;
}

struct Measured
{
    double seconds = 0;    ///< median wall time of the replay
    double cpuSeconds = 0; ///< median CPU time of the replay
    double growthMiB = 0;  ///< peak extra memory
    SimulationResult result;
};

Measured run(const char* what, const ActionProgram& program, const NetworkSpec& spec,
             const std::string& model, int repeat, const char* target, bool print = true,
             bool links = false)
{
    SimulationOptions o;
    o.model = model;
    o.linkStats = links;
    std::vector<double> times, cpu;
    size_t growth = 0;
    SimulationResult r;
    for (int k = 0; k < repeat; ++k) {
        r = SimulationResult();
        resetPeak();
        const size_t before = peakResidentBytes();
        const auto t0 = Clock::now();
        const std::clock_t c0 = std::clock();
        r = simulateProgram(program, spec, o);
        cpu.push_back(double(std::clock() - c0) / CLOCKS_PER_SEC);
        times.push_back(seconds(t0, Clock::now()));
        growth = std::max(growth, peakResidentBytes() - before);
    }
    const double t = median(times), c = median(cpu);
    const double actions = double(program.actions.size());
    if (print)
        std::printf("%-7s %s: %.3f s median of %d -> %.2f M actions/s%s (CPU time %.3f s -> "
                    "%.2f M actions/s); %llu transfers (%.2f M/s), predicted %.3f ms; peak "
                    "extra memory %.1f MiB\n",
                    model.c_str(), what, t, repeat, actions / t / 1e6, target, c, actions / c / 1e6,
                    (unsigned long long)r.messages, double(r.messages) / t / 1e6,
                    double(r.predictedRuntimeNs) / 1e6, double(growth) / 1048576.0);
    std::fflush(stdout);
    return Measured{t, c, double(growth) / 1048576.0, std::move(r)};
}

/// `model` without and with link statistics, and what collecting them costs.
Measured withAndWithoutLinks(const ActionProgram& program, const NetworkSpec& spec,
                             const std::string& model, int repeat, const char* target)
{
    // Without and with statistics in turn, so that what else the machine runs meanwhile
    // weighs on both alike; the medians of each are compared.
    Measured plain, links;
    std::vector<double> plainT, plainC, linksT, linksC;
    double plainGrowth = 0, linksGrowth = 0;
    for (int k = 0; k < repeat; ++k) {
        plain = run("1024 ranks", program, spec, model, 1, target, false);
        links = run("1024 ranks, link statistics", program, spec, model, 1, "", false, true);
        plainT.push_back(plain.seconds);
        plainC.push_back(plain.cpuSeconds);
        linksT.push_back(links.seconds);
        linksC.push_back(links.cpuSeconds);
        plainGrowth = std::max(plainGrowth, plain.growthMiB);
        linksGrowth = std::max(linksGrowth, links.growthMiB);
    }
    plain.seconds = median(plainT);
    plain.cpuSeconds = median(plainC);
    links.seconds = median(linksT);
    links.cpuSeconds = median(linksC);
    for (const auto& [m, what, growth, tgt] :
         {std::tuple{&plain, "1024 ranks", plainGrowth, target},
          std::tuple{&links, "1024 ranks, link statistics", linksGrowth, ""}}) {
        const double n = double(program.actions.size());
        std::printf("%-7s %s: %.3f s median of %d -> %.2f M actions/s%s (CPU time %.3f s -> "
                    "%.2f M actions/s); %llu transfers (%.2f M/s), predicted %.3f ms; peak "
                    "extra memory %.1f MiB\n",
                    model.c_str(), what, m->seconds, repeat, n / m->seconds / 1e6, tgt,
                    m->cpuSeconds, n / m->cpuSeconds / 1e6, (unsigned long long)m->result.messages,
                    double(m->result.messages) / m->seconds / 1e6,
                    double(m->result.predictedRuntimeNs) / 1e6, growth);
    }
    const double actions = double(program.actions.size());
    const double cost = 1 - plain.seconds / links.seconds; // throughput lost
    // On a machine shared with other work the wall time also counts waiting for a core; the
    // CPU time does not (a shared cache still makes it vary by a few percent).
    const double cpuCost = 1 - plain.cpuSeconds / links.cpuSeconds;
    double contention = 0, peak = 0;
    for (const LinkFigures& l : links.result.network->links)
        peak = std::max(peak, l.peakUtilisation);
    contention = links.result.network->contentionNs;
    std::printf("%-7s link statistics: %.2f -> %.2f M actions/s, costs %.1f %% of replay "
                "throughput (target <= 15 %%); by CPU time %.2f -> %.2f M actions/s, %.1f %%; "
                "%zu links, total contention %.3f ms, highest peak utilisation %.4f\n",
                model.c_str(), actions / plain.seconds / 1e6, actions / links.seconds / 1e6,
                100 * cost, actions / plain.cpuSeconds / 1e6, actions / links.cpuSeconds / 1e6,
                100 * cpuCost, links.result.network->links.size(), contention / 1e6, peak);
    std::fflush(stdout);
    return plain;
}

/// SimGrid's offline replay of `program` against Rankscope's LogGP replay of it. Rates count the
/// workload's Rankscope actions for both (SimGrid reads fewer TI lines: no Enter/Leave), so they
/// compare like the times.
void compareWithSimGrid(const std::string& smpirun, const ActionProgram& program,
                        const NetworkSpec& spec, const Measured& loggp)
{
    const auto t0 = Clock::now();
    SimGridExport e;
    try {
        e = exportSimGridTrace(program, spec, "build/bench-data/simgrid-ti");
    } catch (const std::exception& error) { // the other cases still run
        std::printf("simgrid: %s, skipped\n", error.what());
        return;
    }
    std::printf("simgrid export: %llu TI actions (%llu isend, %llu irecv, %llu wait, %llu "
                "collective, %llu compute; %llu messages left out), %.0f MiB in %.1f s\n",
                (unsigned long long)e.actions(), (unsigned long long)e.isends,
                (unsigned long long)e.irecvs, (unsigned long long)e.waits,
                (unsigned long long)e.collectives, (unsigned long long)e.computes,
                (unsigned long long)e.skippedMessages, double(e.bytes) / 1048576.0,
                seconds(t0, Clock::now()));
    std::fflush(stdout);
    const SimGridRun sg = runSimGridReplay(smpirun, e, simgridOptions(spec, e.ranks));
    std::printf("simgrid command: %s\n", sg.command.c_str());
    if (sg.exitCode != 0 || sg.simulatedSeconds < 0) {
        const size_t tail = sg.output.size() > 2000 ? sg.output.size() - 2000 : 0;
        std::printf("simgrid: smpirun failed (exit code %d) after %.1f s; the export stays in "
                    "%s; it printed:\n%s\n",
                    sg.exitCode, sg.wallSeconds, e.dir.c_str(), sg.output.c_str() + tail);
        return;
    }
    const double actions = double(program.actions.size());
    const double predictedMs = double(loggp.result.predictedRuntimeNs) / 1e6;
    std::printf("simgrid %u ranks: %.3f s -> %.3f M actions/s; predicted %.3f ms (Rankscope "
                "LogGP: %.3f ms); Rankscope LogGP is %.0f x faster (%.3f s -> %.2f M "
                "actions/s)\n",
                e.ranks, sg.wallSeconds, actions / sg.wallSeconds / 1e6, sg.simulatedSeconds * 1e3,
                predictedMs, sg.wallSeconds / loggp.seconds, loggp.seconds,
                actions / loggp.seconds / 1e6);
    if (sg.engineSeconds > 0)
        std::printf("simgrid %u ranks, SimGrid's own timer (after parsing and platform setup): "
                    "%.3f s -> %.3f M actions/s; Rankscope LogGP is %.0f x faster\n",
                    e.ranks, sg.engineSeconds, actions / sg.engineSeconds / 1e6,
                    sg.engineSeconds / loggp.seconds);
    std::fflush(stdout);
    std::filesystem::remove_all(e.dir); // tens of MiB of text, rewritten by every run
}

} // namespace

int main(int argc, char** argv)
{
    constexpr std::array<std::string_view, 5> kCases{"loggp", "flow", "packet", "simgrid",
                                                     "million"};
    int repeat = 3;
    std::vector<std::string> cases;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--repeat" && i + 1 < argc) {
            repeat = std::max(1, std::atoi(argv[++i]));
        } else if (a == "--case" && i + 1 < argc &&
                   std::find(kCases.begin(), kCases.end(), std::string_view(argv[i + 1])) !=
                       kCases.end()) {
            cases.emplace_back(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: rankscope-bench-netsim [--repeat K] "
                                 "[--case loggp|flow|packet|simgrid|million]...\n");
            return 2;
        }
    }
    const auto wanted = [&](const char* name) {
        return cases.empty() || std::find(cases.begin(), cases.end(), name) != cases.end();
    };
    try {
        GeneratorOptions g;
        g.pattern = "stencil2d";
        g.ranks = 1024;
        g.iterations = 1;
        const uint64_t perIteration = generatorShape(g).messages;
        g.iterations = uint32_t((500'000 + perIteration - 1) / perIteration);
        const auto t0 = Clock::now();
        const Trace trace = generateTrace(g);
        const ActionProgram program = buildActions(trace, 1.0);
        std::printf("workload: stencil2d, 1024 ranks, %u iterations: %zu messages, "
                    "%zu collectives, %zu actions (generated and converted in %.1f s)\n",
                    g.iterations, trace.messages().size(), trace.collectives().size(),
                    program.actions.size(), seconds(t0, Clock::now()));
        const NetworkSpec spec = NetworkSpec::fromString(kIbSwitchBenchSpec, "bench");
        Measured loggp;
        if (wanted("loggp"))
            loggp = withAndWithoutLinks(program, spec, "loggp", repeat, " (target >= 10)");
        if (wanted("flow")) withAndWithoutLinks(program, spec, "flow", repeat, " (target >= 1)");
        if (wanted("packet")) withAndWithoutLinks(program, spec, "packet", repeat, "");
        if (wanted("simgrid")) {
            const std::string smpirun = findOnPath("smpirun");
            if (smpirun.empty())
                std::printf("simgrid: not installed (apt-get install libsimgrid-dev), skipped\n");
            else
                compareWithSimGrid(
                    smpirun, program, spec,
                    wanted("loggp") ? loggp
                                    : run("1024 ranks", program, spec, "loggp", repeat, "", false));
        }
        if (!wanted("million")) return 0;

        const uint32_t million = 1u << 20;
        const ActionProgram ring = ringProgram(million, 4, 4096);
        std::printf("workload: ring exchange, %u ranks on 65536 nodes, 4 iterations + "
                    "allreduce: %zu messages, %zu actions (%.0f MiB of action lists)\n",
                    million, ring.messages.size(), ring.actions.size(),
                    double(ring.actions.size() * sizeof(Action) +
                           ring.messages.size() * sizeof(ProgramMessage)) /
                        1048576.0);
        const NetworkSpec big = spec.withOverrides({{"nodes", "65536"}, {"ranks_per_node", "16"}});
        run("1M ranks", ring, big, "loggp", repeat, " (target >= 10)");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench/netsim: %s\n", e.what());
        return 1;
    }
    return 0;
}
