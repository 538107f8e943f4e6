// Tests of the OTF2 reader's definitions against the real Score-P traces: ranks and their
// locations, host names, communicators, region roles. Expected values come from the
// definitions `otf2-print -G` lists (OTF2 3.0.2), as said next to each.

// moc (Qt 6.4) cannot parse GCC 12's <concepts>, which <compare> in the model headers pulls
// in; the test class itself needs none of them.
#ifndef Q_MOC_RUN
#include "importers/otf2/otf2reader.h"
#endif
#include "testsupport/testpaths.h"

#include <QTest>
#include <map>

using namespace rankscope;

namespace {

Trace read(const QString& path)
{
    return readOtf2(path.toStdString());
}

} // namespace

class TestOtf2ReaderDefinitions : public QObject
{
    Q_OBJECT

private slots:
    void hostsFromSystemTree();
    void cloverleafRankMapping();
    void jacobiOpenMpThreadsStayOnTheirRank();
    void communicatorMembers();
    void regionRoles();
    void folderPathFindsAnchor();
};

void TestOtf2ReaderDefinitions::cloverleafRankMapping()
{
    const QString anchor =
        test::sharedTraceAnchor(QStringLiteral("casita-cloverleaf-mpi-openacc-2r"));
    if (anchor.isEmpty()) QSKIP("shared trace not available");
    const Trace t = read(anchor);
    QCOMPARE(t.rankCount(), size_t(2));
    QCOMPARE(t.locations().size(), size_t(6));
    // otf2-print -G: rank r has "Master thread" r, "Per process metrics" 2^32 + r (METRIC) and
    // "CUDA[0:13]" 2^33 + r (ACCELERATOR_STREAM).
    for (uint32_t r = 0; r < 2; ++r) {
        const Rank& rank = t.rank(RankId(r));
        QCOMPARE(t.str(rank.name), std::string_view(r == 0 ? "MPI Rank 0" : "MPI Rank 1"));
        QCOMPARE(rank.locations.size(), size_t(3));
        QCOMPARE(rank.locations.front(), rank.mainLocation);
        QCOMPARE(t.location(rank.mainLocation).otf2Id, quint64(r));
        QCOMPARE(t.location(rank.mainLocation).type, LocationType::CpuThread);
        std::map<quint64, LocationType> others;
        for (LocationId id : rank.locations) {
            QCOMPARE(t.rankOf(id), RankId(r));
            others[t.location(id).otf2Id] = t.location(id).type;
        }
        QCOMPARE(others[(quint64(1) << 32) + r], LocationType::Metric);
        QCOMPARE(others[(quint64(1) << 33) + r], LocationType::Gpu);
        QCOMPARE(t.rankEvents(RankId(r)).size(), size_t(r == 0 ? 57980 : 58072));
    }
    // Only the MPI communicators: MPI_COMM_WORLD {0, 1} and MPI_COMM_SELF (no members); the
    // CUDA communicators of the trace are not MPI communicators.
    QCOMPARE(t.communicators().size(), size_t(2));
    QCOMPARE(t.communicator(t.worldCommunicator()).members,
             (std::vector<RankId>{RankId(0), RankId(1)}));
}

void TestOtf2ReaderDefinitions::jacobiOpenMpThreadsStayOnTheirRank()
{
    const QString anchor = test::sharedTraceAnchor(QStringLiteral("casita-jacobi-mpi-cuda-2r"));
    if (anchor.isEmpty()) QSKIP("shared trace not available");
    const Trace t = read(anchor);
    QCOMPARE(t.rankCount(), size_t(2));
    // 4 CPU threads (master + 3 OpenMP) and one CUDA stream per rank; the master is the MPI one.
    for (uint32_t r = 0; r < 2; ++r) {
        const Rank& rank = t.rank(RankId(r));
        QCOMPARE(rank.locations.size(), size_t(5));
        QCOMPARE(t.location(rank.mainLocation).otf2Id, quint64(r));
        QCOMPARE(t.str(t.location(rank.mainLocation).name), std::string_view("Master thread"));
    }
}

void TestOtf2ReaderDefinitions::communicatorMembers()
{
    const QString anchor = test::sharedTraceAnchor(QStringLiteral("scorep84-npb-mg-W-4"));
    if (anchor.isEmpty()) QSKIP("shared trace not available");
    const Trace t = read(anchor);
    // otf2-print -G: COMM 0 "Process x Threads" (measurement system, not MPI), COMM 1
    // MPI_COMM_WORLD (group 0..3), COMM 2 "" (same group, parent MPI_COMM_WORLD),
    // COMM 3 MPI_COMM_SELF (COMM_SELF group, 0 members).
    QCOMPARE(t.communicators().size(), size_t(3));
    const std::vector<RankId> all{RankId(0), RankId(1), RankId(2), RankId(3)};
    const Communicator& world = t.communicator(t.worldCommunicator());
    QCOMPARE(t.str(world.name), std::string_view("MPI_COMM_WORLD"));
    QCOMPARE(world.members, all);
    QVERIFY(!world.parent.valid());
    const Communicator& dup = t.communicator(CommId(1));
    QCOMPARE(dup.members, all);
    QCOMPARE(dup.parent, t.worldCommunicator());
    const Communicator& self = t.communicator(CommId(2));
    QCOMPARE(t.str(self.name), std::string_view("MPI_COMM_SELF"));
    QVERIFY(self.members.empty());
    // COMM_CREATE events name model communicators.
    for (const MiscEvent& m : t.miscEvents())
        if (m.kind == MiscKind::CommCreate || m.kind == MiscKind::CommDestroy)
            QVERIFY(m.detail < t.communicators().size());
}

void TestOtf2ReaderDefinitions::regionRoles()
{
    const QString anchor =
        test::sharedTraceAnchor(QStringLiteral("casita-cloverleaf-mpi-openacc-2r"));
    if (anchor.isEmpty()) QSKIP("shared trace not available");
    const Trace t = read(anchor);
    std::map<std::string_view, const Region*> byName;
    for (const Region& r : t.regions())
        byName[t.str(r.name)] = &r;
    // Roles from otf2-print -G: MPI_Isend POINT2POINT, MPI_Allreduce COLL_ALL2ALL, MPI_Barrier
    // BARRIER, MPI_Comm_rank FUNCTION (MPI), "BUFFER FLUSH" ARTIFICIAL (CUDA),
    // clover_leaf FUNCTION in clover_leaf.f90.
    QCOMPARE(byName.at("MPI_Isend")->role, RegionRole::MpiPointToPoint);
    QCOMPARE(byName.at("MPI_Allreduce")->role, RegionRole::MpiCollective);
    QCOMPARE(byName.at("MPI_Barrier")->role, RegionRole::Barrier);
    QCOMPARE(byName.at("MPI_Comm_rank")->role, RegionRole::MpiOther);
    QCOMPARE(byName.at("MPI_Comm_rank")->paradigm, Paradigm::Mpi);
    QCOMPARE(byName.at("BUFFER FLUSH")->role, RegionRole::Other);
    QCOMPARE(byName.at("BUFFER FLUSH")->paradigm, Paradigm::Cuda);
    const Region* clover = byName.at("clover_leaf");
    QCOMPARE(clover->role, RegionRole::Function);
    QVERIFY(t.str(clover->file).ends_with("clover_leaf.f90"));
}

void TestOtf2ReaderDefinitions::folderPathFindsAnchor()
{
    const QString dir = test::sharedTrace(QStringLiteral("casita-mpi-tags-10r"));
    if (dir.isEmpty()) QSKIP("shared trace not available");
    const Trace t = read(dir);
    QCOMPARE(t.eventCount(), quint64(428));
}

void TestOtf2ReaderDefinitions::hostsFromSystemTree()
{
    // otf2-print -G: the location group of every even rank has Parent "node::quartz1", of every
    // odd rank "node::quartz2" (system tree nodes of class "node" below the machine "Linux").
    const QString stencil = test::sharedTraceAnchor(QStringLiteral("tracer-stencil4d-32r"));
    if (stencil.isEmpty()) QSKIP("shared trace not available");
    const Trace t = read(stencil);
    QCOMPARE(t.rankCount(), size_t(32));
    for (uint32_t r = 0; r < 32; ++r) {
        const StringId host = t.rank(RankId(r)).host;
        QVERIFY(host.valid());
        QCOMPARE(std::string(t.str(host)), std::string(r % 2 ? "quartz2" : "quartz1"));
    }
    // Both ranks of the ping-pong ran on "node::quartz10".
    const QString pingPong = test::sharedTraceAnchor(QStringLiteral("pipit-ping-pong-2r"));
    if (pingPong.isEmpty()) QSKIP("shared trace not available");
    const Trace p = read(pingPong);
    for (uint32_t r = 0; r < 2; ++r)
        QCOMPARE(std::string(p.str(p.rank(RankId(r)).host)), std::string("quartz10"));
}

QTEST_GUILESS_MAIN(TestOtf2ReaderDefinitions)
#include "tst_otf2readerdefinitions.moc"
