#pragma once
// A tiny OTF2 archive written with the OTF2 writer API, for tests of the reader against input
// OTF2 accepts: each test changes one thing in an otherwise consistent fixture.
//
// The fixture: two ranks ("MPI Rank 0/1", location groups 0 and 1, PROCESS, both on system
// tree node 0 "node"), one CPU thread each (locations 0 and 1, "Master thread"),
// MPI_COMM_WORLD = communicator 0 over both ranks, a 1 GHz clock with offset 0 (so ticks are
// ns). Each location runs main > one MPI call; rank 0 sends one message (tag 7) to rank 1.
// With `extraLocations`, each rank also has the locations Score-P adds for threads, devices and
// metrics (see kOtherLocations).

#include <QString>
#include <functional>
#include <map>
#include <optional>
#include <otf2/otf2.h>
#include <string>

namespace rankscope::test::otf2fixture {

// OTF2 definition references of the fixture.
enum StringRef : OTF2_StringRef
{
    kEmpty,
    kMain,
    kSend,
    kRecv,
    kBarrier,
    kBcast,
    kWorld,
    kRank0,
    kRank1,
    kThread,
    kMachine,
    kNode,
    kJacobi,
    kSclName,
    kOmpThread,
    kCudaStream,
    kMetrics,
    kStringCount
};
enum RegionRef : OTF2_RegionRef
{
    kRegionMain,
    kRegionSend,
    kRegionRecv,
    kRegionBarrier,
    kRegionBcast
};
constexpr OTF2_CommRef kWorldComm = 0;
constexpr OTF2_GroupRef kLocationsGroup = 0;
constexpr OTF2_GroupRef kWorldGroup = 1;
constexpr OTF2_AttributeRef kSclAttribute = 0;
constexpr OTF2_SourceCodeLocationRef kJacobiLine334 = 0;

/// What `extraLocations` adds to rank r (location group r), as location ids beside r:
/// 2^32 + r "OMP thread 1" (CPU_THREAD, enters and leaves main at 120 and 380),
/// 2^33 + r "CUDA[0:13]" (ACCELERATOR_STREAM, the same) and 3 * 2^32 + r "Per process metrics"
/// (METRIC, no events).
struct OtherLocation
{
    uint64_t base;
    OTF2_StringRef name;
    OTF2_LocationType type;
};
constexpr OtherLocation kOtherLocations[] = {
    {uint64_t(1) << 32, kOmpThread, OTF2_LOCATION_TYPE_CPU_THREAD},
    {uint64_t(2) << 32, kCudaStream, OTF2_LOCATION_TYPE_ACCELERATOR_STREAM},
    {uint64_t(3) << 32, kMetrics, OTF2_LOCATION_TYPE_METRIC}};

/// What a test changes in the otherwise consistent fixture.
struct Fixture
{
    /// Writes the events of one location (0 or 1); the default is the consistent program.
    std::function<void(OTF2_EvtWriter*, uint64_t location)> events;
    /// Location group of location 1 (1 is correct).
    OTF2_LocationGroupRef groupOfLocation1 = 1;
    /// Define the SOURCE_CODE_LOCATION attribute and jacobi.c:334.
    bool sourceLocations = false;
    /// Give each rank the kOtherLocations too.
    bool extraLocations = false;

    // Definitions OTF2 accepts that refer nowhere or hold odd names (the defaults are sound).
    std::map<OTF2_StringRef, std::string> stringText;    ///< replaced string texts
    std::map<OTF2_RegionRef, OTF2_StringRef> regionName; ///< replaced region name strings
    OTF2_StringRef locationName = kThread;               ///< the name of both locations
    OTF2_SystemTreeNodeRef nodeOfGroup1 = 0;             ///< system tree node of group 1
    OTF2_SystemTreeNodeRef nodeParent = OTF2_UNDEFINED_SYSTEM_TREE_NODE; ///< node 0's parent
    OTF2_CommRef worldParent = OTF2_UNDEFINED_COMM; ///< MPI_COMM_WORLD's parent
    /// When set, communicator 1 ("MPI_COMM_WORLD" too, unused by events) over this group.
    std::optional<OTF2_GroupRef> secondCommGroup;
    /// Adds regions 5, 6, ... named by the undefined strings 100, 101, ...
    int regionsWithUndefinedNames = 0;
};

/// The consistent program: rank 0 sends 4 bytes with tag 7 to rank 1 inside main.
void consistentEvents(OTF2_EvtWriter* w, uint64_t location);
/// Writes the fixture as <dir>/traces.otf2 and returns the anchor file's path (empty on
/// failure).
QString writeFixture(const QString& dir, const Fixture& f);

} // namespace rankscope::test::otf2fixture
