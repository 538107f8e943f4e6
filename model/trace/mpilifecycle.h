#pragma once
// The MPI regions that bound the delta-time span: MPI_Init / MPI_Init_thread and MPI_Finalize.

#include "model/trace/ids.h"

#include <algorithm>
#include <vector>

namespace rankscope {

class Trace;

struct MpiLifecycle
{
    std::vector<RegionId> init;     ///< MPI regions named MPI_Init or MPI_Init_thread
    std::vector<RegionId> finalize; ///< MPI regions named MPI_Finalize

    /// Finds the lifecycle regions among the definitions of `trace` (one pass over its regions).
    static MpiLifecycle of(const Trace& trace);

    bool isInit(RegionId r) const { return std::find(init.begin(), init.end(), r) != init.end(); }
    bool isFinalize(RegionId r) const
    {
        return std::find(finalize.begin(), finalize.end(), r) != finalize.end();
    }
};

} // namespace rankscope
