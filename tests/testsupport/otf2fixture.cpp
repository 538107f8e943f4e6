#include "testsupport/otf2fixture.h"

#include <QDir>
#include <map>

namespace rankscope::test::otf2fixture {

namespace {

OTF2_FlushType preFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool)
{
    return OTF2_FLUSH;
}
OTF2_FlushCallbacks flushCallbacks = {preFlush, nullptr};

} // namespace

void consistentEvents(OTF2_EvtWriter* w, uint64_t location)
{
    OTF2_EvtWriter_Enter(w, nullptr, 100, kRegionMain);
    if (location == 0) {
        OTF2_EvtWriter_Enter(w, nullptr, 200, kRegionSend);
        OTF2_EvtWriter_MpiSend(w, nullptr, 210, 1, kWorldComm, 7, 4);
        OTF2_EvtWriter_Leave(w, nullptr, 220, kRegionSend);
    } else {
        OTF2_EvtWriter_Enter(w, nullptr, 150, kRegionRecv);
        OTF2_EvtWriter_MpiRecv(w, nullptr, 300, 0, kWorldComm, 7, 4);
        OTF2_EvtWriter_Leave(w, nullptr, 310, kRegionRecv);
    }
    OTF2_EvtWriter_Leave(w, nullptr, 400, kRegionMain);
}

QString writeFixture(const QString& dir, const Fixture& f)
{
    OTF2_Archive* a =
        OTF2_Archive_Open(dir.toUtf8().constData(), "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
                          4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!a) return {};
    OTF2_Archive_SetFlushCallbacks(a, &flushCallbacks, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(a);

    OTF2_Archive_OpenEvtFiles(a);
    uint64_t eventCounts[2] = {0, 0};
    for (uint64_t loc : {0, 1}) {
        OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(a, loc);
        (f.events ? f.events : consistentEvents)(w, loc);
        OTF2_EvtWriter_GetNumberOfEvents(w, &eventCounts[loc]);
        OTF2_Archive_CloseEvtWriter(a, w);
    }
    std::map<uint64_t, uint64_t> otherCounts; // location -> events
    if (f.extraLocations) {
        for (const OtherLocation& o : kOtherLocations) {
            for (uint64_t rank : {0, 1}) {
                OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(a, o.base + rank);
                if (o.type != OTF2_LOCATION_TYPE_METRIC) {
                    OTF2_EvtWriter_Enter(w, nullptr, 120, kRegionMain);
                    OTF2_EvtWriter_Leave(w, nullptr, 380, kRegionMain);
                }
                OTF2_EvtWriter_GetNumberOfEvents(w, &otherCounts[o.base + rank]);
                OTF2_Archive_CloseEvtWriter(a, w);
            }
        }
    }
    OTF2_Archive_CloseEvtFiles(a);

    // Score-P writes a local definition file per location (empty here: no mappings).
    OTF2_Archive_OpenDefFiles(a);
    for (uint64_t loc : {0, 1})
        OTF2_Archive_CloseDefWriter(a, OTF2_Archive_GetDefWriter(a, loc));
    for (const auto& [loc, count] : otherCounts)
        OTF2_Archive_CloseDefWriter(a, OTF2_Archive_GetDefWriter(a, loc));
    OTF2_Archive_CloseDefFiles(a);

    OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(a);
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, 1000, OTF2_UNDEFINED_TIMESTAMP);
    const char* strings[kStringCount] = {"",
                                         "main",
                                         "MPI_Send",
                                         "MPI_Recv",
                                         "MPI_Barrier",
                                         "MPI_Bcast",
                                         "MPI_COMM_WORLD",
                                         "MPI Rank 0",
                                         "MPI Rank 1",
                                         "Master thread",
                                         "machine",
                                         "node",
                                         "jacobi.c",
                                         "SOURCE_CODE_LOCATION",
                                         "OMP thread 1",
                                         "CUDA[0:13]",
                                         "Per process metrics"};
    for (uint32_t s = 0; s < kStringCount; ++s) {
        const auto replaced = f.stringText.find(s);
        OTF2_GlobalDefWriter_WriteString(
            g, s, replaced != f.stringText.end() ? replaced->second.c_str() : strings[s]);
    }
    auto region = [&](OTF2_RegionRef ref, OTF2_StringRef name, OTF2_RegionRole role,
                      OTF2_Paradigm paradigm) {
        if (const auto it = f.regionName.find(ref); it != f.regionName.end()) name = it->second;
        OTF2_GlobalDefWriter_WriteRegion(g, ref, name, name, kEmpty, role, paradigm,
                                         OTF2_REGION_FLAG_NONE, kEmpty, 0, 0);
    };
    region(kRegionMain, kMain, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER);
    region(kRegionSend, kSend, OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI);
    region(kRegionRecv, kRecv, OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI);
    region(kRegionBarrier, kBarrier, OTF2_REGION_ROLE_BARRIER, OTF2_PARADIGM_MPI);
    region(kRegionBcast, kBcast, OTF2_REGION_ROLE_COLL_ONE2ALL, OTF2_PARADIGM_MPI);
    for (int i = 0; i < f.regionsWithUndefinedNames; ++i)
        region(kRegionBcast + 1 + i, 100 + i, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER);
    if (f.sourceLocations) {
        OTF2_GlobalDefWriter_WriteSourceCodeLocation(g, kJacobiLine334, kJacobi, 334);
        OTF2_GlobalDefWriter_WriteAttribute(g, kSclAttribute, kSclName, kEmpty,
                                            OTF2_TYPE_SOURCE_CODE_LOCATION);
    }
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, kNode, kMachine, f.nodeParent);
    OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, kRank0, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocationGroup(g, 1, kRank1, OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                            f.nodeOfGroup1, OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocation(g, 0, f.locationName, OTF2_LOCATION_TYPE_CPU_THREAD,
                                       eventCounts[0], 0);
    OTF2_GlobalDefWriter_WriteLocation(g, 1, f.locationName, OTF2_LOCATION_TYPE_CPU_THREAD,
                                       eventCounts[1], f.groupOfLocation1);
    if (f.extraLocations)
        for (const OtherLocation& o : kOtherLocations)
            for (uint64_t rank : {0, 1})
                OTF2_GlobalDefWriter_WriteLocation(g, o.base + rank, o.name, o.type,
                                                   otherCounts[o.base + rank], rank);
    const uint64_t locations[2] = {0, 1};
    const uint64_t ranks[2] = {0, 1};
    OTF2_GlobalDefWriter_WriteGroup(g, kLocationsGroup, kEmpty, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 2, locations);
    OTF2_GlobalDefWriter_WriteGroup(g, kWorldGroup, kEmpty, OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 2, ranks);
    OTF2_GlobalDefWriter_WriteComm(g, kWorldComm, kWorld, kWorldGroup, f.worldParent,
                                   OTF2_COMM_FLAG_NONE);
    if (f.secondCommGroup)
        OTF2_GlobalDefWriter_WriteComm(g, kWorldComm + 1, kWorld, *f.secondCommGroup,
                                       OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    OTF2_Archive_CloseGlobalDefWriter(a, g);
    if (OTF2_Archive_Close(a) != OTF2_SUCCESS) return {};
    return QDir(dir).filePath(QStringLiteral("traces.otf2"));
}

} // namespace rankscope::test::otf2fixture
