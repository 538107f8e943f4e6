#include "benchsupport.h"

#include "importers/otf2/otf2writer.h"
#include "model/generator/tracegenerator.h"
#include "model/trace/tracebuilder.h"

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

namespace {

/// Writes a generated bench trace as OTF2 into `dir` and says how long both steps took.
void writeBenchTrace(const Trace& t, const std::string& dir, double generateSeconds)
{
    const auto t0 = Clock::now();
    std::filesystem::create_directories(dir);
    writeOtf2(t, dir);
    std::printf("  generated %llu events in %.2f s, wrote OTF2 in %.2f s\n",
                (unsigned long long)t.eventCount(), generateSeconds, seconds(t0, Clock::now()));
}

} // namespace

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
    writeBenchTrace(t, dir, seconds(t0, t1));
    return anchor;
}

std::string ensureSendrecvTrace(const std::string& dir, uint32_t ranks, uint32_t iterations,
                                uint64_t* events)
{
    const std::string anchor = dir + "/traces.otf2";
    // Init, Finalize (2 events each) and 10 per iteration on every rank.
    if (events) *events = uint64_t(ranks) * (4 + 10 * uint64_t(iterations));
    if (std::filesystem::exists(anchor)) return anchor;
    std::printf("generating %s: ring MPI_Sendrecv + MPI_Allreduce, %u ranks, %u iterations ...\n",
                dir.c_str(), ranks, iterations);
    std::fflush(stdout);
    const auto t0 = Clock::now();
    TraceBuilder b;
    Provenance prov;
    prov.kind = "generated";
    prov.source = "bench: ring sendrecv + allreduce";
    b.setProvenance(prov);
    auto region = [&](const char* name, RegionRole role, Paradigm paradigm) {
        Region r;
        r.name = b.intern(name);
        r.role = role;
        r.paradigm = paradigm;
        return b.addRegion(r);
    };
    const RegionId init = region("MPI_Init", RegionRole::MpiOther, Paradigm::Mpi);
    const RegionId fin = region("MPI_Finalize", RegionRole::MpiOther, Paradigm::Mpi);
    const RegionId work = region("compute", RegionRole::Function, Paradigm::User);
    const RegionId sendrecv = region("MPI_Sendrecv", RegionRole::MpiPointToPoint, Paradigm::Mpi);
    const RegionId allreduce = region("MPI_Allreduce", RegionRole::MpiCollective, Paradigm::Mpi);
    std::vector<RankId> members;
    for (uint32_t r = 0; r < ranks; ++r) {
        members.push_back(b.addRank(b.intern("rank " + std::to_string(r))));
        b.addLocation(members.back(), b.intern("Master thread"), LocationType::CpuThread);
    }
    const CommId world = b.addCommunicator(b.intern("MPI_COMM_WORLD"), members);
    b.setWorldCommunicator(world);
    for (uint32_t r = 0; r < ranks; ++r)
        b.reserveEvents(LocationId(r), 4 + 10 * size_t(iterations));

    // Rank r computes 100 us x (1 + 0.05 (r mod 7)); a message of 4 KiB arrives 2 us after it
    // is sent; an MPI call costs 0.5 us around its events; the allreduce ends 5 us after its
    // last member entered.
    constexpr int64_t kCall = 500, kLatency = 2000, kReduce = 5000;
    constexpr uint64_t kBytes = 4096;
    std::vector<int64_t> now(ranks, 0), sent(ranks);
    for (uint32_t r = 0; r < ranks; ++r) {
        b.enter(LocationId(r), 0, init);
        b.leave(LocationId(r), 10'000, init);
        now[r] = 10'000;
    }
    for (uint32_t i = 0; i < iterations; ++i) {
        for (uint32_t r = 0; r < ranks; ++r) {
            const LocationId l(r);
            b.enter(l, now[r], work);
            now[r] += 100'000 + 5'000 * int64_t(r % 7);
            b.leave(l, now[r], work);
            b.enter(l, now[r], sendrecv);
            sent[r] = now[r] + kCall;
            b.send(l, sent[r], (r + 1) % ranks, world, 0, kBytes);
        }
        int64_t last = 0;
        for (uint32_t r = 0; r < ranks; ++r) {
            const LocationId l(r);
            const uint32_t from = (r + ranks - 1) % ranks;
            const int64_t got = std::max(sent[r] + kCall, sent[from] + kLatency);
            b.recv(l, got, from, world, 0, kBytes);
            b.leave(l, got + kCall, sendrecv);
            now[r] = got + kCall;
            b.enter(l, now[r], allreduce);
            b.collectiveBegin(l, now[r] + kCall);
            last = std::max(last, now[r] + kCall);
        }
        for (uint32_t r = 0; r < ranks; ++r) {
            const LocationId l(r);
            b.collectiveEnd(l, last + kReduce, CollectiveOp::Allreduce, world, kNoRoot, 8, 8);
            b.leave(l, last + kReduce + kCall, allreduce);
            now[r] = last + kReduce + kCall;
        }
    }
    for (uint32_t r = 0; r < ranks; ++r) {
        b.enter(LocationId(r), now[r], fin);
        b.leave(LocationId(r), now[r] + 10'000, fin);
    }
    const Trace t = b.finish(cores());
    const auto t1 = Clock::now();
    writeBenchTrace(t, dir, seconds(t0, t1));
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
