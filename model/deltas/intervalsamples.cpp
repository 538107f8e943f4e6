#include "model/deltas/intervalsamples.h"

#include "model/deltas/deltascanner.h"
#include "model/trace/callsiteresolver.h"
#include "model/trace/mpilifecycle.h"
#include "model/trace/trace.h"

#include <unordered_map>

namespace rankscope {

IntervalSamples collectIntervalSamples(const Trace& trace, const std::set<std::string>& names,
                                       const ProgressCallback& progress)
{
    IntervalSamples result;
    const MpiLifecycle lifecycle = MpiLifecycle::of(trace);
    uint64_t total = 0;
    for (uint32_t r = 0; r < trace.rankCount(); ++r)
        total += trace.rankEvents(RankId(r)).size();
    ProgressReporter reporter(progress, total);
    uint64_t done = 0;
    for (uint32_t r = 0; r < trace.rankCount(); ++r) {
        CallSiteTable sites;
        CallSiteResolver resolver(trace, sites);
        DeltaScanner scanner(trace, RankId(r), resolver, lifecycle);
        // Call-site ids are local to this rank: map each (from, to) pair to its sample vector
        // once, so a delta costs one hash lookup and the name is built once per pair.
        std::unordered_map<uint64_t, std::vector<double>*> target;
        DeltaTime delta;
        while (scanner.next(delta)) {
            const uint64_t key = uint64_t(delta.from.value) << 32 | delta.to.value;
            auto it = target.find(key);
            if (it == target.end()) {
                std::string name(sites.name(delta.from));
                name += " - ";
                name += sites.name(delta.to);
                std::vector<double>* v =
                    names.empty() || names.count(name) ? &result.samples[name] : nullptr;
                it = target.emplace(key, v).first;
            }
            if (it->second) it->second->push_back(double(delta.delta()));
            if (!reporter.update(done + scanner.position())) {
                result.cancelled = true;
                return result;
            }
        }
        done += scanner.eventCount();
    }
    result.cancelled = !reporter.report(total);
    return result;
}

} // namespace rankscope
