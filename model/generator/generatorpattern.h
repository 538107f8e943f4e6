#pragma once
// One communication pattern of the trace generator: its default compute regions and message
// size, its exact event counts (so the builder can reserve exactly and limits are checked
// before any work), and the code that emits one iteration through a GeneratorContext.

#include "model/generator/scalinglaw.h"
#include "model/generator/tracegenerator.h"

#include <memory>
#include <string_view>
#include <vector>

namespace rankscope {

class GeneratorContext;

class GeneratorPattern
{
public:
    virtual ~GeneratorPattern() = default;

    virtual std::vector<ComputeRegion> defaultRegions() const = 0;
    virtual double defaultMessageBytes() const = 0;
    virtual ScalingLaw defaultMessageLaw() const = 0;

    /// Events rank `rank` records in one iteration.
    virtual uint64_t iterationEvents(uint32_t rank) const = 0;
    /// Point-to-point messages and collective instances of one iteration, over all ranks.
    virtual uint64_t iterationMessages() const = 0;
    virtual uint64_t iterationCollectives() const = 0;

    /// Adds the pattern's MPI regions and sizes its buffers; called once before iterating.
    virtual void prepare(GeneratorContext& ctx) = 0;
    /// Emits iteration `iteration` on every rank.
    virtual void runIteration(GeneratorContext& ctx, uint32_t iteration) = 0;
};

/// The pattern called `name` for `ranks` ranks; throws TraceError for an unknown name or a
/// rank count the pattern cannot use.
std::unique_ptr<GeneratorPattern> makeGeneratorPattern(std::string_view name, uint32_t ranks);

} // namespace rankscope
