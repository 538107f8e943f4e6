#pragma once
// Reads the global definitions of an OTF2 archive and defines the model's regions, ranks,
// locations and communicators in a TraceBuilder, filling the lookup tables the event readers use.
//
// Design note: OTF2 hands definitions over in file order through callbacks, and references may
// point forward (a communicator's parent, a location's group), so the callbacks only collect raw
// records; build() then maps them in dependency order. Ranks follow MPI_COMM_WORLD: the i-th
// member of the MPI COMM_LOCATIONS group is rank i's location (location-group order is the
// fallback). Device and metric locations stay attached to their process's rank. Only MPI
// communicators become model communicators; their COMM_GROUP members are indices into the MPI
// COMM_LOCATIONS group and are translated to world ranks. COMM_SELF-like groups have no members
// in OTF2 and become communicators with an empty member list (each rank alone).
//
// What OTF2 accepts stays accepted: references the model can do without (a name's string, a
// location group's system tree node, a communicator's parent) that lead nowhere, and names that
// are not UTF-8, become warnings() (otf2definitionissues.h). References a trace cannot be built
// without (a location's group, an MPI rank's location) are errors.

#include "importers/otf2/otf2definitionissues.h"
#include "importers/otf2/otf2metricdefinitions.h"
#include "importers/otf2/otf2tables.h"
#include "model/trace/tracebuilder.h"

#include <otf2/OTF2_Reader.h>
#include <string>
#include <unordered_map>
#include <vector>

namespace rankscope {

class Otf2DefinitionReader
{
public:
    /// `reader` must be open; `tables.archiveDir/archiveName` name the files for messages.
    /// With `allowPartial`, damage the definitions survive (records of unknown type from an OTF2
    /// that has none, fewer definitions than the anchor file lists) is a warning, not an error.
    Otf2DefinitionReader(OTF2_Reader* reader, Otf2Tables& tables, bool allowPartial = false);

    /// Reads the global definitions and defines everything in `builder`. Throws TraceError.
    void read(TraceBuilder& builder);
    /// What read() found odd but could import, each naming the global definitions file.
    std::vector<std::string> warnings() const;

private:
    struct RawRegion
    {
        uint32_t ref;
        uint32_t name;
        uint8_t role;
        uint8_t paradigm;
        uint32_t file;
        uint32_t line;
    };
    struct RawLocationGroup
    {
        uint32_t ref;
        uint32_t name;
        uint8_t type;
        uint32_t node;
        uint32_t creator;
    };
    struct RawSystemTreeNode
    {
        uint32_t ref;
        uint32_t name;
        uint32_t className;
        uint32_t parent;
    };
    struct RawLocation
    {
        uint64_t ref;
        uint32_t name;
        uint8_t type;
        uint64_t events;
        uint32_t group;
    };
    struct RawGroup
    {
        uint8_t type;
        uint8_t paradigm;
        std::vector<uint64_t> members;
    };
    struct RawComm
    {
        uint32_t ref;
        uint32_t name;
        uint32_t group;
        uint32_t parent;
    };
    struct RawSourceLocation
    {
        uint32_t ref;
        uint32_t file;
        uint32_t line;
    };

    void readGlobal();
    void build(TraceBuilder& builder);
    void buildStrings(TraceBuilder& builder);
    void buildRegions(TraceBuilder& builder);
    void buildRanksAndLocations(TraceBuilder& builder);
    void buildCommunicators(TraceBuilder& builder);
    void buildSourceLocations();
    void checkSystemTree();
    /// The compute node a process ran on (Rank::host); `index` maps node refs to
    /// systemTreeNodes_.
    StringId hostOf(const RawLocationGroup& group,
                    const std::unordered_map<uint32_t, size_t>& index) const;
    /// The interned string `ref` that `user` ("the name of region 3") refers to; a placeholder,
    /// and a warning, when it is not defined.
    StringId string(uint32_t ref, const std::string& user);
    [[noreturn]] void fail(const std::string& what) const;

    static void setCallbacks(OTF2_GlobalDefReaderCallbacks* cb);

    OTF2_Reader* reader_;
    Otf2Tables& tables_;

    bool haveClock_ = false;
    uint64_t ticksPerSecond_ = 0;
    uint64_t globalOffset_ = 0;
    uint64_t traceLength_ = 0;
    std::vector<std::string> strings_;
    std::vector<uint8_t> stringDefined_; // not vector<bool>: slot() hands out references
    std::vector<RawRegion> regions_;
    std::vector<RawLocationGroup> locationGroups_;
    std::vector<RawSystemTreeNode> systemTreeNodes_;
    std::vector<RawLocation> locations_;
    std::unordered_map<uint32_t, RawGroup> groups_;
    std::vector<RawComm> comms_;
    std::vector<RawSourceLocation> sourceLocations_;
    uint32_t sclAttribute_ = UINT32_MAX;
    std::vector<std::pair<uint32_t, uint32_t>> uint64Attributes_; // (ref, name string ref)
    std::string error_;               // set by a callback that had to stop reading
    uint64_t unknownDefinitions_ = 0; // records of a type this OTF2 does not know
    bool allowPartial_ = false;
    std::string countMismatch_; // with allowPartial_: fewer definitions than listed
    Otf2DefinitionIssues issues_;
    Otf2MetricDefinitions metrics_;
    TraceBuilder* builder_ = nullptr; // while building

    // Filled while building: OTF2 location ref -> world rank (for communicator members).
    std::unordered_map<uint64_t, RankId> rankOfLocation_;
    std::vector<uint64_t> mpiCommLocations_;
    bool haveMpiCommLocations_ = false;
};

} // namespace rankscope
