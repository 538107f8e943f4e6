#include "importers/otf2/otf2definitionwriter.h"

#include "importers/otf2/otf2metricdefinitions.h"
#include "importers/otf2/otf2writeerror.h"

#include <algorithm>
#include <otf2/OTF2_Definitions.h>
#include <otf2/OTF2_GeneralDefinitions.h>
#include <unordered_map>

namespace rankscope {

namespace {

OTF2_Paradigm otf2Paradigm(Paradigm p)
{
    switch (p) {
    case Paradigm::Unknown:
        return OTF2_PARADIGM_UNKNOWN;
    case Paradigm::User:
        return OTF2_PARADIGM_USER;
    case Paradigm::Compiler:
        return OTF2_PARADIGM_COMPILER;
    case Paradigm::Mpi:
        return OTF2_PARADIGM_MPI;
    case Paradigm::OpenMp:
        return OTF2_PARADIGM_OPENMP;
    case Paradigm::Pthread:
        return OTF2_PARADIGM_PTHREAD;
    case Paradigm::Cuda:
        return OTF2_PARADIGM_CUDA;
    case Paradigm::OpenAcc:
        return OTF2_PARADIGM_OPENACC;
    case Paradigm::Measurement:
        return OTF2_PARADIGM_MEASUREMENT_SYSTEM;
    case Paradigm::Other:
        return OTF2_PARADIGM_NONE;
    }
    return OTF2_PARADIGM_UNKNOWN;
}

/// Score-P's collective roles, from the MPI function name (the model keeps one role for all).
OTF2_RegionRole collectiveRole(std::string_view name)
{
    auto has = [&](std::string_view s) { return name.find(s) != std::string_view::npos; };
    if (has("Reduce_scatter") || has("scan") || has("Scan") || has("All") || has("all"))
        return OTF2_REGION_ROLE_COLL_ALL2ALL;
    if (has("Bcast") || has("Scatter")) return OTF2_REGION_ROLE_COLL_ONE2ALL;
    if (has("Reduce") || has("Gather")) return OTF2_REGION_ROLE_COLL_ALL2ONE;
    return OTF2_REGION_ROLE_COLL_OTHER;
}

OTF2_RegionRole otf2Role(RegionRole role, std::string_view name)
{
    switch (role) {
    case RegionRole::Function:
        return OTF2_REGION_ROLE_FUNCTION;
    case RegionRole::MpiPointToPoint:
        return OTF2_REGION_ROLE_POINT2POINT;
    case RegionRole::MpiCollective:
        return collectiveRole(name);
    case RegionRole::Barrier:
        return OTF2_REGION_ROLE_BARRIER;
    case RegionRole::MpiOther:
        return OTF2_REGION_ROLE_FUNCTION; // as Score-P writes MPI_Init
    case RegionRole::Other:
        return OTF2_REGION_ROLE_ARTIFICIAL;
    }
    return OTF2_REGION_ROLE_UNKNOWN;
}

OTF2_LocationType otf2LocationType(LocationType t)
{
    switch (t) {
    case LocationType::CpuThread:
        return OTF2_LOCATION_TYPE_CPU_THREAD;
    case LocationType::Gpu:
        return OTF2_LOCATION_TYPE_ACCELERATOR_STREAM;
    case LocationType::Metric:
        return OTF2_LOCATION_TYPE_METRIC;
    case LocationType::Other:
        return OTF2_LOCATION_TYPE_UNKNOWN;
    }
    return OTF2_LOCATION_TYPE_UNKNOWN;
}

uint32_t ref(StringId id)
{
    return id.valid() ? id.value : OTF2_UNDEFINED_STRING;
}

} // namespace

Otf2DefinitionWriter::Otf2DefinitionWriter(const Trace& trace,
                                           const std::vector<uint64_t>& locationIds,
                                           const Otf2EventWriter& events, std::string path)
    : trace_(trace), locationIds_(locationIds), events_(events), path_(std::move(path))
{
}

void Otf2DefinitionWriter::check(OTF2_ErrorCode code, std::string_view what) const
{
    checkOtf2Write(code, path_, what);
}

uint32_t Otf2DefinitionWriter::stringRef(std::string_view s)
{
    if (const StringId id = trace_.strings().find(s); id.valid()) return id.value;
    const std::string key(s);
    if (auto it = extraRefs_.find(key); it != extraRefs_.end()) return it->second;
    const auto id = static_cast<uint32_t>(trace_.strings().size() + extraStrings_.size());
    extraStrings_.push_back(key);
    extraRefs_.emplace(key, id);
    return id;
}

void Otf2DefinitionWriter::write(OTF2_GlobalDefWriter* w)
{
    // Every string must be defined before the definitions that use it (readers resolve names as
    // they go), so all appended strings are collected first.
    std::vector<uint32_t> rankNames;
    for (size_t r = 0; r < trace_.rankCount(); ++r) {
        const StringId name = trace_.rank(RankId(uint32_t(r))).name;
        rankNames.push_back(name.valid() && !trace_.str(name).empty()
                                ? name.value
                                : stringRef("MPI Rank " + std::to_string(r)));
    }
    const CommId world = trace_.worldCommunicator();
    if (world.valid() && trace_.str(trace_.communicator(world).name).empty())
        stringRef("MPI_COMM_WORLD"); // the name writeCommunicators gives an unnamed world
    const uint32_t mpi = stringRef("MPI");
    const uint32_t machine = stringRef("machine");
    const uint32_t host = stringRef("rankscope");
    const uint32_t nodeClass = stringRef("node");
    const bool sources = !events_.sourceLocations().empty();
    const uint32_t sclName = sources ? stringRef("SOURCE_CODE_LOCATION") : 0;
    const uint32_t sclDescription = sources ? stringRef("Source code location") : 0;
    const bool contention = !trace_.messageContentionNs().empty();
    const uint32_t contentionName = contention ? stringRef("NETWORK_CONTENTION_NS") : 0;
    const uint32_t contentionDescription =
        contention ? stringRef("Time the message waited for other messages on the simulated "
                               "network (ns)")
                   : 0;
    const uint32_t noText = stringRef(""); // metrics without description or unit

    const int64_t begin = std::min<int64_t>(0, trace_.beginTime());
    const int64_t end = std::max<int64_t>(0, trace_.endTime());
    check(OTF2_GlobalDefWriter_WriteClockProperties(
              w, 1'000'000'000, static_cast<uint64_t>(trace_.clock().offsetNs + begin),
              static_cast<uint64_t>(end - begin), OTF2_UNDEFINED_TIMESTAMP),
          "clock properties");
    writeStrings(w);
    check(
        OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, mpi, OTF2_PARADIGM_CLASS_PROCESS),
        "paradigm");
    if (sources) {
        check(OTF2_GlobalDefWriter_WriteAttribute(w, Otf2EventWriter::kSourceLocationAttribute,
                                                  sclName, sclDescription,
                                                  OTF2_TYPE_SOURCE_CODE_LOCATION),
              "attribute");
        const auto& scl = events_.sourceLocations();
        for (uint32_t i = 0; i < scl.size(); ++i)
            check(OTF2_GlobalDefWriter_WriteSourceCodeLocation(w, i, ref(scl[i].file), scl[i].line),
                  "source code location");
    }
    if (!trace_.messageContentionNs().empty())
        check(OTF2_GlobalDefWriter_WriteAttribute(w, events_.contentionAttribute(), contentionName,
                                                  contentionDescription, OTF2_TYPE_UINT64),
              "attribute");
    writeRegions(w);
    // Metric definitions only (the samples are not written yet): a trace read back keeps them.
    for (uint32_t m = 0; m < trace_.metrics().size(); ++m) {
        const Metric& metric = trace_.metric(MetricId(m));
        const auto text = [&](StringId id) { return id.valid() ? id.value : noText; };
        check(OTF2_GlobalDefWriter_WriteMetricMember(
                  w, m, metric.name.value, text(metric.description), OTF2_METRIC_TYPE_OTHER,
                  Otf2MetricDefinitions::otf2Mode(metric.mode),
                  Otf2MetricDefinitions::otf2Type(metric.type), OTF2_BASE_DECIMAL, 0,
                  text(metric.unit)),
              "metric member");
    }

    check(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, host, machine,
                                                   OTF2_UNDEFINED_SYSTEM_TREE_NODE),
          "system tree node");
    // The compute nodes the ranks ran on, where the trace recorded them, as Score-P writes
    // them: nodes of class "node" below the machine.
    std::vector<uint32_t> parentOfRank(trace_.rankCount(), 0);
    std::unordered_map<uint32_t, uint32_t> nodeOfHost; // host string -> system tree node
    for (uint32_t r = 0; r < trace_.rankCount(); ++r) {
        const StringId h = trace_.rank(RankId(r)).host;
        if (!h.valid()) continue;
        auto [it, added] = nodeOfHost.emplace(h.value, uint32_t(nodeOfHost.size() + 1));
        if (added)
            check(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, it->second, h.value, nodeClass, 0),
                  "system tree node");
        parentOfRank[r] = it->second;
    }
    for (uint32_t r = 0; r < trace_.rankCount(); ++r)
        check(OTF2_GlobalDefWriter_WriteLocationGroup(
                  w, r, rankNames[r], OTF2_LOCATION_GROUP_TYPE_PROCESS, parentOfRank[r],
                  OTF2_UNDEFINED_LOCATION_GROUP),
              "location group");
    for (uint32_t l = 0; l < trace_.locations().size(); ++l) {
        const Location& loc = trace_.location(LocationId(l));
        check(OTF2_GlobalDefWriter_WriteLocation(w, locationIds_[l], ref(loc.name),
                                                 otf2LocationType(loc.type),
                                                 events_.eventCount(LocationId(l)), loc.rank.value),
              "location");
    }
    writeCommunicators(w);
}

void Otf2DefinitionWriter::writeStrings(OTF2_GlobalDefWriter* w)
{
    const StringPool& pool = trace_.strings();
    for (uint32_t i = 0; i < pool.size(); ++i)
        check(OTF2_GlobalDefWriter_WriteString(w, i, std::string(pool.str(StringId(i))).c_str()),
              "string");
    for (size_t i = 0; i < extraStrings_.size(); ++i)
        check(OTF2_GlobalDefWriter_WriteString(w, static_cast<uint32_t>(pool.size() + i),
                                               extraStrings_[i].c_str()),
              "string");
}

void Otf2DefinitionWriter::writeRegions(OTF2_GlobalDefWriter* w)
{
    for (uint32_t i = 0; i < trace_.regions().size(); ++i) {
        const Region& r = trace_.region(RegionId(i));
        check(OTF2_GlobalDefWriter_WriteRegion(w, i, ref(r.name), ref(r.name), stringRef(""),
                                               otf2Role(r.role, trace_.str(r.name)),
                                               otf2Paradigm(r.paradigm), OTF2_REGION_FLAG_NONE,
                                               ref(r.file), r.line, r.line),
              "region");
    }
}

void Otf2DefinitionWriter::writeCommunicators(OTF2_GlobalDefWriter* w)
{
    // Group 0: the MPI rank -> location mapping that COMM_GROUP members index into.
    std::vector<uint64_t> members;
    for (uint32_t r = 0; r < trace_.rankCount(); ++r) {
        const Rank& rank = trace_.rank(RankId(r));
        const LocationId main = rank.mainLocation.valid() ? rank.mainLocation
                                : rank.locations.empty()  ? LocationId()
                                                          : rank.locations.front();
        if (!main.valid())
            throw TraceError(path_ + ": cannot write rank " + std::to_string(r) +
                             ": it has no location (OTF2 needs one per MPI rank)");
        members.push_back(locationIds_[main.value]);
    }
    const uint32_t empty = stringRef("");
    check(OTF2_GlobalDefWriter_WriteGroup(w, 0, empty, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                          static_cast<uint32_t>(members.size()), members.data()),
          "MPI locations group");

    const auto& comms = trace_.communicators();
    for (uint32_t c = 0; c < comms.size(); ++c) {
        members.assign(comms[c].members.size(), 0);
        for (size_t i = 0; i < members.size(); ++i)
            members[i] = comms[c].members[i].value;
        const OTF2_GroupType type =
            members.empty() ? OTF2_GROUP_TYPE_COMM_SELF : OTF2_GROUP_TYPE_COMM_GROUP;
        check(OTF2_GlobalDefWriter_WriteGroup(
                  w, 1 + c, empty, type, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                  static_cast<uint32_t>(members.size()), members.data()),
              "communicator group");
    }
    for (uint32_t c = 0; c < comms.size(); ++c) {
        const CommId id(c);
        const StringId name = comms[c].name;
        const bool world = trace_.worldCommunicator() == id;
        const uint32_t nameRef = world && (!name.valid() || trace_.str(name).empty())
                                     ? stringRef("MPI_COMM_WORLD")
                                     : ref(name);
        const OTF2_CommRef parent =
            comms[c].parent.valid() ? comms[c].parent.value : OTF2_UNDEFINED_COMM;
        check(OTF2_GlobalDefWriter_WriteComm(w, c, nameRef, 1 + c, parent,
                                             events_.commHasCreateDestroy(id)
                                                 ? OTF2_COMM_FLAG_CREATE_DESTROY_EVENTS
                                                 : OTF2_COMM_FLAG_NONE),
              "communicator");
    }
}

} // namespace rankscope
