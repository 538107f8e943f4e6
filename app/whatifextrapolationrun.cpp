#include "app/whatifextrapolationrun.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace rankscope {

ExtrapolationRun
extrapolationRunOf(const whatif::WhatIfExtrapolation& e, const WhatIfOutcome& out,
                   const std::function<const LoadedTrace*(const std::string&)>& document)
{
    ExtrapolationRun run;
    run.rankscope = e.rankscope;
    run.classic = e.classic;
    run.autoChosen = e.autoChosen;
    run.candidates = e.candidates;
    run.target = out.scenario.target;
    std::vector<std::pair<uint32_t, QString>> inputs;
    for (const std::string& path : out.scenario.baselines) {
        const LoadedTrace* doc = document(path);
        inputs.emplace_back(doc && doc->trace ? uint32_t(doc->trace->rankCount()) : 0u,
                            doc ? doc->name : QString::fromStdString(path));
    }
    std::stable_sort(inputs.begin(), inputs.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [ranks, label] : inputs)
        run.traceNames << label;
    if (out.compare.trace && !out.scenario.compareWith.empty()) {
        run.measured = out.compare.trace;
        run.measuredName = out.compare.name;
    }
    return run;
}

} // namespace rankscope
