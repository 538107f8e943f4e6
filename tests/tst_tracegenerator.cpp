// The synthetic trace generator. Expected counts come from each pattern's definition (see
// model/generator/halopattern.h, pingpongpattern.h, alltoallpattern.h): per rank a 14-event frame
// (PROGRAM_BEGIN, main, MPI_Init with its collective and COMM_CREATE, and the mirror image at the
// end) plus, per iteration, pingpong 12, alltoall 20, stencils 16 + 8k events for k neighbours.

#include "model/generator/processgrid.h"
#include "model/generator/scalinglaw.h"
#include "model/generator/tracegenerator.h"
#include "model/trace/traceerror.h"

#include <QFile>
#include <QTest>
#include <algorithm>
#include <array>
#include <string>
#include <vector>

using namespace rankscope;

Q_DECLARE_METATYPE(std::vector<uint32_t>)

namespace {

uint64_t countKind(const Trace& t, RankId r, EventKind k)
{
    const EventStream& es = t.rankEvents(r);
    uint64_t n = 0;
    for (size_t i = 0; i < es.size(); ++i)
        n += es.kind(i) == k;
    return n;
}

/// Neighbours of rank r on a non-periodic grid, counted from its coordinates (row-major).
uint64_t neighbourCount(const std::vector<uint32_t>& dims, uint32_t r, bool diagonals)
{
    std::array<uint64_t, 3> c{0, 0, 0}, a{1, 1, 1};
    uint32_t rest = r;
    for (size_t i = dims.size(); i-- > 0;) {
        c[i] = rest % dims[i];
        rest /= dims[i];
    }
    uint64_t faces = 0;
    for (size_t i = 0; i < dims.size(); ++i) {
        a[i] = 1 + (c[i] > 0) + (c[i] + 1 < dims[i]);
        faces += a[i] - 1;
    }
    return diagonals ? a[0] * a[1] * a[2] - 1 : faces;
}

/// Mean duration of region `name` over all its occurrences on all ranks.
double meanDuration(const Trace& t, std::string_view name)
{
    double sum = 0;
    uint64_t n = 0;
    for (uint32_t r = 0; r < t.rankCount(); ++r) {
        const EventStream& es = t.rankEvents(RankId(r));
        int64_t enter = 0;
        for (size_t i = 0; i < es.size(); ++i) {
            if (es.kind(i) != EventKind::Enter && es.kind(i) != EventKind::Leave) continue;
            if (t.regionName(es.region(i)) != name) continue;
            if (es.kind(i) == EventKind::Enter) {
                enter = es.time(i);
            } else {
                sum += double(es.time(i) - enter);
                ++n;
            }
        }
    }
    return n ? sum / double(n) : 0;
}

GeneratorOptions options(const char* pattern, uint32_t ranks, uint32_t iterations)
{
    GeneratorOptions o;
    o.pattern = pattern;
    o.ranks = ranks;
    o.iterations = iterations;
    return o;
}

/// Peak resident memory of this process (VmHWM), after resetting it to the current figure.
uint64_t peakResidentBytes(bool reset)
{
    if (reset) {
        QFile clear(QStringLiteral("/proc/self/clear_refs"));
        if (clear.open(QIODevice::WriteOnly)) clear.write("5");
    }
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly)) return 0;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').front().toULongLong() * 1024;
    return 0;
}

} // namespace

class TestTraceGenerator : public QObject
{
    Q_OBJECT
private slots:
    void eventCounts_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<uint32_t>("ranks");
        QTest::addColumn<uint32_t>("iterations");
        QTest::addColumn<std::vector<uint32_t>>("grid"); // empty: no neighbours
        QTest::addColumn<bool>("diagonals");
        QTest::addColumn<uint64_t>("perIteration"); // events per iteration besides 8 per neighbour
        QTest::addColumn<uint64_t>("totalEvents");
        QTest::addColumn<uint64_t>("messages");
        QTest::addColumn<uint64_t>("collectives");
        // 4 ranks x (14 + 5 x 12); 2 messages per pair and iteration; only Init/Finalize.
        QTest::newRow("pingpong 4") << "pingpong" << 4u << 5u << std::vector<uint32_t>{} << false
                                    << uint64_t(12) << uint64_t(296) << uint64_t(20) << uint64_t(2);
        // 4x3 grid: 2 interior ranks (4 neighbours), 6 edge (3), 4 corners (2): 34 neighbours.
        // 12 x 14 + 3 x (12 x 16 + 8 x 34) = 1560; messages 3 x 34; 2 + 3 allreduces.
        QTest::newRow("stencil2d 12 (4x3)")
            << "stencil2d" << 12u << 3u << std::vector<uint32_t>{4, 3} << false << uint64_t(16)
            << uint64_t(1560) << uint64_t(102) << uint64_t(5);
        // One rank has no neighbour: 14 + 2 x 16.
        QTest::newRow("stencil2d 1")
            << "stencil2d" << 1u << 2u << std::vector<uint32_t>{1, 1} << false << uint64_t(16)
            << uint64_t(46) << uint64_t(0) << uint64_t(4);
        // 2x2x2: every rank touches the 7 others. 8 x (14 + 2 x (16 + 56)) = 1264.
        QTest::newRow("stencil3d 8")
            << "stencil3d" << 8u << 2u << std::vector<uint32_t>{2, 2, 2} << true << uint64_t(16)
            << uint64_t(1264) << uint64_t(112) << uint64_t(4);
        // 3x3x3: per dimension 2+3+2 choices, so sum of neighbours = 7^3 - 27 = 316.
        // 27 x 14 + 27 x 16 + 8 x 316 = 3338.
        QTest::newRow("stencil3d 27")
            << "stencil3d" << 27u << 1u << std::vector<uint32_t>{3, 3, 3} << true << uint64_t(16)
            << uint64_t(3338) << uint64_t(316) << uint64_t(3);
        // 6 x (14 + 4 x 20); three collectives per iteration.
        QTest::newRow("alltoall 6") << "alltoall" << 6u << 4u << std::vector<uint32_t>{} << false
                                    << uint64_t(20) << uint64_t(564) << uint64_t(0) << uint64_t(14);
    }
    void eventCounts()
    {
        QFETCH(QString, pattern);
        QFETCH(uint32_t, ranks);
        QFETCH(uint32_t, iterations);
        QFETCH(std::vector<uint32_t>, grid);
        QFETCH(bool, diagonals);
        QFETCH(uint64_t, perIteration);
        QFETCH(uint64_t, totalEvents);
        QFETCH(uint64_t, messages);
        QFETCH(uint64_t, collectives);

        const auto o = options(pattern.toStdString().c_str(), ranks, iterations);
        const Trace t = generateTrace(o);
        QCOMPARE(t.rankCount(), size_t(ranks));
        QCOMPARE(t.eventCount(), totalEvents);
        QCOMPARE(uint64_t(t.messages().size()), messages);
        QCOMPARE(uint64_t(t.collectives().size()), collectives);
        const GeneratorShape shape = generatorShape(o);
        QCOMPARE(shape.totalEvents(), totalEvents);
        QCOMPARE(shape.messages, messages);
        QCOMPARE(shape.collectiveInstances, collectives);

        for (uint32_t r = 0; r < ranks; ++r) {
            const uint64_t k = grid.empty() ? 0 : neighbourCount(grid, r, diagonals);
            const uint64_t expected = 14 + iterations * (perIteration + 8 * k);
            QCOMPARE(uint64_t(t.rankEvents(RankId(r)).size()), expected);
            QCOMPARE(shape.eventsPerRank[r], expected);
            if (!grid.empty()) {
                QCOMPARE(countKind(t, RankId(r), EventKind::MpiIsend), k * iterations);
                QCOMPARE(countKind(t, RankId(r), EventKind::MpiIrecv), k * iterations);
                QCOMPARE(countKind(t, RankId(r), EventKind::MpiIsendComplete), k * iterations);
                QCOMPARE(countKind(t, RankId(r), EventKind::MpiIrecvRequest), k * iterations);
            }
        }
        for (const Message& m : t.messages())
            QVERIFY(m.matched());
        const TraceDiagnostics& d = t.diagnostics();
        QCOMPARE(d.unmatchedMessages(), uint64_t(0));
        QCOMPARE(d.orphanRequestEvents, uint64_t(0));
        QCOMPARE(d.incompleteCollectives, uint64_t(0));
        QCOMPARE(d.unclosedRegions, uint64_t(0));
        QCOMPARE(d.unmatchedLeaves, uint64_t(0));
        QVERIFY2(d.warnings.empty(), d.warnings.empty() ? "" : d.warnings.front().c_str());
        QCOMPARE(t.provenance().kind, std::string("generated"));
        QVERIFY(t.provenance().parameters.find("pattern=" + o.pattern) != std::string::npos);
        QVERIFY(t.worldCommunicator().valid());
        QCOMPARE(t.str(t.communicator(t.worldCommunicator()).name),
                 std::string_view("MPI_COMM_WORLD"));
    }

    void dimsCreate_data()
    {
        QTest::addColumn<uint32_t>("n");
        QTest::addColumn<uint32_t>("ndims");
        QTest::addColumn<std::vector<uint32_t>>("dims");
        // The MPI standard's examples and the balanced choices MPICH / Open MPI make.
        QTest::newRow("12 2d") << 12u << 2u << std::vector<uint32_t>{4, 3};
        QTest::newRow("6 2d") << 6u << 2u << std::vector<uint32_t>{3, 2};
        QTest::newRow("7 2d (prime)") << 7u << 2u << std::vector<uint32_t>{7, 1};
        QTest::newRow("16 2d") << 16u << 2u << std::vector<uint32_t>{4, 4};
        QTest::newRow("24 2d") << 24u << 2u << std::vector<uint32_t>{6, 4};
        QTest::newRow("256 2d") << 256u << 2u << std::vector<uint32_t>{16, 16};
        QTest::newRow("1 2d") << 1u << 2u << std::vector<uint32_t>{1, 1};
        QTest::newRow("6 3d") << 6u << 3u << std::vector<uint32_t>{3, 2, 1};
        QTest::newRow("12 3d") << 12u << 3u << std::vector<uint32_t>{3, 2, 2};
        QTest::newRow("16 3d") << 16u << 3u << std::vector<uint32_t>{4, 2, 2};
        QTest::newRow("27 3d") << 27u << 3u << std::vector<uint32_t>{3, 3, 3};
    }
    void dimsCreate()
    {
        QFETCH(uint32_t, n);
        QFETCH(uint32_t, ndims);
        QFETCH(std::vector<uint32_t>, dims);
        QCOMPARE(ProcessGrid::dimsCreate(n, ndims), dims);
    }

    void gridNeighbours()
    {
        // 4x3 grid, row-major: rank 4 sits at (1, 1).
        const ProcessGrid g({4, 3});
        QCOMPARE(g.coords(4), (ProcessGrid::Coords{1, 1, 0}));
        QCOMPARE(g.neighbour(4, {-1, 0, 0}), int64_t(1));
        QCOMPARE(g.neighbour(4, {1, 0, 0}), int64_t(7));
        QCOMPARE(g.neighbour(4, {0, -1, 0}), int64_t(3));
        QCOMPARE(g.neighbour(4, {0, 1, 0}), int64_t(5));
        QCOMPARE(g.neighbour(0, {-1, 0, 0}), int64_t(-1)); // not periodic
        QCOMPARE(g.neighbour(11, {0, 1, 0}), int64_t(-1));
    }

    void scalingLaws_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("law");
        QTest::addColumn<double>("at16");
        QTest::newRow("constant") << "constant" << int(ScalingLaw::Constant) << 1.0;
        QTest::newRow("1/n") << "1/n" << int(ScalingLaw::InverseN) << 1.0 / 16;
        QTest::newRow("n") << "n" << int(ScalingLaw::LinearN) << 16.0;
        QTest::newRow("sqrt(n)") << "sqrt(n)" << int(ScalingLaw::SqrtN) << 4.0;
        QTest::newRow("1/sqrt(n), spaced")
            << " 1 / SQRT(n) " << int(ScalingLaw::InverseSqrtN) << 0.25;
        QTest::newRow("log(n)") << "log(n)" << int(ScalingLaw::LogN) << 4.0;
    }
    void scalingLaws()
    {
        QFETCH(QString, name);
        QFETCH(int, law);
        QFETCH(double, at16);
        const ScalingLaw parsed = parseScalingLaw(name.toStdString());
        QCOMPARE(int(parsed), law);
        QCOMPARE(parseScalingLaw(scalingLawName(parsed)), parsed);
        QCOMPARE(scalingFactor(parsed, 16), at16);
    }
    void unknownScalingLaw()
    {
        try {
            parseScalingLaw("n^2");
            QFAIL("no error");
        } catch (const TraceError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("n^2") != std::string::npos, e.what());
            QVERIFY2(what.find("1/sqrt(n)") != std::string::npos, e.what());
        }
    }

    void determinism()
    {
        auto o = options("stencil2d", 6, 5);
        const Trace a = generateTrace(o), b = generateTrace(o);
        QVERIFY(a.sameContent(b));
        o.seed = 2;
        const Trace c = generateTrace(o);
        QCOMPARE(c.eventCount(), a.eventCount());
        bool timesDiffer = false;
        for (uint32_t r = 0; r < a.rankCount() && !timesDiffer; ++r)
            for (size_t i = 0; i < a.rankEvents(RankId(r)).size() && !timesDiffer; ++i)
                timesDiffer = a.rankEvents(RankId(r)).time(i) != c.rankEvents(RankId(r)).time(i);
        QVERIFY(timesDiffer);
        QVERIFY(!a.sameContent(c));
    }

    void computeScaling_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("region");
        QTest::addColumn<uint32_t>("small");
        QTest::addColumn<uint32_t>("large");
        QTest::addColumn<double>("noise");
        QTest::addColumn<double>("imbalance");
        QTest::addColumn<double>("ratio"); // mean(small) / mean(large)
        QTest::addColumn<double>("tolerance");
        // compute_interior follows 1/n: 4x smaller at 16 ranks than at 4.
        QTest::newRow("1/n exact") << "stencil2d"
                                   << "compute_interior" << 4u << 16u << 0.0 << 0.0 << 4.0 << 1e-6;
        QTest::newRow("1/n with noise")
            << "stencil2d"
            << "compute_interior" << 4u << 16u << 0.02 << 0.05 << 4.0 << 0.10;
        // pack follows 1/sqrt(n): 2x smaller at 16.
        QTest::newRow("1/sqrt(n)") << "stencil2d"
                                   << "pack" << 4u << 16u << 0.02 << 0.05 << 2.0 << 0.10;
        // bucket_count follows n: 4x larger at 16.
        QTest::newRow("n") << "alltoall"
                           << "bucket_count" << 4u << 16u << 0.02 << 0.05 << 0.25 << 0.10;
        // pingpong's compute is constant.
        QTest::newRow("constant") << "pingpong"
                                  << "compute" << 4u << 16u << 0.02 << 0.05 << 1.0 << 0.10;
        // 3D 1/n from 8 to 64 ranks: 8x.
        QTest::newRow("stencil3d 1/n")
            << "stencil3d"
            << "compute_interior" << 8u << 64u << 0.0 << 0.0 << 8.0 << 1e-6;
    }
    void computeScaling()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, region);
        QFETCH(uint32_t, small);
        QFETCH(uint32_t, large);
        QFETCH(double, noise);
        QFETCH(double, imbalance);
        QFETCH(double, ratio);
        QFETCH(double, tolerance);
        auto o = options(pattern.toStdString().c_str(), small, 20);
        o.noise = noise;
        o.imbalance = imbalance;
        const double a = meanDuration(generateTrace(o), region.toStdString());
        o.ranks = large;
        const double b = meanDuration(generateTrace(o), region.toStdString());
        QVERIFY(a > 0 && b > 0);
        QVERIFY2(std::abs(a / b - ratio) <= tolerance * ratio,
                 qPrintable(QStringLiteral("ratio %1, expected %2").arg(a / b).arg(ratio)));
    }

    void spreadGrowsWithN()
    {
        // With noiseGrowth the relative spread of a region's durations widens with n.
        auto relativeSpread = [](uint32_t ranks) {
            auto o = options("stencil2d", ranks, 10);
            o.noiseGrowth = 1.0;
            const Trace t = generateTrace(o);
            std::vector<double> d;
            for (uint32_t r = 0; r < t.rankCount(); ++r) {
                const EventStream& es = t.rankEvents(RankId(r));
                for (size_t i = 0; i + 1 < es.size(); ++i)
                    if (es.kind(i) == EventKind::Enter &&
                        t.regionName(es.region(i)) == "compute_interior")
                        d.push_back(double(es.time(i + 1) - es.time(i)));
            }
            const auto [lo, hi] = std::minmax_element(d.begin(), d.end());
            return (*hi - *lo) / *hi;
        };
        QVERIFY(relativeSpread(64) > relativeSpread(4));
    }

    void causality_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<uint32_t>("ranks");
        QTest::newRow("pingpong") << "pingpong" << 4u;
        QTest::newRow("stencil2d") << "stencil2d" << 9u;
        QTest::newRow("stencil3d") << "stencil3d" << 8u;
        QTest::newRow("alltoall") << "alltoall" << 5u;
    }
    void causality()
    {
        QFETCH(QString, pattern);
        QFETCH(uint32_t, ranks);
        auto o = options(pattern.toStdString().c_str(), ranks, 4);
        const Trace t = generateTrace(o);
        // A message completes no earlier than latency + bytes / bandwidth after its send.
        for (const Message& m : t.messages()) {
            const int64_t sent = t.events(m.sendLocation).time(m.sendEvent);
            const int64_t received = t.events(m.recvLocation).time(m.recvEvent);
            const double cost = o.latencyNs + double(m.bytes) * 1e9 / o.bandwidthBytesPerSecond;
            QVERIFY(double(received - sent) >= cost - 1.0);
        }
        // A collective ends on every member after the last member began.
        for (const CollectiveInstance& c : t.collectives()) {
            QCOMPARE(c.memberCount, ranks);
            int64_t lastBegin = INT64_MIN;
            for (uint32_t k = 0; k < c.memberCount; ++k) {
                const CollectiveMember& m = t.collectiveMembers()[c.firstMember + k];
                lastBegin = std::max(lastBegin, t.events(m.location).time(m.beginEvent));
            }
            for (uint32_t k = 0; k < c.memberCount; ++k) {
                const CollectiveMember& m = t.collectiveMembers()[c.firstMember + k];
                QVERIFY(t.events(m.location).time(m.endEvent) >= lastBegin);
            }
        }
    }

    void structure()
    {
        // Every MPI record sits inside the MPI call Score-P would record it in, and all regions
        // nest: main > MPI_Init, iterations..., MPI_Finalize.
        const Trace t = generateTrace(options("stencil2d", 6, 3));
        for (uint32_t r = 0; r < t.rankCount(); ++r) {
            const EventStream& es = t.rankEvents(RankId(r));
            std::vector<std::string_view> stack;
            for (size_t i = 0; i < es.size(); ++i) {
                const EventKind k = es.kind(i);
                const std::string_view top = stack.empty() ? "" : stack.back();
                switch (k) {
                case EventKind::Enter:
                    if (stack.empty())
                        QCOMPARE(t.regionName(es.region(i)), std::string_view("main"));
                    stack.push_back(t.regionName(es.region(i)));
                    break;
                case EventKind::Leave:
                    QCOMPARE(t.regionName(es.region(i)), top);
                    stack.pop_back();
                    break;
                case EventKind::MpiIsend:
                    QCOMPARE(top, std::string_view("MPI_Isend"));
                    break;
                case EventKind::MpiIrecvRequest:
                    QCOMPARE(top, std::string_view("MPI_Irecv"));
                    break;
                case EventKind::MpiIrecv:
                case EventKind::MpiIsendComplete:
                    QCOMPARE(top, std::string_view("MPI_Waitall"));
                    break;
                case EventKind::MpiCollectiveBegin:
                case EventKind::MpiCollectiveEnd:
                    QVERIFY(top == "MPI_Allreduce" || top == "MPI_Init" || top == "MPI_Finalize");
                    break;
                default:
                    break;
                }
            }
            QVERIFY(stack.empty());
        }
        for (const Region& reg : t.regions()) {
            const std::string_view name = t.str(reg.name);
            if (name == "MPI_Isend" || name == "MPI_Irecv")
                QCOMPARE(reg.role, RegionRole::MpiPointToPoint);
            if (name == "MPI_Allreduce") QCOMPARE(reg.role, RegionRole::MpiCollective);
            if (name == "MPI_Waitall" || name == "MPI_Init")
                QCOMPARE(reg.role, RegionRole::MpiOther);
            if (name.starts_with("MPI_")) QCOMPARE(reg.paradigm, Paradigm::Mpi);
        }
    }

    void collectiveBytes()
    {
        const Trace t = generateTrace(options("alltoall", 5, 3));
        for (const CollectiveInstance& c : t.collectives()) {
            uint64_t sent = 0, received = 0;
            for (uint32_t k = 0; k < c.memberCount; ++k) {
                sent += t.collectiveMembers()[c.firstMember + k].bytesSent;
                received += t.collectiveMembers()[c.firstMember + k].bytesReceived;
            }
            QCOMPARE(sent, received);
            if (c.op == CollectiveOp::Alltoall) // one 8-byte count to each of the 5 ranks
                QCOMPARE(sent, uint64_t(5 * 5 * 8));
            if (c.op == CollectiveOp::Allreduce) QCOMPARE(sent, uint64_t(5 * 16));
        }
    }

    void badOptions_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<uint32_t>("ranks");
        QTest::addColumn<uint32_t>("iterations");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown pattern")
            << "stencil4d" << 4u << 1u << "unknown generator pattern 'stencil4d'";
        QTest::newRow("no ranks") << "stencil2d" << 0u << 1u << "at least 1";
        QTest::newRow("non-cube 3d") << "stencil3d" << 12u << 1u << "12 is not a cube";
        QTest::newRow("odd pingpong") << "pingpong" << 3u << 1u << "3 is odd";
        // 4e9 iterations x 20 events do not fit a location's 32-bit event indices.
        QTest::newRow("absurd iterations")
            << "alltoall" << 2u << 4'000'000'000u << "exceed the limit";
        // 2e8 iterations x 2 messages per pair exceed the model's 2^28 message ids... but the
        // event guard (1e9 events by default) trips first: 2 x 2.4e9 events.
        QTest::newRow("too many events")
            << "pingpong" << 2u << 200'000'000u << "events a generated trace may hold";
    }
    void badOptions()
    {
        QFETCH(QString, pattern);
        QFETCH(uint32_t, ranks);
        QFETCH(uint32_t, iterations);
        QFETCH(QString, message);
        const auto o = options(pattern.toStdString().c_str(), ranks, iterations);
        for (int attempt = 0; attempt < 2; ++attempt) {
            try {
                if (attempt == 0)
                    generatorShape(o);
                else
                    generateTrace(o);
                QFAIL("no error");
            } catch (const TraceError& e) {
                QVERIFY2(std::string(e.what()).find(message.toStdString()) != std::string::npos,
                         e.what());
            }
        }
    }

    void eventLimitRefusedBeforeWork()
    {
        // stencil3d on 256^3 = 16,777,216 ranks, 26-neighbour halo: along one dimension of n
        // points, 3n - 2 ordered pairs lie at most one step apart, so the grid has
        // 766^3 - 256^3 = 432,677,880 neighbour pairs. One iteration: 16,777,216 x (14 + 16)
        // + 8 x 432,677,880 = 3,964,739,520 events, beyond the 10^9 limit. Sizing must not
        // build the 3.5 GB of neighbour lists generation would use, nor keep anything per rank.
        const GeneratorOptions o = options("stencil3d", 16'777'216, 1);
        const uint64_t before = peakResidentBytes(true);
        std::string e;
        try {
            generatorShape(o);
        } catch (const TraceError& error) {
            e = error.what();
        }
        QVERIFY2(e.find("3964739520 events exceed the limit of 1000000000") != std::string::npos,
                 e.c_str());
        const uint64_t growth = peakResidentBytes(false) - before;
        QVERIFY2(growth < 32'000'000, std::to_string(growth).c_str());
    }

    void badRegionsAndValues()
    {
        auto o = options("stencil2d", 4, 1);
        o.regions = {{"only_one", 1e6, ScalingLaw::InverseN}};
        QVERIFY_THROWS_EXCEPTION(TraceError, generateTrace(o));
        o.regions = {};
        o.noise = -0.1;
        QVERIFY_THROWS_EXCEPTION(TraceError, generateTrace(o));
        o.noise = 0;
        o.bandwidthBytesPerSecond = 0;
        QVERIFY_THROWS_EXCEPTION(TraceError, generateTrace(o));
    }

    void customRegions()
    {
        auto o = options("alltoall", 4, 2);
        o.regions = {{"sort", 4e6, ScalingLaw::Constant},
                     {"count", 1e3, ScalingLaw::Constant},
                     {"merge_all", 2e6, ScalingLaw::InverseN}};
        o.noise = 0;
        o.imbalance = 0;
        const Trace t = generateTrace(o);
        QCOMPARE(meanDuration(t, "sort"), 4e6);
        QCOMPARE(meanDuration(t, "merge_all"), 5e5);
        QCOMPARE(defaultComputeRegions("stencil3d").size(), size_t(4));
        QVERIFY_THROWS_EXCEPTION(TraceError, defaultComputeRegions("nope"));
    }

    void progressAndCancel()
    {
        std::vector<double> seen;
        generateTrace(options("stencil2d", 4, 50), [&](double f) {
            seen.push_back(f);
            return true;
        });
        QVERIFY(seen.size() >= 2);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QCOMPARE(seen.back(), 1.0);
        try {
            generateTrace(options("stencil2d", 4, 50), [](double f) { return f < 0.5; });
            QFAIL("not cancelled");
        } catch (const TraceError& e) {
            QCOMPARE(std::string(e.what()), std::string("cancelled"));
        }
    }
};

QTEST_GUILESS_MAIN(TestTraceGenerator)
#include "tst_tracegenerator.moc"
