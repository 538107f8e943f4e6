#include "whatif/extrap/synthcalibration.h"

#include "whatif/netsim/traceplacement.h"

namespace rankscope::extrap {

ScaleCalibration calibrateForTarget(const std::vector<const Trace*>& traces,
                                    const netsim::NetworkSpec& spec, uint32_t target,
                                    const netsim::SimulationOptions& replay)
{
    ScaleCalibration c;
    for (size_t i = 0; i < traces.size(); ++i)
        if (traces[i]->rankCount() > traces[c.source]->rankCount()) c.source = i;
    const Trace& source = *traces[c.source];
    c.sourceRanks = uint32_t(source.rankCount());
    netsim::CalibrationChoice choice =
        netsim::chooseCalibration(source, spec, replay, netsim::CalibrationPlacement::Trace);
    c.fit = choice.fit;

    bool recorded = true, oneNode = true;
    for (const Trace* t : traces) {
        const uint32_t nodes = netsim::recordedNodeCount(*t);
        recorded = recorded && nodes > 0;
        oneNode = oneNode && nodes == 1;
    }
    const uint32_t sourceNodes = netsim::recordedNodeCount(source);
    std::vector<netsim::SpecOverride> placed;
    if (recorded && oneNode) {
        placed = {{"ranks_per_node", std::to_string(target)}, {"mapping", "block"}};
        c.placement = "all " + std::to_string(target) + " ranks on one node, as every input ran";
    } else if (recorded) {
        const uint32_t perNode = (c.sourceRanks + sourceNodes - 1) / sourceNodes;
        placed = {{"ranks_per_node", std::to_string(perNode)}, {"mapping", "block"}};
        c.placement = std::to_string(perNode) + " ranks per node (block), as the " +
                      std::to_string(c.sourceRanks) + "-rank input ran on " +
                      std::to_string(sourceNodes) + " nodes";
    } else {
        if (c.fit.spec.mapping == netsim::RankMapping::Trace) placed = {{"mapping", "block"}};
        c.placement = "as the spec places them (the inputs do not record their compute nodes)";
    }
    // A spec whose node count cannot hold the target is raised later (specForRanks).
    c.applied = choice.applied;
    c.partial = choice.partial;
    c.appliedParameters = choice.appliedParameters;
    c.appliedErrorPct = choice.appliedErrorPct;
    c.overrides = choice.overrides;
    c.note = choice.reason;
    const netsim::NetworkSpec& base = choice.spec;
    if (!c.applied && spec.mapping == netsim::RankMapping::Trace && !recorded)
        placed.push_back({"mapping", "block"});
    c.spec = placed.empty() ? base : base.withOverrides(placed);
    return c;
}

} // namespace rankscope::extrap
