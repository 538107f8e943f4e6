#pragma once
// The baseline replays of the what-if explorer: each trace replayed on the unedited spec with
// a network model, computed once and kept while the trace lives, so every what-if run on the
// same trace, spec and model compares its edit with the same baseline without replaying it
// again. Thread-safe (runs and sweep points ask from worker threads).

#include "whatif/netsim/networkspec.h"
#include "whatif/scenario/scenariorun.h"

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace rankscope {
class Trace;
}

namespace rankscope::whatif {

class BaselineCache
{
public:
    /// The baseline replay of `trace` on `spec` with `model` (replayed on first use; a
    /// TraceError of the replay propagates).
    BaselineReplay get(const std::shared_ptr<const Trace>& trace, const netsim::NetworkSpec& spec,
                       const std::string& model);
    /// The same, computed by `compute` on first use (the what-if pipeline's richer baseline).
    BaselineReplay get(const std::shared_ptr<const Trace>& trace, const netsim::NetworkSpec& spec,
                       const std::string& model, const std::function<BaselineReplay()>& compute);
    /// Replays computed so far (for tests).
    size_t replays() const;

private:
    struct Entry
    {
        std::weak_ptr<const Trace> trace;
        const Trace* key = nullptr;
        std::string spec, model;
        BaselineReplay value;
    };
    mutable std::mutex mutex_;
    std::vector<Entry> entries_;
    size_t replays_ = 0;
};

} // namespace rankscope::whatif
