#pragma once
// A network described by a human-written YAML file (ALGORITHMS.md §7.4): nodes and how ranks map
// onto them, named link classes, one or more networks (topologies) over the nodes, a channel
// policy when there are several (§9), the point-to-point protocol and collective algorithms.
//
// Design note: the spec keeps its YAML text and the `--set` overrides applied to it, and every
// override re-reads text plus overrides. So an override is checked exactly like the file (a bad
// value names the key and says it came from --set), and the GUI can edit a copy freely.

#include "whatif/netsim/networkdef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rankscope::netsim {

/// A named link class: every link of the class has this latency and bandwidth.
struct LinkClass
{
    std::string name;
    double latencyNs = 0;
    double bytesPerNs = 0; ///< bandwidth (1 byte/ns = 1 GB/s = 8 Gbps)
    /// How the flows on one link of the class share it in the flow model (`sharing`): n flows
    /// get bytesPerNs * n^-sharing each, so 1 is a fairly shared link (the bandwidth divided
    /// among them), 0 no contention, and values in between the sub-linear slowdown measured
    /// runs show. Unset: 1 on a network's links, 0 on the intra-node link.
    std::optional<double> sharing;
    /// Congestion (flow model, opt-in): above `maxStreams` flows (0: no limit) the link's
    /// aggregate throughput falls by (maxStreams / n)^congestion, as wide-area links do when
    /// too many streams compete (the grid papers' optimum of n concurrent streams).
    uint32_t maxStreams = 0;
    double congestion = 1;
    /// The sharing exponent in effect: `sharing`, else 1 (network) or 0 (intra-node link).
    double sharingOr(double unset) const { return sharing.value_or(unset); }
    bool operator==(const LinkClass&) const = default;
};

/// One row of the message-size-dependent protocol table: messages up to `upToBytes` pay
/// `latencyNs` more and see the bandwidth times `bandwidthFactor`.
struct ProtocolEntry
{
    uint64_t upToBytes = UINT64_MAX;
    double latencyNs = 0;
    double bandwidthFactor = 1;
    bool operator==(const ProtocolEntry&) const = default;
};

/// How messages choose a network when there are several (§9), evaluated per message.
struct ChannelPolicy
{
    std::string direct;             ///< the network used when the rules below allow
    std::string fallback;           ///< the network used otherwise
    bool sameSubcluster = true;     ///< direct only when both ends are in one sub-cluster
    uint64_t maxBytes = UINT64_MAX; ///< direct only up to this size
    uint32_t maxHops = UINT32_MAX;  ///< direct only up to this many hops on it
    /// Halo faces by kind (policy.strided; the TCA paper's contiguous and strided faces): a
    /// point-to-point message sent from a call site that contains one of these texts is a
    /// strided face. It takes `stridedNetwork` (when named; else the rules above) and costs the
    /// sender packing and the receiver unpacking at `packBytesPerNs` (0: free).
    std::vector<std::string> stridedSites;
    std::string stridedNetwork;
    double packBytesPerNs = 0;
    bool operator==(const ChannelPolicy&) const = default;
};

/// How a message's network is chosen on a machine with several (§9).
enum class Placement : uint8_t
{
    Policy, ///< the spec's policy, every rule (point-to-point messages, plain collectives)
    /// The hybrid collectives' step placement: the direct network for a step inside one
    /// sub-cluster within the hop and size limits (even when the policy lets the direct
    /// network join sub-clusters); the switched network otherwise.
    Hybrid,
    /// A strided halo face (ChannelPolicy::stridedSites): the policy's strided network when it
    /// names one, else as Policy.
    Strided,
};

/// How ranks are placed on nodes. Trace: on the compute nodes the trace recorded
/// (Rank::host), resolved by placedAsRecorded() before a replay.
enum class RankMapping : uint8_t
{
    Block,
    Cyclic,
    File,
    Trace
};

/// A `--set key.path=value` override.
struct SpecOverride
{
    std::string key;
    std::string value;
    bool operator==(const SpecOverride&) const = default;
};

struct NetworkSpec
{
    std::string source; ///< the file (or name) errors refer to
    std::string name;
    uint32_t nodes = 0;
    uint32_t ranksPerNode = 1;
    RankMapping mapping = RankMapping::Block;
    std::vector<uint32_t> mappingTable; ///< node of each rank, for RankMapping::File
    uint64_t eagerLimit = 64 * 1024;
    uint64_t packetBytes = 4096;  ///< packet model: messages are cut into packets of this size
    bool cutThrough = false;      ///< packet model: cut-through rather than store-and-forward
    uint32_t wideAreaStreams = 1; ///< grid collectives: node pairs using the wide area at once
    double sendOverheadNs = 0;    ///< LogGP o_s
    double recvOverheadNs = 0;    ///< LogGP o_r
    std::vector<LinkClass> links;
    std::string intraNodeLink;           ///< link class between ranks on one node; empty: free
    std::vector<NetworkDef> networks;    ///< the first is the default
    std::vector<ProtocolEntry> protocol; ///< sorted by upToBytes
    std::vector<std::pair<std::string, std::string>> collectives; ///< op -> algorithm
    bool hasPolicy = false;
    ChannelPolicy policy;

    std::string yamlText;                ///< the text it was read from (before overrides)
    std::vector<SpecOverride> overrides; ///< applied in order

    /// Reads a spec file; throws TraceError naming file, line, key and what was expected.
    static NetworkSpec fromFile(const std::string& path, const std::vector<SpecOverride>& set = {});
    /// Reads a spec from text; `source` names it in errors.
    static NetworkSpec fromString(const std::string& text, const std::string& source,
                                  const std::vector<SpecOverride>& set = {});
    /// This spec with more overrides applied (re-read and re-checked).
    NetworkSpec withOverrides(const std::vector<SpecOverride>& set) const;
    /// The YAML text of this spec with its overrides applied (what "Save spec as" writes). The
    /// file's comments are not kept: yaml-cpp's emitter drops them.
    std::string effectiveYaml() const;
    /// Every scalar a user may override, as ("links.wan.latency", "10ms"), in file order.
    std::vector<std::pair<std::string, std::string>> overridableKeys() const;

    /// The link class `name`, or null.
    const LinkClass* link(const std::string& name) const;
    /// Index of the network `name`, or -1.
    int networkIndex(const std::string& name) const;
    /// The algorithm chosen for collective `op` ("bcast", ...), or empty for the default.
    std::string collectiveAlgorithm(const std::string& op) const;

    bool operator==(const NetworkSpec&) const = default;
};

/// Parses "key.path=value"; throws TraceError when there is no '='.
SpecOverride parseOverride(const std::string& text);

} // namespace rankscope::netsim
