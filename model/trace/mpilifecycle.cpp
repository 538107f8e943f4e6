#include "model/trace/mpilifecycle.h"

#include "model/trace/trace.h"

namespace rankscope {

MpiLifecycle MpiLifecycle::of(const Trace& trace)
{
    MpiLifecycle result;
    for (uint32_t i = 0; i < trace.regions().size(); ++i) {
        const RegionId id(i);
        if (!trace.region(id).isMpi()) continue;
        const std::string_view name = trace.regionName(id);
        if (name == "MPI_Init" || name == "MPI_Init_thread")
            result.init.push_back(id);
        else if (name == "MPI_Finalize")
            result.finalize.push_back(id);
    }
    return result;
}

} // namespace rankscope
