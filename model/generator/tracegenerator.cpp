#include "model/generator/tracegenerator.h"

#include "model/generator/generatorcontext.h"
#include "model/generator/generatorpattern.h"
#include "model/support/memorybudget.h"

#include <cmath>
#include <set>
#include <sstream>

namespace rankscope {

namespace {

// A generated run may not last longer than this (int64 ns stay far from overflow).
constexpr double kMaxRunNs = 1e17;

void requireFinite(double value, bool positive, const char* name)
{
    if (!std::isfinite(value) || value < 0 || (positive && value == 0))
        throw TraceError(std::string("generator: the ") + name + " must be a finite number " +
                         (positive ? "> 0" : ">= 0") + ", not " + std::to_string(value));
}

/// A copy of `options` with the pattern's defaults filled in, after checking every value.
GeneratorOptions resolve(const GeneratorOptions& options, const GeneratorPattern& pattern)
{
    GeneratorOptions o = options;
    const auto defaults = pattern.defaultRegions();
    if (o.regions.empty()) o.regions = defaults;
    if (o.regions.size() != defaults.size()) {
        std::string names;
        for (const auto& r : defaults)
            names += (names.empty() ? "" : ", ") + r.name;
        throw TraceError("pattern " + o.pattern + " runs " + std::to_string(defaults.size()) +
                         " compute regions per iteration (" + names + "); " +
                         std::to_string(o.regions.size()) + " were given");
    }
    std::set<std::string> seen;
    for (const auto& r : o.regions) {
        if (r.name.empty() || !seen.insert(r.name).second)
            throw TraceError("compute region names must be non-empty and distinct ('" + r.name +
                             "')");
        requireFinite(r.baseNs, false, ("base time of region " + r.name).c_str());
    }
    if (!o.messageBytes) o.messageBytes = pattern.defaultMessageBytes();
    if (!o.messageLaw) o.messageLaw = pattern.defaultMessageLaw();
    requireFinite(*o.messageBytes, false, "message size (bytes)");
    requireFinite(o.imbalance, false, "imbalance");
    requireFinite(o.noise, false, "noise");
    requireFinite(o.noiseGrowth, false, "noise growth");
    requireFinite(o.latencyNs, false, "network latency (ns)");
    requireFinite(o.bandwidthBytesPerSecond, true, "bandwidth (bytes/s)");
    requireFinite(o.mpiCallNs, false, "MPI call time (ns)");
    if (o.sizeSteps < 1 || o.sizeSteps > 32)
        throw TraceError("generator: the message size steps must be 1..32, got " +
                         std::to_string(o.sizeSteps));
    return o;
}

GeneratorShape shapeOf(const GeneratorOptions& o, const GeneratorPattern& pattern)
{
    constexpr uint64_t kFrameEvents = 14; // PROGRAM_BEGIN .. MPI_Init, MPI_Finalize .. PROGRAM_END
    auto eventsOf = [&](uint32_t r) {
        return kFrameEvents + uint64_t(o.iterations) * pattern.iterationEvents(r);
    };
    // Totals first, so that a run beyond the limits is refused before anything per rank is kept.
    uint64_t total = 0;
    for (uint32_t r = 0; r < o.ranks; ++r) {
        const uint64_t events = eventsOf(r);
        // Events are addressed by 32-bit indices per location (Message, CollectiveMember).
        if (events >= kNoEvent)
            throw TraceError("generator: " + std::to_string(events) + " events on rank " +
                             std::to_string(r) + " exceed the limit of " +
                             std::to_string(kNoEvent - 1) + " per location; use fewer iterations");
        total += events;
    }
    if (total > o.maxEvents)
        throw TraceError("generator: " + std::to_string(total) + " events exceed the limit of " +
                         std::to_string(o.maxEvents) +
                         " events a generated trace may hold; use fewer iterations or ranks");
    GeneratorShape shape;
    shape.messages = uint64_t(o.iterations) * pattern.iterationMessages();
    shape.collectiveInstances = 2 + uint64_t(o.iterations) * pattern.iterationCollectives();
    shape.collectiveMembers = shape.collectiveInstances * o.ranks;
    if (shape.messages > uint64_t(kMaxEventRef) + 1 ||
        shape.collectiveInstances > uint64_t(kMaxEventRef) + 1)
        throw TraceError("generator: " + std::to_string(shape.messages) + " messages and " +
                         std::to_string(shape.collectiveInstances) +
                         " collectives exceed the model's limit of " +
                         std::to_string(kMaxEventRef + 1) + "; use fewer iterations");
    double perIteration = 0;
    for (const auto& r : o.regions)
        perIteration += r.baseNs * scalingFactor(r.law, o.ranks);
    if (perIteration * o.iterations > kMaxRunNs)
        throw TraceError("generator: the run would last longer than 1e17 ns; reduce the compute "
                         "times or the iterations");
    shape.eventsPerRank.resize(o.ranks);
    for (uint32_t r = 0; r < o.ranks; ++r)
        shape.eventsPerRank[r] = eventsOf(r);
    return shape;
}

void checkBasics(const GeneratorOptions& options)
{
    if (options.ranks == 0) throw TraceError("generator: the number of ranks must be at least 1");
}

} // namespace

uint64_t GeneratorShape::totalEvents() const
{
    uint64_t n = 0;
    for (uint64_t e : eventsPerRank)
        n += e;
    return n;
}

uint64_t GeneratorShape::memoryBytes() const
{
    return totalEvents() * kBuildBytesPerEvent + messages * kBuildBytesPerMessage +
           collectiveMembers * kBuildBytesPerCollectiveMember +
           eventsPerRank.size() * kBuildBytesPerLocation;
}

void checkGeneratorMemory(const GeneratorOptions& options, const GeneratorShape& shape)
{
    if (!options.checkMemory) return;
    requireMemory("generating " + std::to_string(shape.totalEvents()) + " events on " +
                      std::to_string(shape.eventsPerRank.size()) + " ranks",
                  shape.memoryBytes(),
                  options.availableMemory ? options.availableMemory : availableMemoryBytes());
}

std::vector<ComputeRegion> defaultComputeRegions(std::string_view pattern)
{
    return makeGeneratorPattern(pattern, pattern == "pingpong" ? 2 : 1)->defaultRegions();
}

GeneratorShape generatorShape(const GeneratorOptions& options)
{
    checkBasics(options);
    const auto pattern = makeGeneratorPattern(options.pattern, options.ranks);
    return shapeOf(resolve(options, *pattern), *pattern);
}

Trace generateTrace(const GeneratorOptions& options, std::function<bool(double)> progress)
{
    checkBasics(options);
    const auto pattern = makeGeneratorPattern(options.pattern, options.ranks);
    const GeneratorOptions resolved = resolve(options, *pattern);
    const GeneratorShape shape = shapeOf(resolved, *pattern);
    checkGeneratorMemory(resolved, shape);
    GeneratorContext ctx(resolved, shape);
    return ctx.run(*pattern, progress);
}

std::string generatorOptionsText(const GeneratorOptions& options)
{
    std::ostringstream s;
    s.precision(17);
    s << "pattern=" << options.pattern << " ranks=" << options.ranks
      << " iterations=" << options.iterations << " seed=" << options.seed;
    for (const auto& r : options.regions)
        s << " region=" << r.name << ':' << r.baseNs << "ns:" << scalingLawName(r.law);
    s << " imbalance=" << options.imbalance << " noise=" << options.noise
      << " noiseGrowth=" << options.noiseGrowth;
    if (options.messageBytes) s << " messageBytes=" << *options.messageBytes;
    if (options.messageLaw) s << " messageLaw=" << scalingLawName(*options.messageLaw);
    s << " latencyNs=" << options.latencyNs
      << " bandwidthBytesPerSecond=" << options.bandwidthBytesPerSecond
      << " mpiCallNs=" << options.mpiCallNs;
    if (options.sizeSteps != 1) s << " sizeSteps=" << options.sizeSteps;
    return s.str();
}

} // namespace rankscope
