#include "whatif/netsim/linkmessages.h"

#include "whatif/netsim/machine.h"
#include "whatif/netsim/machinelinks.h"

#include <algorithm>

namespace rankscope::netsim {

namespace {

bool heavier(const LinkMessage& a, const LinkMessage& b)
{
    if (a.bytes != b.bytes) return a.bytes > b.bytes;
    if (a.contentionNs != b.contentionNs) return a.contentionNs > b.contentionNs;
    return a.message < b.message;
}

/// Keeps the `n` heaviest of the messages offered to it (a heap with the lightest on top).
void offer(std::vector<LinkMessage>& kept, const LinkMessage& m, size_t n)
{
    if (kept.size() < n) {
        kept.push_back(m);
        std::push_heap(kept.begin(), kept.end(), heavier);
    } else if (heavier(m, kept.front())) {
        std::pop_heap(kept.begin(), kept.end(), heavier);
        kept.back() = m;
        std::push_heap(kept.begin(), kept.end(), heavier);
    }
}

} // namespace

std::vector<std::vector<LinkMessage>> heaviestMessages(const ActionProgram& program,
                                                       const NetworkSpec& spec,
                                                       const std::string& model,
                                                       const NetworkFigures& figures, size_t n)
{
    std::vector<std::vector<LinkMessage>> out(figures.links.size());
    if (n == 0 || figures.links.empty()) return out;
    const Machine machine(spec, program.rankCount());
    const MachineLinks links(machine);
    const bool loggp = model == "loggp";
    std::vector<uint32_t> route;
    for (size_t i = 0; i < program.messages.size(); ++i) {
        const ProgramMessage& pm = program.messages[i];
        if (pm.src >= program.rankCount() || pm.dst >= program.rankCount()) continue;
        LinkMessage m{uint32_t(i), pm.src, pm.dst, pm.bytes, 0, 0};
        if (i < figures.messages.size()) {
            m.transferNs = figures.messages[i].transferNs;
            m.contentionNs = figures.messages[i].contentionNs;
        }
        route.clear();
        const Placement placement = !program.strided.empty() && program.strided[i] != 0
                                        ? Placement::Strided
                                        : Placement::Policy;
        if (loggp) {
            // LogGP's "links" are the sender's network interfaces (loggpmodel.h).
            const uint32_t a = machine.nodeOf(pm.src), b = machine.nodeOf(pm.dst);
            const int net = machine.channelBetween(a, b, pm.bytes, placement);
            if (net >= 0) route.push_back(uint32_t(size_t(net) * spec.nodes + a));
        } else if (!links.route(pm.src, pm.dst, pm.bytes, placement, route)) {
            // The flow model sends a node's own messages over its memory when that is shared.
            const int64_t shared = links.intraNodeLink(pm.src);
            if (model == "flow" && shared >= 0) route.push_back(uint32_t(shared));
        }
        for (uint32_t l : route)
            if (l < out.size()) offer(out[l], m, n);
    }
    for (std::vector<LinkMessage>& kept : out)
        std::sort_heap(kept.begin(), kept.end(), heavier);
    return out;
}

} // namespace rankscope::netsim
