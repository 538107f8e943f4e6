#include "whatif/extrap/scaleseries.h"

#include <map>

namespace rankscope::extrap {

size_t MatchedInterval::presentCount() const
{
    size_t n = 0;
    for (const ExecutionInterval* i : atScale)
        n += i != nullptr;
    return n;
}

ScaleSeries matchIntervals(std::span<const uint32_t> scales,
                           std::span<const IntervalTable* const> tables)
{
    // Call-site ids differ between traces; the printed names are the identity.
    std::map<std::string, MatchedInterval> byName;
    for (size_t k = 0; k < tables.size(); ++k) {
        for (const ExecutionInterval& iv : tables[k]->intervals) {
            MatchedInterval& m = byName[tables[k]->name(iv)];
            m.atScale.resize(tables.size(), nullptr);
            m.atScale[k] = &iv;
        }
    }
    ScaleSeries series;
    for (auto& [name, m] : byName) {
        m.name = name;
        if (m.presentCount() < tables.size()) {
            std::string where;
            for (size_t k = 0; k < tables.size(); ++k)
                if (!m.atScale[k]) where += (where.empty() ? "" : ", ") + std::to_string(scales[k]);
            series.missing.push_back(name + " (missing at " + where + ")");
        }
        series.intervals.push_back(std::move(m));
    }
    return series;
}

} // namespace rankscope::extrap
