#include "model/generator/generatorcontext.h"

#include "model/generator/generatorpattern.h"

#include <algorithm>

namespace rankscope {

namespace {

// Fixed costs of the program frame (the part of a real run no pattern parameter describes).
constexpr int64_t kStartSkewNs = 100'000; // ranks start up to 0.1 ms apart
constexpr int64_t kInitNs = 2'000'000;    // MPI_Init after the last rank entered it
constexpr int64_t kFinalizeNs = 200'000;  // MPI_Finalize after the last rank entered it
constexpr int64_t kFrameStepNs = 5'000;   // program begin -> main -> MPI_Init, and back

} // namespace

GeneratorContext::GeneratorContext(const GeneratorOptions& options, const GeneratorShape& shape)
    : options_(options), random_(options.seed)
{
    const double n = options.ranks;
    const double growth = 1.0 + options.noiseGrowth * std::log2(n);
    noiseSpread_ = options.noise * growth;
    messageBytes_ = *options.messageBytes * scalingFactor(*options.messageLaw, n);
    callNs_ = std::llround(options.mpiCallNs);

    Provenance provenance;
    provenance.kind = "generated";
    provenance.source = "rankscope generator: " + options.pattern;
    provenance.parameters = generatorOptionsText(options);
    builder_.setProvenance(std::move(provenance));
    builder_.setClock(ClockProperties{});

    // User regions carry a plausible source position, as compiler instrumentation records.
    const StringId file = builder_.intern(options.pattern + ".c");
    auto userRegion = [&](std::string_view name, uint32_t line) {
        return builder_.addRegion(
            Region{builder_.intern(name), RegionRole::Function, Paradigm::User, file, line});
    };
    main_ = userRegion("main", 1);
    iteration_ = userRegion("iteration", 20);
    for (size_t i = 0; i < options.regions.size(); ++i) {
        computeRegions_.push_back(userRegion(options.regions[i].name, 40 + 20 * uint32_t(i)));
        computeMeanNs_.push_back(options.regions[i].baseNs *
                                 scalingFactor(options.regions[i].law, n));
    }
    init_ = addMpiRegion("MPI_Init", RegionRole::MpiOther);
    finalize_ = addMpiRegion("MPI_Finalize", RegionRole::MpiOther);
    programName_ = builder_.intern(options.pattern);

    const StringId thread = builder_.intern("Master thread");
    std::vector<RankId> members;
    members.reserve(options.ranks);
    for (uint32_t r = 0; r < options.ranks; ++r) {
        const RankId rank = builder_.addRank(builder_.intern("MPI Rank " + std::to_string(r)));
        builder_.addLocation(rank, thread, LocationType::CpuThread, r);
        builder_.reserveEvents(location(r), shape.eventsPerRank[r]);
        members.push_back(rank);
    }
    world_ = builder_.addCommunicator(builder_.intern("MPI_COMM_WORLD"), std::move(members));
    builder_.setWorldCommunicator(world_);

    imbalance_.resize(options.ranks);
    for (auto& f : imbalance_)
        f = std::max(0.0, 1.0 + options.imbalance * growth * random_.symmetric());
    now_.assign(options.ranks, 0);
}

RegionId GeneratorContext::addMpiRegion(std::string_view name, RegionRole role)
{
    return builder_.addRegion(Region{builder_.intern(name), role, Paradigm::Mpi, StringId(), 0});
}

int64_t GeneratorContext::transferNs(uint64_t bytes) const
{
    return std::llround(options_.latencyNs +
                        static_cast<double>(bytes) * 1e9 / options_.bandwidthBytesPerSecond);
}

void GeneratorContext::compute(uint32_t rank, size_t slot)
{
    const double factor = std::max(0.0, 1.0 + noiseSpread_ * random_.normal());
    const double d = computeMeanNs_[slot] * imbalance_[rank] * factor;
    int64_t t = now_[rank];
    builder_.enter(location(rank), t, computeRegions_[slot]);
    t += std::llround(d);
    builder_.leave(location(rank), t, computeRegions_[slot]);
    now_[rank] = t;
}

void GeneratorContext::enterIteration(uint32_t rank)
{
    builder_.enter(location(rank), now_[rank], iteration_);
}

void GeneratorContext::leaveIteration(uint32_t rank)
{
    builder_.leave(location(rank), now_[rank], iteration_);
}

int64_t GeneratorContext::collectiveEnterAll(RegionId region, int64_t costNs)
{
    int64_t last = 0;
    for (uint32_t r = 0; r < ranks(); ++r) {
        builder_.enter(location(r), now_[r], region);
        builder_.collectiveBegin(location(r), now_[r]);
        last = std::max(last, now_[r]);
    }
    return last + costNs;
}

void GeneratorContext::prologue()
{
    // Score-P's frame: PROGRAM_BEGIN, main, MPI_Init holding a CREATE_HANDLE collective on
    // MPI_COMM_WORLD with its COMM_CREATE record.
    for (uint32_t r = 0; r < ranks(); ++r) {
        int64_t t = std::llround(random_.uniform() * kStartSkewNs);
        builder_.misc(location(r), t, MiscEvent{MiscKind::ProgramBegin, programName_.value, 0});
        t += kFrameStepNs;
        builder_.enter(location(r), t, main_);
        now_[r] = t + kFrameStepNs;
    }
    const int64_t end = collectiveEnterAll(init_, kInitNs);
    for (uint32_t r = 0; r < ranks(); ++r) {
        builder_.misc(location(r), end, MiscEvent{MiscKind::CommCreate, world_.value, 0});
        builder_.collectiveEnd(location(r), end, CollectiveOp::CreateHandle, world_, kNoRoot, 0, 0);
        builder_.leave(location(r), end + halfCallNs(), init_);
        now_[r] = end + halfCallNs() + kFrameStepNs;
    }
}

void GeneratorContext::epilogue()
{
    const int64_t end = collectiveEnterAll(finalize_, kFinalizeNs);
    for (uint32_t r = 0; r < ranks(); ++r) {
        builder_.misc(location(r), end, MiscEvent{MiscKind::CommDestroy, world_.value, 0});
        builder_.collectiveEnd(location(r), end, CollectiveOp::DestroyHandle, world_, kNoRoot, 0,
                               0);
        int64_t t = end + halfCallNs();
        builder_.leave(location(r), t, finalize_);
        t += kFrameStepNs;
        builder_.leave(location(r), t, main_);
        builder_.misc(location(r), t + kFrameStepNs, MiscEvent{MiscKind::ProgramEnd, 0, 0});
    }
}

Trace GeneratorContext::run(GeneratorPattern& pattern, const std::function<bool(double)>& progress)
{
    // Generation takes ~90% of the time, matching in finish() the rest.
    auto report = [&](double fraction) {
        if (progress && !progress(fraction)) throw Cancelled();
    };
    report(0.0);
    pattern.prepare(*this);
    prologue();
    const uint32_t iterations = options_.iterations;
    const uint32_t step = std::max<uint32_t>(1, iterations / 100);
    for (uint32_t i = 0; i < iterations; ++i) {
        pattern.runIteration(*this, i);
        if ((i + 1) % step == 0) report(0.9 * (i + 1) / iterations);
    }
    epilogue();
    Trace trace = builder_.finish();
    report(1.0);
    return trace;
}

} // namespace rankscope
