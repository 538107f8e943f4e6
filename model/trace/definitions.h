#pragma once
// Definitions of a trace: regions, ranks and their locations, communicators, the clock.

#include "model/trace/ids.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace rankscope {

/// What a region is, as far as MPI analysis cares.
enum class RegionRole : uint8_t
{
    Function,        ///< user code (or any non-MPI function)
    MpiPointToPoint, ///< MPI_Send, MPI_Irecv, ...
    MpiCollective,   ///< MPI_Allreduce, MPI_Bcast, ...
    Barrier,         ///< MPI_Barrier (and other barriers)
    MpiOther,        ///< other MPI functions: MPI_Init, MPI_Wait, MPI_Comm_rank, ...
    Other,           ///< artificial or measurement-system regions
};

enum class Paradigm : uint8_t
{
    Unknown,
    User,
    Compiler,
    Mpi,
    OpenMp,
    Pthread,
    Cuda,
    OpenAcc,
    Measurement,
    Other
};

struct Region
{
    StringId name;
    RegionRole role = RegionRole::Function;
    Paradigm paradigm = Paradigm::Unknown;
    StringId file;     ///< source file, invalid when unknown
    uint32_t line = 0; ///< first source line, 0 when unknown

    bool isMpi() const { return paradigm == Paradigm::Mpi; }
    bool operator==(const Region& o) const
    {
        return std::tie(name, role, paradigm, file, line) ==
               std::tie(o.name, o.role, o.paradigm, o.file, o.line);
    }
};

enum class LocationType : uint8_t
{
    CpuThread,
    Gpu,
    Metric,
    Other
};

/// A stream of events: a thread of a rank, or a device stream attached to it.
struct Location
{
    StringId name;
    LocationType type = LocationType::CpuThread;
    RankId rank;         ///< the rank (process) it belongs to
    uint64_t otf2Id = 0; ///< id in the source file, for error messages and round trips

    bool operator==(const Location& o) const
    {
        return std::tie(name, type, rank, otf2Id) == std::tie(o.name, o.type, o.rank, o.otf2Id);
    }
};

/// An MPI process. Rank ids equal MPI_COMM_WORLD ranks.
struct Rank
{
    StringId name;
    LocationId mainLocation;           ///< the thread that makes the MPI calls
    std::vector<LocationId> locations; ///< all its locations, main first
    /// The compute node it ran on, as the measurement recorded it (OTF2: the nearest system
    /// tree node of class "node" above its location group); invalid when not recorded.
    StringId host;

    bool operator==(const Rank& o) const
    {
        return std::tie(name, mainLocation, locations, host) ==
               std::tie(o.name, o.mainLocation, o.locations, o.host);
    }
};

struct Communicator
{
    StringId name;
    std::vector<RankId> members; ///< members[i] = world rank of communicator rank i
    CommId parent;

    bool operator==(const Communicator& o) const
    {
        return std::tie(name, members, parent) == std::tie(o.name, o.members, o.parent);
    }
};

/// Timestamps in a Trace are int64 nanoseconds since `offsetNs` (the start of the trace).
struct ClockProperties
{
    uint64_t sourceTicksPerSecond = 1'000'000'000; ///< resolution of the file it came from
    int64_t offsetNs = 0;                          ///< absolute time of t = 0, in ns
    bool operator==(const ClockProperties& o) const = default;
};

/// MPI collective operation (the OTF2 set).
enum class CollectiveOp : uint8_t
{
    Barrier,
    Bcast,
    Gather,
    Gatherv,
    Scatter,
    Scatterv,
    Allgather,
    Allgatherv,
    Alltoall,
    Alltoallv,
    Alltoallw,
    Allreduce,
    Reduce,
    ReduceScatter,
    Scan,
    Exscan,
    ReduceScatterBlock,
    CreateHandle,
    DestroyHandle,
    Allocate,
    Deallocate,
    CreateHandleAndAllocate,
    DestroyHandleAndDeallocate,
    Other
};

std::string_view collectiveOpName(CollectiveOp op);
std::string_view regionRoleName(RegionRole role);
std::string_view paradigmName(Paradigm p);

/// Where a trace came from: measured (imported), generated, predicted, simulated.
struct Provenance
{
    std::string kind = "measured"; ///< measured | generated | extrapolated | simulated
    std::string source;            ///< file or command it came from
    std::string parameters;        ///< free text: generator options, model, network spec...
    bool operator==(const Provenance& o) const = default;
};

} // namespace rankscope
