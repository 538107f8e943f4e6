#include "whatif/netsim/specreader.h"

#include "model/trace/traceerror.h"
#include "whatif/netsim/collectivealgorithm.h"
#include "whatif/netsim/units.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace rankscope::netsim {

std::string joinKey(const std::string& path, std::string_view key)
{
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

SpecReader::SpecReader(std::string source, std::set<std::string> overridden)
    : source_(std::move(source)), overridden_(std::move(overridden))
{
}

namespace {

// Physical ranges of spec values (a typo of a unit must not overflow the replay): a latency or
// overhead of at most one hour, a bandwidth of at least one bit per second.
constexpr double kMaxDurationNs = 3600e9;
constexpr double kMinBytesPerNs = 0.125 / 1e9;

} // namespace

void SpecReader::fail(const YAML::Node& node, const std::string& path,
                      const std::string& message) const
{
    // A value set on the command line has no line in the file: say where it came from instead.
    for (const std::string& o : overridden_)
        if (path == o || path.rfind(o + ".", 0) == 0)
            throw TraceError(source_ + ": --set " + path + ": " + message);
    const int line = node.IsDefined() ? node.Mark().line : -1;
    const std::string where = line >= 0 ? source_ + ":" + std::to_string(line + 1) : source_;
    throw TraceError(where + ": " + (path.empty() ? std::string("spec") : path) + ": " + message);
}

void SpecReader::checkKeys(const YAML::Node& map, const std::string& path,
                           std::initializer_list<std::string_view> allowed) const
{
    if (!map.IsMap()) fail(map, path, "expected a map of keys");
    std::map<std::string, int> seen; // key -> its line (1-based)
    for (const auto& kv : map) {
        const std::string key = kv.first.as<std::string>();
        // YAML forbids a key twice in one map; yaml-cpp would keep the first silently.
        const auto [at, added] = seen.try_emplace(key, kv.first.Mark().line + 1);
        if (!added)
            fail(kv.first, joinKey(path, key),
                 "duplicate key (first given on line " + std::to_string(at->second) + ")");
        if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
        std::string list;
        for (std::string_view a : allowed)
            list += (list.empty() ? "" : ", ") + std::string(a);
        fail(kv.first, joinKey(path, key), "unknown key (expected one of: " + list + ")");
    }
}

YAML::Node SpecReader::require(const YAML::Node& map, const std::string& path,
                               const char* key) const
{
    YAML::Node n = map[key];
    if (!n.IsDefined() || n.IsNull()) fail(map, joinKey(path, key), "missing (required)");
    return n;
}

std::string SpecReader::text(const YAML::Node& node, const std::string& path) const
{
    if (!node.IsScalar()) fail(node, path, "expected a single value");
    return node.Scalar();
}

double SpecReader::duration(const YAML::Node& node, const std::string& path) const
{
    const std::string t = text(node, path);
    const auto v = parseDuration(t);
    if (!v) fail(node, path, "expected a time with a unit such as 1.5us or 10ms, got '" + t + "'");
    if (*v < 0) fail(node, path, "expected a time >= 0, got '" + t + "'");
    if (*v > kMaxDurationNs) fail(node, path, "expected a time of at most 1 h, got '" + t + "'");
    return *v;
}

double SpecReader::bandwidth(const YAML::Node& node, const std::string& path) const
{
    const std::string t = text(node, path);
    const auto v = parseBandwidth(t);
    if (!v)
        fail(node, path,
             "expected a bandwidth with a unit such as 10Gbps or 1.25GB/s, got '" + t + "'");
    if (!(*v >= kMinBytesPerNs))
        fail(node, path, "expected a bandwidth of at least 1 bit/s, got '" + t + "'");
    if (!std::isfinite(*v)) fail(node, path, "expected a finite bandwidth, got '" + t + "'");
    return *v;
}

uint64_t SpecReader::bytes(const YAML::Node& node, const std::string& path) const
{
    const std::string t = text(node, path);
    const auto v = parseBytes(t);
    if (!v) fail(node, path, "expected a size such as 4KiB, 64KB or 512, got '" + t + "'");
    return *v;
}

uint32_t SpecReader::count(const YAML::Node& node, const std::string& path, uint32_t min,
                           uint32_t max) const
{
    const std::string t = text(node, path);
    char* end = nullptr;
    const long long v = std::strtoll(t.c_str(), &end, 10);
    if (t.empty() || *end != '\0' || v < min || v > max)
        fail(node, path,
             "expected a whole number from " + std::to_string(min) + " to " + std::to_string(max) +
                 ", got '" + t + "'");
    return uint32_t(v);
}

double SpecReader::number(const YAML::Node& node, const std::string& path, double min,
                          double max) const
{
    const std::string t = text(node, path);
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (t.empty() || *end != '\0' || !std::isfinite(v) || v < min || v > max) {
        std::ostringstream s;
        s << "expected a number from " << min << " to " << max << ", got '" << t << "'";
        fail(node, path, s.str());
    }
    return v;
}

void SpecReader::read(const YAML::Node& root, NetworkSpec& spec)
{
    if (!root.IsMap()) fail(root, "", "expected a map of keys (name, nodes, links, networks, ...)");
    checkKeys(root, "",
              {"name", "nodes", "ranks_per_node", "mapping", "mapping_file", "eager_limit",
               "overhead", "links", "intra_node", "networks", "protocol", "collectives", "policy",
               "packet_size", "switching", "wide_area_streams"});
    spec.name = root["name"] ? text(root["name"], "name") : std::string();
    spec.nodes = count(require(root, "", "nodes"), "nodes", 1, 1u << 24);
    if (root["ranks_per_node"])
        spec.ranksPerNode = count(root["ranks_per_node"], "ranks_per_node", 1, 4096);
    if (root["eager_limit"]) spec.eagerLimit = bytes(root["eager_limit"], "eager_limit");
    if (root["packet_size"]) {
        spec.packetBytes = bytes(root["packet_size"], "packet_size");
        if (spec.packetBytes == 0) fail(root["packet_size"], "packet_size", "expected a size > 0");
    }
    if (root["wide_area_streams"])
        spec.wideAreaStreams = count(root["wide_area_streams"], "wide_area_streams", 1, 1u << 24);
    if (root["switching"]) {
        const std::string s = text(root["switching"], "switching");
        if (s != "store_and_forward" && s != "cut_through")
            fail(root["switching"], "switching",
                 "expected store_and_forward or cut_through, got '" + s + "'");
        spec.cutThrough = s == "cut_through";
    }
    if (const YAML::Node o = root["overhead"]) {
        checkKeys(o, "overhead", {"send", "recv"});
        if (o["send"]) spec.sendOverheadNs = duration(o["send"], "overhead.send");
        if (o["recv"]) spec.recvOverheadNs = duration(o["recv"], "overhead.recv");
    }
    readLinks(require(root, "", "links"), spec);
    if (root["intra_node"]) {
        checkLinkClass(root["intra_node"], "intra_node", spec);
        spec.intraNodeLink = root["intra_node"].Scalar();
    }
    const YAML::Node nets = require(root, "", "networks");
    if (!nets.IsMap() || nets.size() == 0)
        fail(nets, "networks", "expected a map of named networks (e.g. ib: {topology: crossbar})");
    for (const auto& kv : nets)
        readNetwork(kv.second, joinKey("networks", kv.first.as<std::string>()), spec);
    readMapping(root, spec);
    if (root["protocol"]) readProtocol(root["protocol"], spec);
    if (root["collectives"]) readCollectives(root["collectives"], spec);
    if (root["policy"])
        readPolicy(root["policy"], spec);
    else if (spec.networks.size() > 1)
        fail(nets, "policy", "missing: a spec with several networks needs a channel policy");
}

void SpecReader::readLinks(const YAML::Node& node, NetworkSpec& spec)
{
    if (!node.IsMap() || node.size() == 0)
        fail(node, "links",
             "expected a map of named link classes (e.g. nic: {latency: 1us, "
             "bandwidth: 100Gbps})");
    for (const auto& kv : node) {
        const std::string name = kv.first.as<std::string>();
        const std::string path = joinKey("links", name);
        checkKeys(kv.second, path,
                  {"latency", "bandwidth", "sharing", "max_streams", "congestion"});
        LinkClass c;
        c.name = name;
        c.latencyNs = duration(require(kv.second, path, "latency"), joinKey(path, "latency"));
        c.bytesPerNs = bandwidth(require(kv.second, path, "bandwidth"), joinKey(path, "bandwidth"));
        if (kv.second["sharing"])
            c.sharing = number(kv.second["sharing"], joinKey(path, "sharing"), 0, 1);
        if (kv.second["max_streams"])
            c.maxStreams =
                uint32_t(number(kv.second["max_streams"], joinKey(path, "max_streams"), 1, 1e6));
        if (kv.second["congestion"])
            c.congestion = number(kv.second["congestion"], joinKey(path, "congestion"), 0, 10);
        spec.links.push_back(c);
    }
}

void SpecReader::checkLinkClass(const YAML::Node& node, const std::string& path,
                                const NetworkSpec& spec) const
{
    const std::string name = text(node, path);
    if (spec.link(name)) return;
    std::string list;
    for (const LinkClass& c : spec.links)
        list += (list.empty() ? "" : ", ") + c.name;
    fail(node, path, "expected the name of a link class (" + list + "), got '" + name + "'");
}

void SpecReader::readMapping(const YAML::Node& root, NetworkSpec& spec)
{
    const std::string m = root["mapping"] ? text(root["mapping"], "mapping") : "block";
    if (m == "block")
        spec.mapping = RankMapping::Block;
    else if (m == "cyclic")
        spec.mapping = RankMapping::Cyclic;
    else if (m == "file")
        spec.mapping = RankMapping::File;
    else if (m == "trace")
        spec.mapping = RankMapping::Trace;
    else
        fail(root["mapping"], "mapping", "expected block, cyclic, file or trace, got '" + m + "'");
    if (spec.mapping != RankMapping::File) return;
    const YAML::Node f = require(root, "", "mapping_file");
    std::string path = text(f, "mapping_file");
    // A relative mapping file lives beside the spec.
    if (!path.empty() && path.front() != '/') {
        const size_t slash = source_.rfind('/');
        if (slash != std::string::npos) path = source_.substr(0, slash + 1) + path;
    }
    std::ifstream in(path);
    if (!in) fail(f, "mapping_file", "cannot read '" + path + "'");
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        line = line.substr(0, line.find('#'));
        std::istringstream words(line);
        std::string w;
        while (words >> w) {
            char* end = nullptr;
            const long long v = std::strtoll(w.c_str(), &end, 10);
            if (*end != '\0' || v < 0 || v >= spec.nodes)
                throw TraceError(path + ":" + std::to_string(lineNo) +
                                 ": expected a node number "
                                 "from 0 to " +
                                 std::to_string(spec.nodes - 1) + ", got '" + w + "'");
            spec.mappingTable.push_back(uint32_t(v));
        }
    }
}

void SpecReader::readProtocol(const YAML::Node& node, NetworkSpec& spec)
{
    if (!node.IsSequence())
        fail(node, "protocol", "expected a list of {up_to, latency, bandwidth_factor}");
    for (size_t i = 0; i < node.size(); ++i) {
        const std::string path = "protocol." + std::to_string(i);
        const YAML::Node e = node[i];
        checkKeys(e, path, {"up_to", "latency", "bandwidth_factor"});
        ProtocolEntry p;
        if (e["up_to"]) p.upToBytes = bytes(e["up_to"], joinKey(path, "up_to"));
        if (e["latency"]) p.latencyNs = duration(e["latency"], joinKey(path, "latency"));
        if (e["bandwidth_factor"])
            p.bandwidthFactor =
                number(e["bandwidth_factor"], joinKey(path, "bandwidth_factor"), 1e-6, 1e6);
        if (!spec.protocol.empty() && p.upToBytes <= spec.protocol.back().upToBytes)
            fail(e, joinKey(path, "up_to"), "expected sizes in increasing order");
        spec.protocol.push_back(p);
    }
}

void SpecReader::readCollectives(const YAML::Node& node, NetworkSpec& spec)
{
    if (!node.IsMap()) fail(node, "collectives", "expected a map from operation to algorithm");
    for (const auto& kv : node) {
        const std::string op = kv.first.as<std::string>();
        const std::string path = joinKey("collectives", op);
        const auto kind = collKindFromName(op);
        if (!kind)
            fail(kv.first, path,
                 "unknown operation (expected barrier, bcast, reduce, allreduce, "
                 "allgather, gather, scatter, alltoall or reduce_scatter)");
        const std::string alg = text(kv.second, path);
        if (!algorithmFromName(*kind, alg)) {
            std::string list;
            for (std::string_view a : algorithmNames(*kind))
                list += (list.empty() ? "" : ", ") + std::string(a);
            fail(kv.second, path,
                 "unknown algorithm '" + alg + "' (expected one of: " + list + ")");
        }
        spec.collectives.emplace_back(op, alg);
    }
}

void SpecReader::readPolicy(const YAML::Node& node, NetworkSpec& spec)
{
    checkKeys(node, "policy",
              {"direct", "fallback", "same_subcluster", "max_bytes", "max_hops", "strided"});
    ChannelPolicy& p = spec.policy;
    for (const char* key : {"direct", "fallback"}) {
        const YAML::Node n = require(node, "policy", key);
        const std::string name = text(n, joinKey("policy", key));
        if (spec.networkIndex(name) < 0)
            fail(n, joinKey("policy", key), "expected the name of a network, got '" + name + "'");
        (std::string_view(key) == "direct" ? p.direct : p.fallback) = name;
    }
    if (node["same_subcluster"]) {
        const std::string v = text(node["same_subcluster"], "policy.same_subcluster");
        if (v != "true" && v != "false")
            fail(node["same_subcluster"], "policy.same_subcluster", "expected true or false");
        p.sameSubcluster = v == "true";
    }
    if (node["max_bytes"]) p.maxBytes = bytes(node["max_bytes"], "policy.max_bytes");
    if (node["max_hops"]) p.maxHops = count(node["max_hops"], "policy.max_hops", 0, 1u << 20);
    if (node["strided"]) readStridedFaces(node["strided"], spec);
    spec.hasPolicy = true;
}

void SpecReader::readStridedFaces(const YAML::Node& node, NetworkSpec& spec)
{
    const std::string path = "policy.strided";
    if (!node.IsMap()) fail(node, path, "expected a map of callsites, network and pack");
    checkKeys(node, path, {"callsites", "network", "pack"});
    ChannelPolicy& p = spec.policy;
    const YAML::Node sites = require(node, path, "callsites");
    const std::string sitesPath = joinKey(path, "callsites");
    if (!sites.IsSequence() || sites.size() == 0)
        fail(sites, sitesPath, "expected a list of call-site texts, such as [pack_left, x_face]");
    for (const YAML::Node& site : sites) {
        const std::string t = text(site, sitesPath);
        if (t.empty()) fail(site, sitesPath, "expected a call-site text, got an empty one");
        p.stridedSites.push_back(t);
    }
    if (node["network"]) {
        const std::string name = text(node["network"], joinKey(path, "network"));
        if (spec.networkIndex(name) < 0)
            fail(node["network"], joinKey(path, "network"),
                 "expected the name of a network, got '" + name + "'");
        p.stridedNetwork = name;
    }
    if (node["pack"]) p.packBytesPerNs = bandwidth(node["pack"], joinKey(path, "pack"));
}

} // namespace rankscope::netsim
