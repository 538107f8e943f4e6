#include "importers/simgrid/simgridexport.h"

#include "importers/simgrid/shellcommand.h"
#include "model/support/boundedread.h"
#include "model/support/staging.h"
#include "model/trace/traceerror.h"
#include "whatif/netsim/collectivealgorithm.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace rankscope::bench {

using namespace rankscope::netsim;
namespace fs = std::filesystem;

namespace {

template <class... A> void appendf(std::string& out, const char* format, A... args)
{
    char buffer[512];
    const int n = std::snprintf(buffer, sizeof buffer, format, args...);
    out.append(buffer, size_t(std::clamp(n, 0, int(sizeof buffer) - 1)));
}

template <class... A> std::string format(const char* f, A... args)
{
    std::string s;
    appendf(s, f, args...);
    return s;
}

void writeFile(const std::string& path, const std::string& text)
{
    FILE* f = std::fopen(path.c_str(), "wb");
    bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
    int err = errno;
    if (f && std::fclose(f) != 0 && ok) ok = false, err = errno;
    if (!ok) throw std::runtime_error("cannot write " + path + ": " + std::strerror(err));
}

/// SimGrid replays only what both ends of a message name. A message without a partner in the
/// trace completes locally in Rankscope and has nothing to match in SimGrid. A rank's message to
/// itself cannot be told apart from its own receive: SimGrid's replay keys pending requests by
/// (src, dst, tag), and the send and the receive would share the key.
bool exported(const ProgramMessage& m)
{
    return m.src != kNoRank && m.dst != kNoRank && m.src != m.dst;
}

/// The tag of message `m`. SimGrid's `wait` names its request by (src, dst, tag) and keeps one
/// pending request per key, so a wait can name any request, not only the latest, as long as the
/// tags differ: each message gets its own (its index; MPI tags are non-negative ints). That also
/// makes SimGrid match each receive to the very send Rankscope pairs it with.
int tagOf(uint32_t m)
{
    return int(m & 0x7FFFFFFFu);
}

/// The link class of the spec's node links, once the spec is one SimGrid can model: one
/// crossbar, fat-tree or clusters network (a fat tree's switch links of the same class as its
/// node links: SimGrid's FAT_TREE cluster has one link class), one rank per node.
const LinkClass& nodeLink(const NetworkSpec& spec)
{
    if (spec.networks.size() != 1 || (spec.networks[0].topology != TopologyKind::Crossbar &&
                                      spec.networks[0].topology != TopologyKind::FatTree &&
                                      spec.networks[0].topology != TopologyKind::Clusters))
        throw std::runtime_error(
            "SimGrid export: the spec must be one crossbar, fat-tree or clusters network; this "
            "one has " +
            std::to_string(spec.networks.size()) + " network(s)" +
            (spec.networks.empty()
                 ? std::string()
                 : ", the first a " + std::string(topologyName(spec.networks[0].topology))));
    if (spec.ranksPerNode != 1)
        throw std::runtime_error("SimGrid export: the spec must have one rank per node");
    const NetworkDef& net = spec.networks[0];
    const LinkClass* link = spec.link(net.link);
    if (!link) throw std::runtime_error("SimGrid export: the network has no link class");
    if (net.topology == TopologyKind::FatTree && !net.uplink.empty()) {
        const LinkClass* up = spec.link(net.uplink);
        if (up && (up->latencyNs != link->latencyNs || up->bytesPerNs != link->bytesPerNs))
            throw std::runtime_error(
                "SimGrid export: SimGrid's fat tree has one link class, the spec's switch links (" +
                net.uplink + ") differ from its node links (" + net.link + ")");
    }
    if (net.topology == TopologyKind::Clusters) {
        const LinkClass* wan = spec.link(net.wan);
        if (!wan) throw std::runtime_error("SimGrid export: the clusters have no wide-area link");
        if (wan->maxStreams > 0)
            throw std::runtime_error("SimGrid export: SimGrid's links have no congestion above "
                                     "a number of streams, the spec's " +
                                     net.wan + " link has max_streams");
        // The protocol table's extra latency becomes SMPI's latency factor, which scales a
        // route's latency: it fits one route latency only.
        for (const ProtocolEntry& p : spec.protocol)
            if (p.latencyNs != 0)
                throw std::runtime_error("SimGrid export: a protocol table that adds latency "
                                         "needs routes of one latency, and clusters over a "
                                         "wide area have two");
    }
    return *link;
}

/// Platform lines of a clusters network (Rankscope's topology.cpp: crossbar clusters of
/// `dims` consecutive nodes whose switches are joined pairwise by wide-area links). Each
/// cluster is a SimGrid <cluster> without backbone (a node's private link to the cluster's
/// router, one per direction) in a zone with full routing; a route between clusters crosses
/// the sender's link up, the wide-area link between the two routers and the receiver's link
/// down, as in Rankscope.
std::string clustersPlatform(const NetworkSpec& spec, const LinkClass& nic)
{
    const NetworkDef& net = spec.networks[0];
    const LinkClass& wan = *spec.link(net.wan);
    std::string text = "  <zone id=\"rankscope\" routing=\"Full\">\n";
    uint32_t first = 0;
    for (size_t c = 0; c < net.dims.size(); ++c) {
        appendf(text,
                "    <cluster id=\"cluster-%zu\" prefix=\"node-\" suffix=\"\" radical=\"%u-%u\" "
                "speed=\"1Gf\" bw=\"%.17gBps\" lat=\"%.17gns\" sharing_policy=\"SPLITDUPLEX\" "
                "router_id=\"router-%zu\"/>\n",
                c, first, first + net.dims[c] - 1, nic.bytesPerNs * 1e9, nic.latencyNs, c);
        first += net.dims[c];
    }
    for (size_t c = 0; c < net.dims.size(); ++c)
        for (size_t d = c + 1; d < net.dims.size(); ++d)
            appendf(text,
                    "    <link id=\"wan-%zu-%zu\" bandwidth=\"%.17gBps\" latency=\"%.17gns\" "
                    "sharing_policy=\"SPLITDUPLEX\"/>\n",
                    c, d, wan.bytesPerNs * 1e9, wan.latencyNs);
    for (size_t c = 0; c < net.dims.size(); ++c)
        for (size_t d = 0; d < net.dims.size(); ++d) {
            if (c == d) continue;
            appendf(text,
                    "    <zoneRoute src=\"cluster-%zu\" dst=\"cluster-%zu\" gw_src=\"router-%zu\" "
                    "gw_dst=\"router-%zu\" symmetrical=\"NO\">\n"
                    "      <link_ctn id=\"wan-%zu-%zu\" direction=\"%s\"/>\n"
                    "    </zoneRoute>\n",
                    c, d, c, d, std::min(c, d), std::max(c, d), c < d ? "UP" : "DOWN");
        }
    return text + "  </zone>\n";
}

/// The hops of a route between two nodes as SimGrid counts link latencies: two on a crossbar,
/// up to 2 x levels in a fat tree (the protocol table's latency becomes a factor of it).
double routeLinks(const NetworkSpec& spec)
{
    const NetworkDef& net = spec.networks[0];
    return net.topology == TopologyKind::FatTree ? 2.0 * std::max(1u, net.levels) : 2.0;
}

/// One TI collective line (after "<rank> "); sizes are per rank, as SimGrid's replay reads them.
void appendCollective(std::string& out, const ActionProgram& p, const ProgramCollective& c)
{
    const uint32_t n = p.rankCount();
    const auto bytes = (unsigned long long)c.bytes;
    // Rankscope's M is the whole operation for allgather, gather, scatter, alltoall and
    // reduce-scatter (collectiveschedule.h); SimGrid wants each rank's share (at least a byte).
    const auto share =
        (unsigned long long)(c.bytes == 0
                                 ? 0
                                 : std::max<long long>(1, std::llround(double(c.bytes) / n)));
    switch (c.kind) {
    case CollKind::Barrier:
        out += "barrier\n";
        break;
    case CollKind::Bcast:
        appendf(out, "bcast %llu %u\n", bytes, c.root);
        break;
    // Rankscope's reductions cost no computation: 0 flops.
    case CollKind::Reduce:
        appendf(out, "reduce %llu 0 %u\n", bytes, c.root);
        break;
    case CollKind::Allreduce:
        appendf(out, "allreduce %llu 0\n", bytes);
        break;
    case CollKind::Allgather:
        appendf(out, "allgather %llu %llu\n", share, share);
        break;
    case CollKind::Gather:
        appendf(out, "gather %llu %llu %u\n", share, share, c.root);
        break;
    case CollKind::Scatter:
        appendf(out, "scatter %llu %llu %u\n", share, share, c.root);
        break;
    case CollKind::Alltoall:
        appendf(out, "alltoall %llu %llu\n", share, share);
        break;
    case CollKind::ReduceScatter:
        out += "reducescatter";
        for (uint32_t i = 0; i < n; ++i)
            appendf(out, " %llu", share);
        out += " 0\n";
        break;
    case CollKind::None:
        break;
    }
}

/// SMPI's name for Rankscope's algorithm, or null when SMPI has none (it then uses its own).
const char* smpiAlgorithm(CollKind kind, Algorithm a, uint32_t ranks)
{
    using A = Algorithm;
    switch (kind) {
    case CollKind::Barrier:
        return a == A::Dissemination ? "ompi_bruck"
               : a == A::Linear      ? "ompi_basic_linear"
                                     : nullptr;
    case CollKind::Bcast:
        return a == A::Binomial     ? "binomial_tree"
               : a == A::Linear     ? "flattree"
               : a == A::VanDeGeijn ? "scatter_LR_allgather"
                                    : nullptr;
    case CollKind::Reduce:
        return a == A::Binomial       ? "binomial"
               : a == A::Linear       ? "flat_tree"
               : a == A::Rabenseifner ? "rab"
                                      : nullptr;
    case CollKind::Allreduce:
        return a == A::RecursiveDoubling ? "rdb"
               : a == A::Rabenseifner    ? "rab_rdb"
               : a == A::Ring            ? "lr"
                                         : nullptr;
    case CollKind::Allgather:
        return a == A::RecursiveDoubling ? "rdb"
               : a == A::Ring            ? "ring"
               : a == A::Bruck           ? "bruck"
                                         : nullptr;
    case CollKind::Gather:
    case CollKind::Scatter:
        return a == A::Linear ? "ompi_basic_linear" : a == A::Binomial ? "ompi_binomial" : nullptr;
    case CollKind::Alltoall:
        // SMPI's pairwise exchange needs a power of two; its ring is the same exchange by shifts.
        if (a == A::Pairwise) return (ranks & (ranks - 1)) == 0 ? "pair" : "ring";
        return a == A::Bruck ? "bruck" : nullptr;
    case CollKind::ReduceScatter:
        return a == A::RecursiveHalving ? "ompi_basic_recursivehalving"
               : a == A::Ring           ? "ompi_ring"
                                        : nullptr;
    case CollKind::None:
        break;
    }
    return nullptr;
}

std::string shellQuote(const std::string& s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

/// The number after `key` in `text`, or -1.
double numberAfter(const std::string& text, const char* key)
{
    const size_t at = text.rfind(key);
    return at == std::string::npos ? -1
                                   : std::strtod(text.c_str() + at + std::strlen(key), nullptr);
}

/// The name of rank r's file in the TI trace whose list file is "<stem>.<ext>".
std::string rankFileName(const std::string& stem, uint32_t r)
{
    return stem + "-rank-" + std::to_string(r) + ".txt";
}

/// Writes `program`'s rank files and their list (e.listFile's name) into `folder`; counts in `e`.
void writeRankFiles(const ActionProgram& program, SimGridExport& e, const std::string& folder,
                    const std::string& partialMark = {})
{
    const uint32_t ranks = program.rankCount();
    std::string list, text;
    const std::string stem = fs::path(e.listFile).stem().string();
    const double first =
        ranks ? *std::min_element(program.startNs.begin(), program.startNs.end()) : 0.0;
    for (uint32_t r = 0; r < ranks; ++r) {
        text.clear();
        if (r == 0 && !partialMark.empty()) text += "# " + partialMark + "\n";
        appendf(text, "%u init\n", r);
        // A rank that starts late in the trace starts late in SimGrid too.
        if (program.startNs[r] > first) {
            appendf(text, "%u compute %.15g\n", r, program.startNs[r] - first);
            ++e.computes;
        }
        for (size_t i = program.rankBegin[r]; i < program.rankBegin[r + 1]; ++i) {
            const Action& a = program.actions[i];
            switch (a.kind) {
            case ActionKind::Compute:
                if (a.value <= 0) break;
                appendf(text, "%u compute %.15g\n", r, a.value);
                ++e.computes;
                break;
            case ActionKind::Enter:
            case ActionKind::Leave:
                break; // SimGrid times the operations themselves
            case ActionKind::PostSend:
            case ActionKind::PostRecv:
            case ActionKind::WaitSend:
            case ActionKind::WaitRecv: {
                const ProgramMessage& m = program.messages[a.ref];
                if (!exported(m)) break;
                const auto bytes = (unsigned long long)m.bytes;
                if (a.kind == ActionKind::PostSend) {
                    appendf(text, "%u isend %u %d %llu\n", r, m.dst, tagOf(a.ref), bytes);
                    ++e.isends;
                } else if (a.kind == ActionKind::PostRecv) {
                    appendf(text, "%u irecv %u %d %llu\n", r, m.src, tagOf(a.ref), bytes);
                    ++e.irecvs;
                } else {
                    appendf(text, "%u wait %u %u %d\n", r, m.src, m.dst, tagOf(a.ref));
                    ++e.waits;
                }
                break;
            }
            case ActionKind::Collective: {
                const ProgramCollective& c = program.collectives[a.ref];
                if (c.kind == CollKind::None) break;
                appendf(text, "%u ", r);
                appendCollective(text, program, c);
                ++e.collectives;
                break;
            }
            }
        }
        appendf(text, "%u finalize\n", r);
        // Names relative to the list's folder: the folder can move (smpirun runs there).
        const std::string name = rankFileName(stem, r);
        writeFile(folder + "/" + name, text);
        e.bytes += text.size();
        list += name + "\n";
    }
    writeFile(folder + "/" + fs::path(e.listFile).filename().string(), list);
}

/// The TI trace at `list` that a new one would replace: how many rank files it lists (0 when
/// there is none). Throws TraceError when what is there is not a set this writer made (a list
/// naming other files, or a rank file of the new set's names that no list names): replacing it
/// could destroy the user's own files.
uint32_t replaceableSet(const fs::path& list, uint32_t newRanks)
{
    const std::string stem = list.stem().string();
    uint32_t listed = 0;
    std::error_code ec;
    if (fs::exists(fs::symlink_status(list, ec))) {
        const std::string text = readSmallTextFile(list.string(), "TI list file");
        std::istringstream lines(text);
        std::string line;
        for (size_t n = 1; std::getline(lines, line); ++n, ++listed)
            if (line != rankFileName(stem, listed))
                throw TraceError(list.string() + ":" + std::to_string(n) +
                                 ": exists and is not a TI trace Rankscope wrote (it names '" +
                                 line + "', not '" + rankFileName(stem, listed) +
                                 "'); remove it or choose another name");
    }
    for (uint32_t r = listed; r < newRanks; ++r) {
        const fs::path file = list.parent_path() / rankFileName(stem, r);
        if (fs::exists(fs::symlink_status(file, ec)))
            throw TraceError(file.string() + ": exists and is not part of the TI trace " +
                             list.string() +
                             " (no list names it); remove it or choose another name");
    }
    return listed;
}

void checkCommunicators(const ActionProgram& program)
{
    for (size_t c = 0; c < program.comms.size(); ++c)
        if (!program.comms[c].empty())
            throw std::runtime_error("SimGrid export: SimGrid's TI replay runs collectives on "
                                     "MPI_COMM_WORLD only, the program has a communicator of " +
                                     std::to_string(program.comms[c].size()) + " ranks");
}

} // namespace

SimGridExport exportSimGridTrace(const ActionProgram& program, const NetworkSpec& spec,
                                 const std::string& dir)
{
    const LinkClass& link = nodeLink(spec);
    const uint32_t ranks = program.rankCount();
    if (ranks > spec.nodes)
        throw std::runtime_error("SimGrid export: more ranks than the spec has nodes");
    checkCommunicators(program);

    SimGridExport e;
    e.ranks = ranks;
    e.dir = fs::absolute(dir).lexically_normal().string();
    fs::remove_all(e.dir);
    fs::create_directories(e.dir);
    e.listFile = e.dir + "/trace.ti";
    e.platformFile = e.dir + "/platform.xml";
    e.hostFile = e.dir + "/hostfile.txt";
    for (const ProgramMessage& m : program.messages)
        e.skippedMessages += exported(m) ? 0 : 1;

    // Rankscope's crossbar: node i reaches node j over i's link to the switch and the switch's
    // link to j, one link per direction (topology.cpp). A SimGrid cluster without backbone routes
    // the same way over each host's private link, SPLITDUPLEX giving one link per direction.
    // Hosts of 1 Gflop/s make `compute <flops>` last `flops` ns, so a compute action's duration
    // is written as is.
    std::string text = "<?xml version='1.0'?>\n"
                       "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                       "<platform version=\"4.1\">\n"
                       "  <!-- written by Rankscope from a network spec -->\n";
    const NetworkDef& net = spec.networks[0];
    std::string topology;
    if (net.topology == TopologyKind::FatTree) {
        // Rankscope's k-ary n-tree (topology.cpp): k nodes per leaf switch, every switch below
        // the top with k links up, k^(n-1) switches per level. SimGrid's FAT_TREE parameters:
        // levels; down links per switch of each level; up links per node or switch of the
        // level below; parallel links.
        std::string down, up, parallel;
        for (uint32_t l = 0; l < net.levels; ++l) {
            appendf(down, "%s%u", l ? "," : "", net.arity);
            appendf(up, "%s%u", l ? "," : "", l == 0 ? 1u : net.arity);
            appendf(parallel, "%s1", l ? "," : "");
        }
        topology = format(" topology=\"FAT_TREE\" topo_parameters=\"%u;%s;%s;%s\"", net.levels,
                          down.c_str(), up.c_str(), parallel.c_str());
    }
    if (net.topology == TopologyKind::Clusters)
        text += clustersPlatform(spec, link);
    else
        appendf(text,
                "  <cluster id=\"rankscope\" prefix=\"node-\" suffix=\"\" radical=\"0-%u\" "
                "speed=\"1Gf\" bw=\"%.17gBps\" lat=\"%.17gns\" "
                "sharing_policy=\"SPLITDUPLEX\"%s/>\n",
                spec.nodes - 1, link.bytesPerNs * 1e9, link.latencyNs, topology.c_str());
    text += "</platform>\n";
    writeFile(e.platformFile, text);

    writeRankFiles(program, e, e.dir);
    std::string hosts;
    for (uint32_t r = 0; r < ranks; ++r)
        appendf(hosts, "node-%u\n", r);
    writeFile(e.hostFile, hosts);
    return e;
}

SimGridExport writeTiTrace(const ActionProgram& program, const std::string& listFile,
                           const std::string& partialMark)
{
    checkCommunicators(program);
    SimGridExport e;
    e.ranks = program.rankCount();
    const fs::path list = fs::absolute(listFile).lexically_normal();
    e.dir = list.parent_path().string();
    fs::create_directories(e.dir);
    e.listFile = list.string();
    for (const ProgramMessage& m : program.messages)
        e.skippedMessages += exported(m) ? 0 : 1;
    { // before the work (a refusal is free); locked, as other writers' moves into place are
        const FolderLock lock(e.dir);
        replaceableSet(list, e.ranks);
    }
    // Written and synced in a hidden folder, moved into place under the folder's lock, the list
    // last: no full disk, kill or second writer leaves a list naming half-written or mixed files.
    StagingFolder staging(list, "TI trace");
    try {
        writeRankFiles(program, e, staging.path().string(), partialMark);
    } catch (const std::runtime_error& error) {
        throw TraceError(list.string() + ": cannot write the TI trace: " + error.what());
    }
    staging.sync();
    FolderLock lock(e.dir);
    const uint32_t old = replaceableSet(list, e.ranks); // again: another writer may have finished
    const std::string stem = list.stem().string();
    // Without the list there is no trace, never one naming a mix of old and new rank files.
    if (::unlink(list.c_str()) != 0 && errno != ENOENT)
        throw TraceError(list.string() + ": cannot replace it: " + std::strerror(errno));
    for (uint32_t r = 0; r < e.ranks; ++r)
        staging.moveIntoPlace(rankFileName(stem, r));
    for (uint32_t r = e.ranks; r < old; ++r)
        ::unlink((list.parent_path() / rankFileName(stem, r)).c_str());
    staging.moveIntoPlace(list.filename().string());
    staging.syncDestination();
    return e;
}

std::vector<std::string> simgridOptions(const NetworkSpec& spec, uint32_t ranks)
{
    const LinkClass& link = nodeLink(spec);
    std::vector<std::string> o;
    // LogGP's o_s on every send and o_r on every receive. SMPI charges MPI_Send (os), MPI_Isend
    // (ois) and receives (or) separately; each is "min size:seconds:seconds per byte". One
    // difference stays: SMPI spends o_r as CPU time in each completed receive, one after the
    // other, while Rankscope adds it to each receive's completion, so receives completing
    // together pay it once; with o_r = 0 both predict the bench's 38.75 ms within 0.3 us.
    o.push_back(format("--cfg=smpi/os:0:%.12g:0", spec.sendOverheadNs * 1e-9));
    o.push_back(format("--cfg=smpi/ois:0:%.12g:0", spec.sendOverheadNs * 1e-9));
    o.push_back(format("--cfg=smpi/or:0:%.12g:0", spec.recvOverheadNs * 1e-9));
    // Rankscope sends a message of at most eager_limit bytes at once and lets the sender go on;
    // SMPI does the same below its two thresholds (strictly below, hence the + 1).
    const auto eager = (unsigned long long)spec.eagerLimit + 1;
    o.push_back(format("--cfg=smpi/send-is-detached-thresh:%llu", eager));
    o.push_back(format("--cfg=smpi/async-small-thresh:%llu", eager));
    // SMPI's default latency and bandwidth factors are calibrated on a real cluster (up to 11x
    // the latency); the spec's protocol table is the only correction Rankscope applies. Its rows
    // add latency to a route; every crossbar route has two links, so that is a factor.
    std::string lat, bw;
    const double route = routeLinks(spec) * link.latencyNs;
    uint64_t from = 0;
    for (const ProtocolEntry& p : spec.protocol) {
        if (p.latencyNs > 0 && route <= 0)
            throw std::runtime_error("SimGrid export: a protocol latency on links without one");
        appendf(lat, "%s%llu:%.17g", lat.empty() ? "" : ";", (unsigned long long)from,
                route > 0 ? (route + p.latencyNs) / route : 1.0);
        appendf(bw, "%s%llu:%.17g", bw.empty() ? "" : ";", (unsigned long long)from,
                p.bandwidthFactor);
        from = p.upToBytes == UINT64_MAX ? UINT64_MAX : p.upToBytes + 1;
    }
    if (from != UINT64_MAX) { // past the table (or without one): no correction
        appendf(lat, "%s%llu:1", lat.empty() ? "" : ";", (unsigned long long)from);
        appendf(bw, "%s%llu:1", bw.empty() ? "" : ";", (unsigned long long)from);
    }
    o.push_back("--cfg=smpi/lat-factor:" + lat);
    o.push_back("--cfg=smpi/bw-factor:" + bw);
    // Rankscope's links carry no acknowledgement traffic the other way.
    o.push_back("--cfg=network/crosstraffic:0");
    // The algorithms Rankscope replays (the spec's choice or the default), where SMPI has them.
    for (size_t k = 0; k < size_t(CollKind::None); ++k) {
        const CollKind kind = CollKind(k);
        Algorithm a = defaultAlgorithm(kind);
        for (const auto& [op, name] : spec.collectives)
            if (collKindFromName(op) == kind)
                if (const auto chosen = algorithmFromName(kind, name)) a = *chosen;
        if (const char* smpi = smpiAlgorithm(kind, a, ranks))
            o.push_back("--cfg=smpi/" + std::string(collKindName(kind)) + ":" + smpi);
    }
    return o;
}

std::string findOnPath(const std::string& program)
{
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "";
    for (size_t begin = 0; begin <= dirs.size();) {
        size_t end = dirs.find(':', begin);
        if (end == std::string::npos) end = dirs.size();
        const std::string d = end > begin ? dirs.substr(begin, end - begin) : ".";
        const std::string candidate = d + "/" + program;
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
        begin = end + 1;
    }
    return {};
}

std::vector<std::string> simgridTracingOptions(const std::string& pajeFile)
{
    return {"--cfg=tracing:yes",
            "--cfg=tracing/smpi:yes",
            "--cfg=tracing/smpi/computing:yes",
            "--cfg=tracing/smpi/display-sizes:yes",
            "--cfg=tracing/precision:9",
            "--cfg=tracing/filename:" + pajeFile};
}

SimGridRun runSimGridReplay(const std::string& smpirun, const SimGridExport& e,
                            const std::vector<std::string>& options,
                            const std::function<bool()>& cancelled)
{
    SimGridRun run;
    // -no-privatize: the replayer has no application globals to privatize, and privatizing
    // copies and loads the replay binary once per rank (0.5 s more at 1024 ranks).
    // display-timing prints SimGrid's own timer; the replay's "Simulation time" is logged at
    // info level by smpi_replay, so that category stays audible while the rest is quiet.
    run.command = "cd " + shellQuote(e.dir) + " && " + shellQuote(smpirun) +
                  " -no-privatize -platform " + shellQuote(e.platformFile) + " -hostfile " +
                  shellQuote(e.hostFile) + " -np " + std::to_string(e.ranks) + " -replay " +
                  shellQuote(e.listFile);
    for (const std::string& o : options)
        run.command += " " + shellQuote(o);
    run.command += " --cfg=smpi/display-timing:yes --log=root.thresh:critical "
                   "--log=smpi_replay.thresh:info --log=smpi_utils.thresh:info";
    ShellResult shell = runShellCommand(run.command, cancelled);
    run.output = std::move(shell.output);
    run.wallSeconds = shell.wallSeconds;
    run.exitCode = shell.exitCode;
    run.cancelled = shell.cancelled;
    // "Simulated time: <s> seconds." (display-timing, six significant digits) or the replay's
    // own "Simulation time <s>" (microseconds).
    run.simulatedSeconds = numberAfter(run.output, "Simulated time: ");
    if (run.simulatedSeconds < 0)
        run.simulatedSeconds = numberAfter(run.output, "Simulation time ");
    run.engineSeconds = numberAfter(run.output, "The simulation took ");
    return run;
}

} // namespace rankscope::bench
