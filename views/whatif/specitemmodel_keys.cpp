// What SpecItemModel's keys mean and which values they take: the tooltip text of each key
// (describeKey) and the known values offered by the value editor (suggestions).
#include "views/whatif/specitemmodel.h"
#include "views/whatif/specitemmodel_p.h"
#include "whatif/netsim/collectivealgorithm.h"

#include <QStringList>

namespace rankscope {

using namespace specmodel;

namespace {

struct KeyHelp
{
    const char* pattern; ///< key components, '*' matches any one
    const char* text;    ///< %1, %2: what the wildcards matched
};

// What each key does to the simulated network, for tooltips. The spec reader owns the keys;
// a key missing here only loses its explanation.
constexpr KeyHelp kKeyHelp[] = {
    {"name", QT_TRANSLATE_NOOP("rankscope::SpecItemModel", "The spec's name, shown in results")},
    {"nodes",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel", "How many compute nodes the machine has")},
    {"ranks_per_node",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel", "How many MPI ranks run on each node")},
    {"mapping", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                  "How ranks are placed on nodes: block (consecutive ranks share "
                                  "a node), cyclic (round robin) or file")},
    {"mapping_file", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                       "The file giving the node of each rank (mapping: file)")},
    {"eager_limit", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                      "Messages up to this size are sent eagerly; larger ones "
                                      "wait for the receiver first (rendezvous)")},
    {"packet_size", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                      "Packet model: messages travel as packets of this size")},
    {"switching", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                    "Packet model: cut_through forwards a packet as its head "
                                    "arrives; store_and_forward waits for all of it at each hop")},
    {"wide_area_streams",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel", "Grid collectives: how many node pairs use the "
                                                   "wide-area link at once")},
    {"overhead",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                       "CPU time each message costs its sender and receiver (LogGP o)")},
    {"overhead.send", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                        "CPU time a rank spends sending each message (LogGP o_s)")},
    {"overhead.recv",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                       "CPU time a rank spends receiving each message (LogGP o_r)")},
    {"intra_node", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                     "The link class between ranks on one node (none: free)")},
    {"links", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                "Named link classes: every link of a class has its latency and "
                                "bandwidth")},
    {"links.*", QT_TRANSLATE_NOOP("rankscope::SpecItemModel", "Link class %1")},
    {"links.*.latency",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel", "One-way latency of every link of class %1")},
    {"links.*.bandwidth", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                            "Bandwidth of every link of class %1 (e.g. 10Gbps, "
                                            "2GB/s)")},
    {"networks", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                   "The networks over the nodes; the first is the default")},
    {"networks.*",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel", "Network %1: its topology and links")},
    {"networks.*.topology",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                       "Topology of network %1: crossbar, fat_tree, torus, ring, double_ring, "
                       "dragonfly, clusters or explicit")},
    {"networks.*.routing",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                       "How network %1 routes: shortest_path, or dimension_order (torus)")},
    {"networks.*.link", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                          "Link class of network %1's links from nodes (or "
                                          "between neighbours)")},
    {"networks.*.uplink", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                            "Link class of network %1's switch-to-switch links")},
    {"networks.*.wan",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                       "Link class of network %1's wide-area links (between clusters or groups)")},
    {"networks.*.dims", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                          "Sizes of network %1: torus dimensions, or nodes per "
                                          "cluster")},
    {"networks.*.dims.*", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                            "Size %2 of network %1: a torus dimension, or the "
                                            "nodes of one cluster")},
    {"networks.*.k", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                       "Fat tree %1: ports of each switch going down (k-ary)")},
    {"networks.*.levels",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel", "Fat tree %1: levels of switches")},
    {"networks.*.group",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                       "Network %1: nodes in each directly linked sub-cluster")},
    {"networks.*.groups",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel", "Dragonfly %1: number of groups")},
    {"networks.*.routers_per_group",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel", "Dragonfly %1: routers in each group")},
    {"networks.*.nodes_per_router",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel", "Dragonfly %1: nodes on each router")},
    {"protocol", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                   "Size-dependent costs added to every message (eager and "
                                   "rendezvous steps)")},
    {"protocol.*", QT_TRANSLATE_NOOP("rankscope::SpecItemModel", "Protocol step %1")},
    {"protocol.*.up_to", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                           "Protocol step %1 applies to messages up to this size")},
    {"protocol.*.latency", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                             "Latency added to each message of protocol step %1")},
    {"protocol.*.bandwidth_factor",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                       "Messages of protocol step %1 see the bandwidth times "
                       "this")},
    {"policy", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                 "How each message chooses between the direct and the switched "
                                 "network")},
    {"policy.direct", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                        "The network a message takes when the rules allow")},
    {"policy.fallback",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel", "The network taken otherwise")},
    {"policy.same_subcluster",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                       "Take the direct network only between nodes of one sub-cluster")},
    {"policy.max_bytes", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                           "Take the direct network only for messages up to this "
                                           "size")},
    {"policy.max_hops", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                          "Take the direct network only up to this many hops on "
                                          "it")},
    {"policy.strided",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                       "Halo faces by kind: strided faces take their own network and are packed")},
    {"policy.strided.callsites",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                       "Messages sent from a call site containing one of these texts are strided "
                       "faces")},
    {"policy.strided.network",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                       "The network strided faces take (else the rules above)")},
    {"policy.strided.pack",
     QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                       "How fast a strided face is packed by its sender and unpacked by its "
                       "receiver")},
    {"collectives", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                      "The collective algorithms of the machine's MPI")},
    {"collectives.*", QT_TRANSLATE_NOOP("rankscope::SpecItemModel",
                                        "Algorithm of every %1 (unless the run chooses another)")},
};

QStringList toQStringList(const std::vector<std::string>& names)
{
    QStringList out;
    for (const std::string& n : names)
        out << QString::fromStdString(n);
    return out;
}

} // namespace

QString SpecItemModel::describeKey(const std::string& key)
{
    const std::vector<std::string> parts = splitKey(key);
    for (const KeyHelp& h : kKeyHelp) {
        const std::vector<std::string> pattern = splitKey(h.pattern);
        if (pattern.size() != parts.size()) continue;
        QStringList wild;
        bool match = true;
        for (size_t i = 0; i < parts.size() && match; ++i) {
            if (pattern[i] == "*")
                wild << QString::fromStdString(parts[i]);
            else
                match = pattern[i] == parts[i];
        }
        if (!match) continue;
        QString text = tr(h.text);
        for (const QString& w : wild)
            text = text.arg(w);
        return text;
    }
    return {};
}

QStringList SpecItemModel::suggestions(const std::string& key) const
{
    const std::vector<std::string> p = splitKey(key);
    const auto is = [&](std::initializer_list<std::string_view> pattern) {
        if (pattern.size() != p.size()) return false;
        size_t i = 0;
        for (std::string_view part : pattern) {
            if (part != "*" && p[i] != part) return false;
            ++i;
        }
        return true;
    };
    std::vector<std::string> links;
    for (const netsim::LinkClass& l : edited_.links)
        links.push_back(l.name);
    std::vector<std::string> networks;
    for (const netsim::NetworkDef& n : edited_.networks)
        networks.push_back(n.name);

    if (is({"mapping"}))
        return {QStringLiteral("block"), QStringLiteral("cyclic"), QStringLiteral("file")};
    if (is({"switching"}))
        return {QStringLiteral("cut_through"), QStringLiteral("store_and_forward")};
    if (is({"intra_node"}) || is({"networks", "*", "link"}) || is({"networks", "*", "uplink"}) ||
        is({"networks", "*", "wan"}))
        return toQStringList(links);
    if (is({"networks", "*", "topology"}))
        return {QStringLiteral("crossbar"),  QStringLiteral("single_switch"),
                QStringLiteral("fat_tree"),  QStringLiteral("torus"),
                QStringLiteral("ring"),      QStringLiteral("double_ring"),
                QStringLiteral("dragonfly"), QStringLiteral("clusters"),
                QStringLiteral("explicit")};
    if (is({"networks", "*", "routing"}))
        return {QStringLiteral("shortest_path"), QStringLiteral("dimension_order")};
    if (is({"policy", "direct"}) || is({"policy", "fallback"})) return toQStringList(networks);
    if (is({"policy", "same_subcluster"})) return {QStringLiteral("true"), QStringLiteral("false")};
    if (is({"collectives", "*"})) {
        if (const auto kind = netsim::collKindFromName(p[1])) {
            QStringList names;
            for (std::string_view n : netsim::algorithmNames(*kind))
                names << QString::fromUtf8(n.data(), qsizetype(n.size()));
            return names;
        }
    }
    return {};
}

} // namespace rankscope
