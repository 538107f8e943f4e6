#include "whatif/scenario/baselinecache.h"

#include <algorithm>

namespace rankscope::whatif {

BaselineReplay BaselineCache::get(const std::shared_ptr<const Trace>& trace,
                                  const netsim::NetworkSpec& spec, const std::string& model)
{
    return get(trace, spec, model, [&] { return baselineReplay(*trace, spec, model); });
}

BaselineReplay BaselineCache::get(const std::shared_ptr<const Trace>& trace,
                                  const netsim::NetworkSpec& spec, const std::string& model,
                                  const std::function<BaselineReplay()>& compute)
{
    const std::string specKey = spec.source + '\n' + spec.effectiveYaml();
    {
        std::lock_guard lock(mutex_);
        // Entries whose trace is gone are dropped (a new trace may reuse the address).
        std::erase_if(entries_, [](const Entry& e) { return e.trace.expired(); });
        for (const Entry& e : entries_)
            if (e.key == trace.get() && e.spec == specKey && e.model == model) return e.value;
    }
    const BaselineReplay value = compute();
    std::lock_guard lock(mutex_);
    ++replays_;
    entries_.push_back(Entry{trace, trace.get(), specKey, model, value});
    return value;
}

size_t BaselineCache::replays() const
{
    std::lock_guard lock(mutex_);
    return replays_;
}

} // namespace rankscope::whatif
