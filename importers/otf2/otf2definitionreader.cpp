#include "importers/otf2/otf2definitionreader.h"

#include "importers/otf2/otf2filecheck.h"
#include "importers/otf2/otf2readerror.h"
#include "model/trace/traceerror.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <otf2/OTF2_GlobalDefReader.h>
#include <otf2/OTF2_GlobalDefReaderCallbacks.h>

namespace rankscope {

namespace {

// References are indices into our tables; a corrupt file must not make us allocate gigabytes.
constexpr uint64_t kMaxDenseRef = 1u << 26;

RegionRole regionRole(OTF2_RegionRole role, OTF2_Paradigm paradigm)
{
    switch (role) {
    case OTF2_REGION_ROLE_POINT2POINT:
        return RegionRole::MpiPointToPoint;
    case OTF2_REGION_ROLE_COLL_ONE2ALL:
    case OTF2_REGION_ROLE_COLL_ALL2ONE:
    case OTF2_REGION_ROLE_COLL_ALL2ALL:
    case OTF2_REGION_ROLE_COLL_OTHER:
        return RegionRole::MpiCollective;
    case OTF2_REGION_ROLE_BARRIER:
    case OTF2_REGION_ROLE_IMPLICIT_BARRIER:
        return RegionRole::Barrier;
    default:
        break;
    }
    if (paradigm == OTF2_PARADIGM_MPI) return RegionRole::MpiOther;
    if (role == OTF2_REGION_ROLE_ARTIFICIAL) return RegionRole::Other;
    return RegionRole::Function;
}

Paradigm paradigmOf(OTF2_Paradigm p)
{
    switch (p) {
    case OTF2_PARADIGM_UNKNOWN:
        return Paradigm::Unknown;
    case OTF2_PARADIGM_USER:
        return Paradigm::User;
    case OTF2_PARADIGM_COMPILER:
        return Paradigm::Compiler;
    case OTF2_PARADIGM_MPI:
        return Paradigm::Mpi;
    case OTF2_PARADIGM_OPENMP:
        return Paradigm::OpenMp;
    case OTF2_PARADIGM_PTHREAD:
        return Paradigm::Pthread;
    case OTF2_PARADIGM_CUDA:
        return Paradigm::Cuda;
    case OTF2_PARADIGM_OPENACC:
        return Paradigm::OpenAcc;
    case OTF2_PARADIGM_MEASUREMENT_SYSTEM:
        return Paradigm::Measurement;
    default:
        return Paradigm::Other;
    }
}

LocationType locationType(OTF2_LocationType t)
{
    switch (t) {
    case OTF2_LOCATION_TYPE_CPU_THREAD:
        return LocationType::CpuThread;
    case OTF2_LOCATION_TYPE_ACCELERATOR_STREAM:
        return LocationType::Gpu;
    case OTF2_LOCATION_TYPE_METRIC:
        return LocationType::Metric;
    default:
        return LocationType::Other;
    }
}

const char* groupTypeName(uint8_t type)
{
    switch (type) {
    case OTF2_GROUP_TYPE_LOCATIONS:
        return "LOCATIONS";
    case OTF2_GROUP_TYPE_REGIONS:
        return "REGIONS";
    case OTF2_GROUP_TYPE_METRIC:
        return "METRIC";
    case OTF2_GROUP_TYPE_COMM_LOCATIONS:
        return "COMM_LOCATIONS";
    default:
        return "UNKNOWN";
    }
}

template <class T> T& slot(std::vector<T>& v, uint64_t ref, const T& fill = T())
{
    if (ref >= v.size()) v.resize(ref + 1, fill);
    return v[ref];
}

} // namespace

Otf2DefinitionReader::Otf2DefinitionReader(OTF2_Reader* reader, Otf2Tables& tables,
                                           bool allowPartial)
    : reader_(reader), tables_(tables), allowPartial_(allowPartial)
{
}

void Otf2DefinitionReader::fail(const std::string& what) const
{
    throw TraceError(tables_.globalDefFile() + ": " + what);
}

void Otf2DefinitionReader::read(TraceBuilder& builder)
{
    readGlobal();
    build(builder);
}

// Each callback only records; anything implausible stops the reader with a message.
#define RANKSCOPE_SELF static_cast<Otf2DefinitionReader*>(userData)
#define RANKSCOPE_CHECK_REF(ref, what)                                                             \
    if ((ref) >= kMaxDenseRef) {                                                                   \
        RANKSCOPE_SELF->error_ = std::string(what) + " reference " + std::to_string(ref) +         \
                                 " is implausibly large (corrupt definitions?)";                   \
        return OTF2_CALLBACK_INTERRUPT;                                                            \
    }

std::vector<std::string> Otf2DefinitionReader::warnings() const
{
    std::vector<std::string> w = issues_.warnings(tables_.globalDefFile());
    if (unknownDefinitions_ > 0)
        w.push_back(tables_.globalDefFile() + ": " + std::to_string(unknownDefinitions_) +
                    " definition records of a type unknown to this OTF2 (written by OTF2 " +
                    tables_.writerVersion + ") were skipped" +
                    (tables_.knowsEveryRecordType ? ": damaged records" : ""));
    if (!countMismatch_.empty()) w.push_back(tables_.globalDefFile() + ": " + countMismatch_);
    return w;
}

void Otf2DefinitionReader::setCallbacks(OTF2_GlobalDefReaderCallbacks* cb)
{
    // A record type OTF2 does not know comes from a newer OTF2 (skipped with a warning), or, when
    // the archive was written by an OTF2 whose every record type we know, from damage: a changed
    // type byte, after which OTF2 skips what it takes for the record's length.
    OTF2_GlobalDefReaderCallbacks_SetUnknownCallback(cb, [](void* userData) {
        auto* self = RANKSCOPE_SELF;
        if (self->tables_.knowsEveryRecordType && !self->allowPartial_) {
            self->error_ = "a definition record of unknown type, though OTF2 " +
                           self->tables_.writerVersion + " wrote the archive: a damaged record";
            return OTF2_CALLBACK_INTERRUPT;
        }
        ++self->unknownDefinitions_;
        return OTF2_CALLBACK_SUCCESS;
    });
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(
        cb, [](void* userData, uint64_t resolution, uint64_t offset, uint64_t length, uint64_t) {
            auto* self = RANKSCOPE_SELF;
            self->haveClock_ = true;
            self->ticksPerSecond_ = resolution;
            self->globalOffset_ = offset;
            self->traceLength_ = length;
            return OTF2_CALLBACK_SUCCESS;
        });
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(
        cb, [](void* userData, OTF2_StringRef ref, const char* s) {
            RANKSCOPE_CHECK_REF(ref, "string");
            auto* self = RANKSCOPE_SELF;
            slot(self->strings_, ref) = s ? s : "";
            slot(self->stringDefined_, ref) = 1;
            return OTF2_CALLBACK_SUCCESS;
        });
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(
        cb, [](void* userData, OTF2_RegionRef ref, OTF2_StringRef name, OTF2_StringRef,
               OTF2_StringRef, OTF2_RegionRole role, OTF2_Paradigm paradigm, OTF2_RegionFlag,
               OTF2_StringRef file, uint32_t begin, uint32_t) {
            RANKSCOPE_CHECK_REF(ref, "region");
            RANKSCOPE_SELF->regions_.push_back({ref, name, role, paradigm, file, begin});
            return OTF2_CALLBACK_SUCCESS;
        });
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(
        cb, [](void* userData, OTF2_LocationGroupRef ref, OTF2_StringRef name,
               OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef node,
               OTF2_LocationGroupRef creator) {
            RANKSCOPE_SELF->locationGroups_.push_back({ref, name, type, node, creator});
            return OTF2_CALLBACK_SUCCESS;
        });
    OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(
        cb, [](void* userData, OTF2_SystemTreeNodeRef ref, OTF2_StringRef name,
               OTF2_StringRef className, OTF2_SystemTreeNodeRef parent) {
            RANKSCOPE_SELF->systemTreeNodes_.push_back({ref, name, className, parent});
            return OTF2_CALLBACK_SUCCESS;
        });
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(
        cb, [](void* userData, OTF2_LocationRef ref, OTF2_StringRef name, OTF2_LocationType type,
               uint64_t events, OTF2_LocationGroupRef group) {
            RANKSCOPE_SELF->locations_.push_back({ref, name, type, events, group});
            return OTF2_CALLBACK_SUCCESS;
        });
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(
        cb, [](void* userData, OTF2_GroupRef ref, OTF2_StringRef, OTF2_GroupType type,
               OTF2_Paradigm paradigm, OTF2_GroupFlag, uint32_t count, const uint64_t* members) {
            RawGroup g{type, paradigm, {}};
            if (members) g.members.assign(members, members + count);
            RANKSCOPE_SELF->groups_[ref] = std::move(g);
            return OTF2_CALLBACK_SUCCESS;
        });
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, [](void* userData, OTF2_CommRef ref,
                                                         OTF2_StringRef name, OTF2_GroupRef group,
                                                         OTF2_CommRef parent, OTF2_CommFlag) {
        RANKSCOPE_CHECK_REF(ref, "communicator");
        RANKSCOPE_SELF->comms_.push_back({ref, name, group, parent});
        return OTF2_CALLBACK_SUCCESS;
    });
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, [](void* userData, OTF2_AttributeRef ref,
                                                              OTF2_StringRef name, OTF2_StringRef,
                                                              OTF2_Type type) {
        auto* self = RANKSCOPE_SELF;
        if (type == OTF2_TYPE_SOURCE_CODE_LOCATION && self->sclAttribute_ == UINT32_MAX)
            self->sclAttribute_ = ref;
        // Names are looked up once all strings are read (build()).
        if (type == OTF2_TYPE_UINT64) self->uint64Attributes_.emplace_back(ref, name);
        return OTF2_CALLBACK_SUCCESS;
    });
    OTF2_GlobalDefReaderCallbacks_SetSourceCodeLocationCallback(
        cb, [](void* userData, OTF2_SourceCodeLocationRef ref, OTF2_StringRef file, uint32_t line) {
            RANKSCOPE_CHECK_REF(ref, "source code location");
            RANKSCOPE_SELF->sourceLocations_.push_back({ref, file, line});
            return OTF2_CALLBACK_SUCCESS;
        });
    Otf2MetricDefinitions::setCallbacks<Otf2DefinitionReader, &Otf2DefinitionReader::metrics_>(cb);
}
#undef RANKSCOPE_CHECK_REF
#undef RANKSCOPE_SELF

void Otf2DefinitionReader::readGlobal()
{
    // OTF2 says "cannot open" alike for a missing file and one that is not OTF2 at all, and
    // blocks on a FIFO: tell them apart first.
    std::string what;
    switch (otf2read::fileKind(tables_.globalDefFile(), &what)) {
    case otf2read::FileKind::Missing:
        fail("missing global definitions file (every OTF2 archive has one beside its anchor "
             "file)");
    case otf2read::FileKind::Other:
        fail("refused: " + what + ", not a regular file (the global definitions)");
    case otf2read::FileKind::Regular:
        break;
    }
    if (std::FILE* f = std::fopen(tables_.globalDefFile().c_str(), "rb"))
        std::fclose(f);
    else
        fail(std::string("cannot open the global definitions file: ") + std::strerror(errno));
    otf2read::clearCapturedError();
    OTF2_GlobalDefReader* defReader = OTF2_Reader_GetGlobalDefReader(reader_);
    if (!defReader) {
        const std::string otf2 = otf2read::capturedError();
        fail("not an OTF2 global definitions file (" +
             (otf2.empty() ? std::string("OTF2 cannot read its header") : "OTF2: " + otf2) + ")");
    }
    std::unique_ptr<OTF2_GlobalDefReaderCallbacks, void (*)(OTF2_GlobalDefReaderCallbacks*)>
        callbacks(OTF2_GlobalDefReaderCallbacks_New(), OTF2_GlobalDefReaderCallbacks_Delete);
    setCallbacks(callbacks.get());
    OTF2_Reader_RegisterGlobalDefCallbacks(reader_, defReader, callbacks.get(), this);
    uint64_t count = 0;
    otf2read::clearCapturedError();
    const OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalDefinitions(reader_, defReader, &count);
    const std::string otf2Text = rc == OTF2_SUCCESS ? std::string() : otf2read::errorText(rc);
    OTF2_Reader_CloseGlobalDefReader(reader_, defReader);
    if (!error_.empty()) fail(error_ + " (after " + std::to_string(count) + " records)");
    if (rc != OTF2_SUCCESS)
        fail("cannot read the global definitions after " + std::to_string(count) +
             " records: " + otf2Text);
    // The anchor file lists how many global definitions were written; damage that OTF2 reads
    // past (a record whose length now spans the next ones) leaves fewer.
    uint64_t listed = 0;
    if ((unknownDefinitions_ == 0 || tables_.knowsEveryRecordType) &&
        OTF2_Reader_GetNumberOfGlobalDefinitions(reader_, &listed) == OTF2_SUCCESS &&
        count != listed) {
        const std::string mismatch = "holds " + std::to_string(count) +
                                     " global definitions where the anchor file lists " +
                                     std::to_string(listed) + ": the file is damaged";
        if (!allowPartial_) fail(mismatch + " (--allow-partial keeps what can be read)");
        countMismatch_ = mismatch;
    }
}

void Otf2DefinitionReader::build(TraceBuilder& builder)
{
    if (!haveClock_) fail("no clock properties defined");
    if (ticksPerSecond_ == 0) fail("clock resolution is 0 ticks per second");
    tables_.clock = Otf2TickConverter(ticksPerSecond_, globalOffset_);
    if (traceLength_ > 0 && traceLength_ < UINT64_MAX - globalOffset_)
        tables_.traceLengthNs = tables_.clock.toNs(globalOffset_ + traceLength_);
    builder.setClock(ClockProperties{ticksPerSecond_, tables_.clock.offsetNs()});

    builder_ = &builder;
    buildStrings(builder);
    buildRegions(builder);
    buildRanksAndLocations(builder);
    buildCommunicators(builder);
    buildSourceLocations();
    metrics_.build(builder, tables_.strings, tables_.metrics, tables_.globalDefFile());
    checkSystemTree();
    tables_.sourceLocationAttribute = sclAttribute_;
    for (const auto& [ref, name] : uint64Attributes_)
        if (name < strings_.size() && stringDefined_[name] &&
            strings_[name] == "NETWORK_CONTENTION_NS" && tables_.contentionAttribute == UINT32_MAX)
            tables_.contentionAttribute = ref;
    builder_ = nullptr;
}

void Otf2DefinitionReader::buildStrings(TraceBuilder& builder)
{
    // Every string is interned up front: event records (ProgramBegin) refer to strings too, and
    // interning is not allowed once per-location event reading (possibly parallel) has begun.
    tables_.strings.assign(strings_.size(), StringId());
    for (size_t i = 0; i < strings_.size(); ++i)
        if (stringDefined_[i]) tables_.strings[i] = builder.intern(strings_[i]);
}

StringId Otf2DefinitionReader::string(uint32_t ref, const std::string& user)
{
    if (ref == OTF2_UNDEFINED_STRING) return StringId();
    if (ref >= tables_.strings.size() || !tables_.strings[ref].valid()) {
        issues_.undefinedString(ref, user);
        return builder_->intern(Otf2DefinitionIssues::placeholder(ref));
    }
    issues_.checkUtf8(ref, strings_[ref], user);
    return tables_.strings[ref];
}

StringId Otf2DefinitionReader::hostOf(const RawLocationGroup& group,
                                      const std::unordered_map<uint32_t, size_t>& index) const
{
    // Score-P names the compute node with a system tree node of class "node" (machine > node >
    // ...); a tree without one, or with a dangling or cyclic parent chain, records no host.
    uint32_t ref = group.node;
    for (size_t depth = 0; depth < systemTreeNodes_.size(); ++depth) {
        const auto it = index.find(ref);
        if (it == index.end()) return StringId();
        const RawSystemTreeNode& node = systemTreeNodes_[it->second];
        const uint32_t c = node.className;
        if (c < strings_.size() && stringDefined_[c] && strings_[c] == "node") {
            if (node.name >= tables_.strings.size() || !tables_.strings[node.name].valid())
                return StringId();
            return tables_.strings[node.name];
        }
        ref = node.parent;
    }
    return StringId();
}

void Otf2DefinitionReader::buildRegions(TraceBuilder& builder)
{
    for (const RawRegion& r : regions_) {
        Region region;
        const std::string what = "region " + std::to_string(r.ref);
        region.name = string(r.name, "the name of " + what);
        region.role = regionRole(r.role, r.paradigm);
        region.paradigm = paradigmOf(r.paradigm);
        region.file = string(r.file, "the source file of " + what);
        region.line = r.line;
        RegionId& id = slot(tables_.regions, r.ref);
        if (id.valid()) fail(what + " is defined twice");
        id = builder.addRegion(region);
    }
}

void Otf2DefinitionReader::buildRanksAndLocations(TraceBuilder& builder)
{
    std::unordered_map<uint32_t, size_t> groupIndex; // location group ref -> index
    for (size_t i = 0; i < locationGroups_.size(); ++i)
        if (!groupIndex.emplace(locationGroups_[i].ref, i).second)
            fail("location group " + std::to_string(locationGroups_[i].ref) + " is defined twice");
    std::unordered_map<uint64_t, size_t> locationIndex; // location ref -> index
    for (size_t i = 0; i < locations_.size(); ++i) {
        const RawLocation& l = locations_[i];
        if (!locationIndex.emplace(l.ref, i).second)
            fail("location " + std::to_string(l.ref) + " is defined twice");
        if (!groupIndex.count(l.group))
            fail("location " + std::to_string(l.ref) + " belongs to undefined location group " +
                 std::to_string(l.group));
    }

    // The process a location group belongs to: itself, or its creator for accelerator groups.
    auto processOf = [&](size_t g) -> size_t {
        const RawLocationGroup& lg = locationGroups_[g];
        if (lg.type == OTF2_LOCATION_GROUP_TYPE_PROCESS) return g;
        auto it = groupIndex.find(lg.creator);
        if (lg.creator != OTF2_UNDEFINED_LOCATION_GROUP && it != groupIndex.end() &&
            locationGroups_[it->second].type == OTF2_LOCATION_GROUP_TYPE_PROCESS)
            return it->second;
        return SIZE_MAX;
    };

    // World-rank order: the MPI COMM_LOCATIONS group if there is one, then location-group order.
    for (const auto& [ref, g] : groups_) {
        if (g.type == OTF2_GROUP_TYPE_COMM_LOCATIONS && g.paradigm == OTF2_PARADIGM_MPI) {
            mpiCommLocations_ = g.members;
            haveMpiCommLocations_ = true;
        }
    }
    std::vector<size_t> rankGroups;     // location-group index of rank r
    std::vector<uint64_t> mainLocation; // OTF2 location of rank r's MPI thread
    std::vector<size_t> rankOfGroup(locationGroups_.size(), SIZE_MAX);
    for (size_t i = 0; i < mpiCommLocations_.size(); ++i) {
        auto it = locationIndex.find(mpiCommLocations_[i]);
        if (it == locationIndex.end())
            fail("MPI rank " + std::to_string(i) + " is undefined location " +
                 std::to_string(mpiCommLocations_[i]));
        const size_t g = processOf(groupIndex.at(locations_[it->second].group));
        if (g == SIZE_MAX)
            fail("MPI rank " + std::to_string(i) + " (location " +
                 std::to_string(mpiCommLocations_[i]) + ") is not in a process location group");
        if (rankOfGroup[g] != SIZE_MAX)
            fail("MPI ranks " + std::to_string(rankOfGroup[g]) + " and " + std::to_string(i) +
                 " are the same process");
        rankOfGroup[g] = i;
        rankGroups.push_back(g);
        mainLocation.push_back(mpiCommLocations_[i]);
    }
    for (size_t g = 0; g < locationGroups_.size(); ++g) {
        if (locationGroups_[g].type == OTF2_LOCATION_GROUP_TYPE_PROCESS &&
            rankOfGroup[g] == SIZE_MAX) {
            rankOfGroup[g] = rankGroups.size();
            rankGroups.push_back(g);
            mainLocation.push_back(UINT64_MAX);
        }
    }

    // Locations per rank, the MPI thread first so that it becomes the rank's main location.
    std::vector<std::vector<size_t>> rankLocations(rankGroups.size());
    for (size_t r = 0; r < rankGroups.size(); ++r)
        if (mainLocation[r] != UINT64_MAX)
            rankLocations[r].push_back(locationIndex.at(mainLocation[r]));
    for (size_t i = 0; i < locations_.size(); ++i) {
        const RawLocation& l = locations_[i];
        const size_t g = processOf(groupIndex.at(l.group));
        if (g == SIZE_MAX)
            fail("location " + std::to_string(l.ref) + " belongs to location group " +
                 std::to_string(l.group) + ", which is neither a process nor created by one");
        const size_t r = rankOfGroup[g];
        if (mainLocation[r] != l.ref) rankLocations[r].push_back(i);
    }

    std::unordered_map<uint32_t, size_t> treeIndex; // system tree node ref -> index
    for (size_t i = 0; i < systemTreeNodes_.size(); ++i)
        treeIndex.emplace(systemTreeNodes_[i].ref, i);
    for (size_t r = 0; r < rankGroups.size(); ++r) {
        const RawLocationGroup& lg = locationGroups_[rankGroups[r]];
        const RankId rank = builder.addRank(
            string(lg.name, "the name of location group " + std::to_string(lg.ref)));
        if (const StringId host = hostOf(lg, treeIndex); host.valid())
            builder.setRankHost(rank, host);
        for (size_t i : rankLocations[r]) {
            const RawLocation& l = locations_[i];
            const StringId name = string(l.name, "the name of location " + std::to_string(l.ref));
            const LocationId id = builder.addLocation(rank, name, locationType(l.type), l.ref);
            tables_.locations.push_back({l.ref, id, l.events, rank});
            rankOfLocation_[l.ref] = rank;
        }
    }
    // addLocation hands out ids in call order; keep the table in LocationId order.
    std::sort(tables_.locations.begin(), tables_.locations.end(),
              [](const auto& a, const auto& b) { return a.id < b.id; });
}

void Otf2DefinitionReader::buildCommunicators(TraceBuilder& builder)
{
    auto isMpiComm = [&](const RawComm& c) {
        auto it = groups_.find(c.group);
        if (it == groups_.end())
            fail("communicator " + std::to_string(c.ref) + " refers to undefined group " +
                 std::to_string(c.group));
        const RawGroup& g = it->second;
        const bool membersGroup =
            g.type == OTF2_GROUP_TYPE_COMM_GROUP || g.type == OTF2_GROUP_TYPE_COMM_SELF;
        if (!membersGroup) {
            issues_.note("communicator " + std::to_string(c.ref) + " refers to group " +
                         std::to_string(c.group) + ", a " + groupTypeName(g.type) +
                         " group, not one of a communicator's members (COMM_GROUP or "
                         "COMM_SELF); the communicator is left out");
            return false;
        }
        return g.paradigm == OTF2_PARADIGM_MPI;
    };
    // CommIds are handed out in call order, so they are known before adding (parents may
    // refer forward).
    uint32_t next = 0;
    for (const RawComm& c : comms_) {
        CommId& id = slot(tables_.comms, c.ref);
        if (id.valid()) fail("communicator " + std::to_string(c.ref) + " is defined twice");
        if (isMpiComm(c)) id = CommId(next++);
    }

    CommId namedWorld;    // the communicator called MPI_COMM_WORLD
    CommId identityWorld; // else the first parentless one holding every rank in order
    for (const RawComm& c : comms_) {
        const CommId id = tables_.comms[c.ref];
        if (!id.valid()) continue;
        const std::string what = "communicator " + std::to_string(c.ref);
        const RawGroup& g = groups_.at(c.group);
        std::vector<RankId> members;
        if (g.type == OTF2_GROUP_TYPE_COMM_GROUP) {
            if (!haveMpiCommLocations_)
                fail(what + " needs the MPI COMM_LOCATIONS group, which is not defined");
            members.reserve(g.members.size());
            for (uint64_t index : g.members) {
                if (index >= mpiCommLocations_.size())
                    fail(what + " lists member " + std::to_string(index) + " but MPI has only " +
                         std::to_string(mpiCommLocations_.size()) + " ranks");
                members.push_back(rankOfLocation_.at(mpiCommLocations_[index]));
            }
        }
        CommId parent;
        if (c.parent != OTF2_UNDEFINED_COMM) {
            const bool defined = std::any_of(comms_.begin(), comms_.end(),
                                             [&](const RawComm& o) { return o.ref == c.parent; });
            if (!defined)
                issues_.note(what + " has undefined parent communicator " +
                             std::to_string(c.parent) + "; taken as having none");
            else
                parent = tables_.comms[c.parent];
        }
        const StringId name = string(c.name, "the name of " + what);
        const bool identity = [&] {
            if (members.size() != builder.rankCount() || members.empty()) return false;
            for (size_t i = 0; i < members.size(); ++i)
                if (members[i].value != i) return false;
            return true;
        }();
        const bool isNamedWorld = c.name < strings_.size() && stringDefined_[c.name] &&
                                  strings_[c.name] == "MPI_COMM_WORLD";
        tables_.commSizes.push_back(static_cast<uint32_t>(members.size()));
        const CommId added = builder.addCommunicator(name, std::move(members), parent);
        if (added != id)
            fail(what + ": communicator ids out of step"); // the builder broke its contract
        if (isNamedWorld && !namedWorld.valid()) namedWorld = id;
        if (identity && !parent.valid() && !identityWorld.valid()) identityWorld = id;
    }
    const CommId world = namedWorld.valid() ? namedWorld : identityWorld;
    if (world.valid()) builder.setWorldCommunicator(world);
}

void Otf2DefinitionReader::buildSourceLocations()
{
    for (const RawSourceLocation& s : sourceLocations_) {
        const std::string what = "the file of source code location " + std::to_string(s.ref);
        slot(tables_.sourceLocations, s.ref) = SourceLocation{string(s.file, what), s.line};
    }
}

void Otf2DefinitionReader::checkSystemTree()
{
    // The model does not keep the system tree, but a reference into it that leads nowhere is a
    // sign of damage the user should hear about.
    std::unordered_map<uint32_t, size_t> nodes;
    for (size_t i = 0; i < systemTreeNodes_.size(); ++i)
        nodes.emplace(systemTreeNodes_[i].ref, i);
    for (const RawSystemTreeNode& n : systemTreeNodes_)
        if (n.parent != OTF2_UNDEFINED_SYSTEM_TREE_NODE && !nodes.count(n.parent))
            issues_.note("system tree node " + std::to_string(n.ref) +
                         " has undefined parent node " + std::to_string(n.parent));
    for (const RawLocationGroup& lg : locationGroups_)
        if (lg.node != OTF2_UNDEFINED_SYSTEM_TREE_NODE && !nodes.count(lg.node))
            issues_.note("location group " + std::to_string(lg.ref) +
                         " refers to undefined system tree node " + std::to_string(lg.node));
}

} // namespace rankscope
