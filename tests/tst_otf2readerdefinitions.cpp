// Tests of the OTF2 reader's definitions against the real Score-P traces: ranks and their
// locations, host names, communicators, region roles. Expected values come from the
// definitions `otf2-print -G` lists (OTF2 3.0.2), as said next to each. Each test on a shared
// trace has a sibling on a trace checked in under resources/demo/traces or on the OTF2 fixture
// (testsupport/otf2fixture.h), which run without ../shared.

// moc (Qt 6.4) cannot parse GCC 12's <concepts>, which <compare> in the model headers pulls
// in; the test class itself needs none of them.
#ifndef Q_MOC_RUN
#include "importers/otf2/otf2reader.h"
#endif
#include "testsupport/otf2fixture.h"
#include "testsupport/testpaths.h"

#include <QFileInfo>
#include <QTemporaryDir>
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
    void hostsFromSystemTreeCheckedIn();
    void cloverleafRankMapping();
    void jacobiOpenMpThreadsStayOnTheirRank();
    void threadsDevicesAndMetricsStayOnTheirRank();
    void communicatorMembers();
    void communicatorMembersCheckedIn();
    void regionRoles();
    void regionRolesCheckedIn();
    void folderPathFindsAnchor_data();
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

void TestOtf2ReaderDefinitions::folderPathFindsAnchor_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<quint64>("events"); // otf2-print: lines of the event listing
    QTest::newRow("casita-mpi-tags-10r") << QStringLiteral("casita-mpi-tags-10r") << quint64(428);
    QTest::newRow("checked in: casita-mpi-late-sender-barrier-4r")
        << QStringLiteral("casita-mpi-late-sender-barrier-4r") << quint64(110);
}

void TestOtf2ReaderDefinitions::folderPathFindsAnchor()
{
    QFETCH(QString, name);
    QFETCH(quint64, events);
    const QString anchor = test::traceAnchor(name);
    if (anchor.isEmpty()) QSKIP("shared trace not available");
    const Trace t = read(QFileInfo(anchor).path()); // the folder
    QCOMPARE(t.eventCount(), events);
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

void TestOtf2ReaderDefinitions::hostsFromSystemTreeCheckedIn()
{
    // otf2-print -G resources/demo/traces/tracer-stencil4d-64r/traces.otf2: the location group
    // of every even rank has Parent "node::quartz1", of every odd rank "node::quartz2".
    const QString stencil = test::traceAnchor(QStringLiteral("tracer-stencil4d-64r"));
    QVERIFY(!stencil.isEmpty()); // checked in
    const Trace t = read(stencil);
    QCOMPARE(t.rankCount(), size_t(64));
    for (uint32_t r = 0; r < 64; ++r) {
        const StringId host = t.rank(RankId(r)).host;
        QVERIFY(host.valid());
        QCOMPARE(std::string(t.str(host)), std::string(r % 2 ? "quartz2" : "quartz1"));
    }
}

void TestOtf2ReaderDefinitions::threadsDevicesAndMetricsStayOnTheirRank()
{
    // The fixture with, beside each rank's master thread r, an OpenMP thread 2^32 + r, a CUDA
    // stream 2^33 + r and a metric location 3 * 2^32 + r in its location group (as
    // cloverleafRankMapping and jacobiOpenMpThreadsStayOnTheirRank find in Score-P's traces).
    namespace fx = test::otf2fixture;
    QTemporaryDir tmp;
    fx::Fixture f;
    f.extraLocations = true;
    const QString anchor = fx::writeFixture(tmp.path(), f);
    QVERIFY(!anchor.isEmpty());
    const Trace t = read(anchor);
    QCOMPARE(t.rankCount(), size_t(2));
    QCOMPARE(t.locations().size(), size_t(8));
    for (uint32_t r = 0; r < 2; ++r) {
        const Rank& rank = t.rank(RankId(r));
        QCOMPARE(rank.locations.size(), size_t(4));
        QCOMPARE(rank.locations.front(), rank.mainLocation);
        QCOMPARE(t.location(rank.mainLocation).otf2Id, quint64(r));
        QCOMPARE(t.location(rank.mainLocation).type, LocationType::CpuThread);
        QCOMPARE(t.str(t.location(rank.mainLocation).name), std::string_view("Master thread"));
        std::map<quint64, LocationType> others;
        for (LocationId id : rank.locations) {
            QCOMPARE(t.rankOf(id), RankId(r));
            others[t.location(id).otf2Id] = t.location(id).type;
        }
        QCOMPARE(others[(quint64(1) << 32) + r], LocationType::CpuThread);
        QCOMPARE(others[(quint64(2) << 32) + r], LocationType::Gpu);
        QCOMPARE(others[(quint64(3) << 32) + r], LocationType::Metric);
        // The master thread's events: Enter main, Enter MPI_Send/Recv, the message record,
        // Leave, Leave main (otf2fixture.cpp, consistentEvents).
        QCOMPARE(t.rankEvents(RankId(r)).size(), size_t(5));
    }
    QCOMPARE(t.eventCount(), quint64(5 + 5 + 4 * 2)); // the threads and streams: 2 each
    QCOMPARE(t.communicator(t.worldCommunicator()).members,
             (std::vector<RankId>{RankId(0), RankId(1)}));
}

void TestOtf2ReaderDefinitions::communicatorMembersCheckedIn()
{
    // otf2-print -G resources/demo/traces/casita-mpi-late-sender-barrier-4r/traces.otf2:
    // COMM 0 MPI_COMM_WORLD (COMM_GROUP 1: ranks 0..3, no parent), COMM 1 "" (GROUP 2 of type
    // COMM_SELF, 0 members). No communicator is created or destroyed by an event.
    const QString anchor = test::traceAnchor(QStringLiteral("casita-mpi-late-sender-barrier-4r"));
    QVERIFY(!anchor.isEmpty()); // checked in
    const Trace t = read(anchor);
    QCOMPARE(t.communicators().size(), size_t(2));
    const Communicator& world = t.communicator(t.worldCommunicator());
    QCOMPARE(t.str(world.name), std::string_view("MPI_COMM_WORLD"));
    QCOMPARE(world.members, (std::vector<RankId>{RankId(0), RankId(1), RankId(2), RankId(3)}));
    QVERIFY(!world.parent.valid());
    const CommId self(t.worldCommunicator() == CommId(0) ? 1 : 0);
    QVERIFY(t.communicator(self).members.empty());
}

void TestOtf2ReaderDefinitions::regionRolesCheckedIn()
{
    // Roles from otf2-print -G of the checked-in traces. casita-mpi-late-sender-barrier-4r:
    // MPI_Send and MPI_Recv POINT2POINT, MPI_Barrier BARRIER, MPI_Comm_rank FUNCTION (MPI),
    // foo FUNCTION (COMPILER) in gen_mpi.c. stencil2d-9: MPI_Allreduce COLL_ALL2ALL, MPI_Isend
    // POINT2POINT, MPI_Waitall FUNCTION (MPI), compute_interior FUNCTION (USER) in stencil2d.c.
    const auto regions = [](const Trace& t) {
        std::map<std::string_view, const Region*> byName;
        for (const Region& r : t.regions())
            byName[t.str(r.name)] = &r;
        return byName;
    };
    const QString lateSender =
        test::traceAnchor(QStringLiteral("casita-mpi-late-sender-barrier-4r"));
    const QString stencil = test::checkedInTraceAnchor(QStringLiteral("stencil2d-9"));
    QVERIFY(!lateSender.isEmpty() && !stencil.isEmpty());
    const Trace a = read(lateSender);
    const auto casita = regions(a);
    QCOMPARE(casita.at("MPI_Send")->role, RegionRole::MpiPointToPoint);
    QCOMPARE(casita.at("MPI_Recv")->role, RegionRole::MpiPointToPoint);
    QCOMPARE(casita.at("MPI_Barrier")->role, RegionRole::Barrier);
    QCOMPARE(casita.at("MPI_Comm_rank")->role, RegionRole::MpiOther);
    QCOMPARE(casita.at("MPI_Comm_rank")->paradigm, Paradigm::Mpi);
    QCOMPARE(casita.at("foo")->role, RegionRole::Function);
    QVERIFY(a.str(casita.at("foo")->file).ends_with("gen_mpi.c"));
    const Trace b = read(stencil);
    const auto generated = regions(b);
    QCOMPARE(generated.at("MPI_Allreduce")->role, RegionRole::MpiCollective);
    QCOMPARE(generated.at("MPI_Isend")->role, RegionRole::MpiPointToPoint);
    QCOMPARE(generated.at("MPI_Waitall")->role, RegionRole::MpiOther);
    QCOMPARE(generated.at("MPI_Waitall")->paradigm, Paradigm::Mpi);
    QCOMPARE(generated.at("compute_interior")->role, RegionRole::Function);
    QCOMPARE(std::string(b.str(generated.at("compute_interior")->file)),
             std::string("stencil2d.c"));
}

QTEST_GUILESS_MAIN(TestOtf2ReaderDefinitions)
#include "tst_otf2readerdefinitions.moc"
