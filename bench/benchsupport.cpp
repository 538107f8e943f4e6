#include "benchsupport.h"

#include "importers/otf2/otf2writer.h"
#include "model/generator/tracegenerator.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace rankscope::bench {

bool parseBenchArgs(int argc, char** argv, BenchArgs& args)
{
    try {
        for (int i = 1; i < argc; i += 2) {
            const std::string a = argv[i];
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                return false;
            }
            const std::string v = argv[i + 1];
            if (a == "--trace")
                args.dir = v;
            else if (a == "--ranks")
                args.ranks = uint32_t(std::stoul(v));
            else if (a == "--min-events")
                args.minEvents = std::stoull(v);
            else if (a == "--repeat")
                args.repeat = std::max(1, std::stoi(v));
            else if (a == "--formats")
                args.formats = v;
            else {
                std::fprintf(stderr,
                             "unknown option %s (use --trace, --ranks, --min-events, "
                             "--repeat, --formats)\n",
                             a.c_str());
                return false;
            }
        }
    } catch (const std::exception&) {
        std::fprintf(stderr, "option values must be numbers\n");
        return false;
    }
    return true;
}

bool hasFormat(const std::string& formats, const std::string& name)
{
    size_t at = 0;
    while (at <= formats.size()) {
        const size_t comma = std::min(formats.find(',', at), formats.size());
        if (formats.compare(at, comma - at, name) == 0) return true;
        at = comma + 1;
    }
    return false;
}

const char* const kIbSwitchBenchSpec = R"(
nodes: 1024
ranks_per_node: 1
eager_limit: 64KiB
packet_size: 4KiB
overhead: {send: 0.3us, recv: 0.3us}
links:
  hdr: {latency: 0.5us, bandwidth: 200Gbps}
  shm: {latency: 0.2us, bandwidth: 20GB/s}
intra_node: shm
networks:
  ib: {topology: crossbar, link: hdr}
)";

double median(std::vector<double> v)
{
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

unsigned cores()
{
    return std::max(1u, std::thread::hardware_concurrency());
}

std::string ensureStencilTrace(const std::string& dir, uint32_t ranks, uint64_t minEvents)
{
    const std::string anchor = dir + "/traces.otf2";
    if (std::filesystem::exists(anchor)) return anchor;
    GeneratorOptions o;
    o.pattern = "stencil2d";
    o.ranks = ranks;
    // Events grow linearly with iterations: two shapes give the fixed part and the slope.
    o.iterations = 1;
    const uint64_t one = generatorShape(o).totalEvents();
    o.iterations = 2;
    const uint64_t perIteration = generatorShape(o).totalEvents() - one;
    const uint64_t fixed = one - perIteration;
    o.iterations =
        uint32_t((minEvents - std::min(minEvents, fixed) + perIteration - 1) / perIteration);
    std::printf("generating %s: stencil2d, %u ranks, %u iterations ...\n", dir.c_str(), ranks,
                o.iterations);
    std::fflush(stdout);
    const auto t0 = Clock::now();
    const Trace t = generateTrace(o);
    const auto t1 = Clock::now();
    std::filesystem::create_directories(dir);
    writeOtf2(t, dir);
    std::printf("  generated %llu events in %.2f s, wrote OTF2 in %.2f s\n",
                (unsigned long long)t.eventCount(), seconds(t0, t1), seconds(t1, Clock::now()));
    return anchor;
}

size_t peakResidentBytes()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0) return size_t(std::stoull(line.substr(6))) * 1024;
    return 0;
}

void resetPeak()
{
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
}

} // namespace rankscope::bench
