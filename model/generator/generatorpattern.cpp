#include "model/generator/generatorpattern.h"

#include "model/generator/alltoallpattern.h"
#include "model/generator/halopattern.h"
#include "model/generator/pingpongpattern.h"
#include "model/trace/traceerror.h"

#include <string>

namespace rankscope {

std::unique_ptr<GeneratorPattern> makeGeneratorPattern(std::string_view name, uint32_t ranks)
{
    if (name == "pingpong") return std::make_unique<PingPongPattern>(ranks);
    if (name == "stencil2d") return std::make_unique<HaloPattern>(ranks, 2);
    if (name == "stencil3d") return std::make_unique<HaloPattern>(ranks, 3);
    if (name == "alltoall") return std::make_unique<AlltoallPattern>(ranks);
    throw TraceError("unknown generator pattern '" + std::string(name) +
                     "' (expected one of: pingpong, stencil2d, stencil3d, alltoall)");
}

} // namespace rankscope
