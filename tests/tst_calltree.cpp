// Call-path profile (model/profile/calltree.h) on a hand-built trace with recursion, worked out
// by hand from the timestamps written below (ns), and `rankscope-cli profile --tree` on a real
// Score-P trace against per-path sums taken from otf2-print's ENTER/LEAVE records.

#include "model/profile/calltree.h"
#include "model/trace/trace.h"
#include "testsupport/clirunner.h"
#include "testsupport/handtrace.h"
#include "testsupport/testpaths.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>
#include <functional>

using namespace rankscope;
using namespace rankscope::test;

namespace {

/// The node reached from the roots by region names, or kNoCallNode.
uint32_t find(const Trace& trace, const CallTree& tree, const std::vector<const char*>& path)
{
    const std::vector<uint32_t>* level = &tree.roots;
    uint32_t found = kNoCallNode;
    for (const char* name : path) {
        found = kNoCallNode;
        for (uint32_t n : *level)
            if (trace.regionName(tree.nodes[n].region) == name) found = n;
        if (found == kNoCallNode) return found;
        level = &tree.nodes[found].children;
    }
    return found;
}

/// The JSON node reached from `tree` by names, or an empty object.
QJsonObject findJson(QJsonArray level, const QStringList& path)
{
    QJsonObject found;
    for (const QString& name : path) {
        found = QJsonObject();
        for (const QJsonValue& v : level)
            if (v.toObject().value(QLatin1String("name")).toString() == name) found = v.toObject();
        level = found.value(QLatin1String("children")).toArray();
    }
    return found;
}

} // namespace

class TestCallTree : public QObject
{
    Q_OBJECT

private slots:
    void recursion()
    {
        HandTrace h;
        const LocationId r0 = h.addRank(), r1 = h.addRank();
        const RegionId main = h.user("main"), f = h.user("f"), g = h.user("g");
        // Rank 0: main [0, 100] { f [10, 80] { g [12, 18]; f [20, 60] { g [30, 40];
        // f [45, 55] } }; g [85, 95] }
        h.enter(r0, 0, main);
        h.enter(r0, 10, f);
        h.call(r0, g, 12, 18);
        h.enter(r0, 20, f);
        h.call(r0, g, 30, 40);
        h.call(r0, f, 45, 55);
        h.leave(r0, 60, f);
        h.leave(r0, 80, f);
        h.call(r0, g, 85, 95);
        h.leave(r0, 100, main);
        // Rank 1: main [0, 50] { f [5, 45] { f [10, 20]; f [25, 30] } }
        h.enter(r1, 0, main);
        h.enter(r1, 5, f);
        h.call(r1, f, 10, 20);
        h.call(r1, f, 25, 30);
        h.leave(r1, 45, f);
        h.leave(r1, 50, main);
        const Trace trace = h.finish();
        const CallTree tree = computeCallTree(trace);
        QVERIFY(!tree.cancelled);
        QCOMPARE(tree.nodes.size(), size_t(7));
        QCOMPARE(tree.roots.size(), size_t(1));

        struct Row
        {
            std::vector<const char*> path;
            uint64_t visits;
            int64_t inclusive, exclusive;
            std::vector<int64_t> inclusiveByRank, exclusiveByRank;
        };
        // Exclusive = inclusive - time in children, per rank:
        // main: rank 0 100 - 70 - 10 = 20, rank 1 50 - 40 = 10.
        // main>f: rank 0 70 - 6 - 40 = 24, rank 1 40 - 10 - 5 = 25.
        // main>f>f: rank 0 40 - 10 - 10 = 20, rank 1 10 + 5 (two visits, no children).
        const std::vector<Row> rows = {
            {{"main"}, 2, 150, 30, {100, 50}, {20, 10}},
            {{"main", "f"}, 2, 110, 49, {70, 40}, {24, 25}},
            {{"main", "f", "g"}, 1, 6, 6, {6, 0}, {6, 0}},
            {{"main", "f", "f"}, 3, 55, 35, {40, 15}, {20, 15}},
            {{"main", "f", "f", "g"}, 1, 10, 10, {10, 0}, {10, 0}},
            {{"main", "f", "f", "f"}, 1, 10, 10, {10, 0}, {10, 0}},
            {{"main", "g"}, 1, 10, 10, {10, 0}, {10, 0}},
        };
        int64_t exclusiveSum = 0;
        for (const Row& row : rows) {
            const uint32_t id = find(trace, tree, row.path);
            QVERIFY2(id != kNoCallNode, row.path.back());
            const CallTreeNode& n = tree.nodes[id];
            QCOMPARE(n.visits, row.visits);
            QCOMPARE(n.inclusive, row.inclusive);
            QCOMPARE(n.exclusive, row.exclusive);
            QCOMPARE(n.inclusiveByRank, row.inclusiveByRank);
            QCOMPARE(n.exclusiveByRank, row.exclusiveByRank);
            exclusiveSum += n.exclusive;
        }
        // Exclusive times add up to the time under the outermost regions: 100 + 50.
        QCOMPARE(exclusiveSum, int64_t(150));

        const CallTreeNode& top = tree.nodes[tree.roots[0]];
        QCOMPARE(top.inclusivePerRank, (RankSpread{50, 75.0, 100}));
        QCOMPARE(top.exclusivePerRank, (RankSpread{10, 15.0, 20}));
        // Children by descending inclusive time: main>f (110) before main>g (10); under
        // main>f>f, g and f tie at 10 and keep the order they were first entered.
        QCOMPARE(trace.regionName(tree.nodes[top.children[0]].region), "f");
        const uint32_t ff = find(trace, tree, {"main", "f", "f"});
        QCOMPARE(tree.path(trace, tree.nodes[ff].children[0]), std::string("main>f>f>g"));
        QCOMPARE(tree.path(trace, tree.nodes[ff].children[1]), std::string("main>f>f>f"));
        QCOMPARE(tree.nodes[ff].parent, find(trace, tree, {"main", "f"}));
    }

    void unclosedAndBrokenNesting()
    {
        // A Leave of f while g is open closes g too; main stays open to the last event (30).
        HandTrace h;
        const LocationId r0 = h.addRank();
        const RegionId main = h.user("main"), f = h.user("f"), g = h.user("g");
        h.enter(r0, 0, main);
        h.enter(r0, 10, f);
        h.enter(r0, 12, g);
        h.leave(r0, 20, f);
        h.call(r0, g, 25, 30);
        const Trace trace = h.finish();
        const CallTree tree = computeCallTree(trace);
        QCOMPARE(tree.nodes[find(trace, tree, {"main"})].inclusive, int64_t(30));
        QCOMPARE(tree.nodes[find(trace, tree, {"main"})].exclusive, int64_t(30 - 10 - 5));
        QCOMPARE(tree.nodes[find(trace, tree, {"main", "f", "g"})].inclusive, int64_t(8));
        QCOMPARE(tree.nodes[find(trace, tree, {"main", "f"})].exclusive, int64_t(2));
    }

    void cliOnRealTrace()
    {
        const QString anchor = traceAnchor(QStringLiteral("casita-mpi-late-sender-barrier-4r"));
        if (anchor.isEmpty()) QSKIP("casita-mpi-late-sender-barrier-4r is not available");
        const CliResult r = runCli({QStringLiteral("profile"), anchor, QStringLiteral("--tree"),
                                    QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray tree = jsonOf(r).value(QLatin1String("tree")).toArray();
        QCOMPARE(tree.size(), 1);
        // Per call path (visits, inclusive, exclusive), summed over the four locations from
        // otf2-print's ENTER/LEAVE records with a stack per location.
        struct Row
        {
            QStringList path;
            qint64 visits, inclusive, exclusive;
        };
        const std::vector<Row> rows = {
            {{"main"}, 4, Q_INT64_C(80185936383), 144278},
            {{"main", "MPI_Init"}, 4, 402599723, 402599723},
            {{"main", "late_sender"}, 4, Q_INT64_C(45421151054), 437125},
            {{"main", "late_sender", "foo"}, 6, Q_INT64_C(15399306047), Q_INT64_C(15399306047)},
            {{"main", "late_sender", "MPI_Recv"},
             3,
             Q_INT64_C(30021322112),
             Q_INT64_C(30021322112)},
            {{"main", "late_sender", "MPI_Send"}, 3, 85770, 85770},
            {{"main", "barrier"}, 4, Q_INT64_C(34361804354), 249215},
            {{"main", "barrier", "MPI_Barrier"}, 4, Q_INT64_C(21409519168), Q_INT64_C(21409519168)},
            {{"main", "barrier", "foo"}, 4, Q_INT64_C(12952035971), Q_INT64_C(12952035971)},
            {{"main", "MPI_Finalize"}, 4, 222816, 222816},
        };
        for (const Row& row : rows) {
            const QJsonObject n = findJson(tree, row.path);
            QVERIFY2(!n.isEmpty(), qPrintable(row.path.join(QLatin1Char('>'))));
            QCOMPARE(n.value(QLatin1String("visits")).toInteger(), row.visits);
            QCOMPARE(n.value(QLatin1String("inclusive_ns")).toInteger(), row.inclusive);
            QCOMPARE(n.value(QLatin1String("exclusive_ns")).toInteger(), row.exclusive);
        }
        QCOMPARE(findJson(tree, {QStringLiteral("main")})
                     .value(QLatin1String("children"))
                     .toArray()
                     .size(),
                 6);

        // NAS MG class W on 4 ranks (Score-P 8.4, 2300009703 ticks/s): 65 call paths; per path
        // (visits, inclusive, exclusive) from otf2-print in ticks, converted to ns. Each
        // timestamp is rounded to ns on import, so a sum over n visits may differ by n ns.
        const QString mg = sharedTraceAnchor(QStringLiteral("scorep84-npb-mg-W-4"));
        if (mg.isEmpty()) return;
        const CliResult rm = runCli(
            {QStringLiteral("profile"), mg, QStringLiteral("--tree"), QStringLiteral("--json")});
        QCOMPARE(rm.exitCode, 0);
        const QJsonArray mgTree = jsonOf(rm).value(QLatin1String("tree")).toArray();
        const std::vector<Row> mgRows = {
            {{"mg_mpi"}, 4, Q_INT64_C(2893500742), 1009605},
            {{"mg_mpi", "MPI_Init"}, 4, Q_INT64_C(1247906576), Q_INT64_C(1247906576)},
            {{"mg_mpi", "mg3p"}, 20, 681730840, 101549},
            {{"mg_mpi", "zran3"}, 8, 649622496, 429498470},
            {{"mg_mpi", "mg3p", "psinv", "comm3", "give3", "MPI_Send"}, 840, 226701906, 226701906},
        };
        int paths = 0;
        const std::function<void(const QJsonArray&)> count = [&](const QJsonArray& level) {
            for (const QJsonValue& v : level) {
                ++paths;
                count(v.toObject().value(QLatin1String("children")).toArray());
            }
        };
        count(mgTree);
        QCOMPARE(paths, 65);
        for (const Row& row : mgRows) {
            const QJsonObject n = findJson(mgTree, row.path);
            QVERIFY2(!n.isEmpty(), qPrintable(row.path.join(QLatin1Char('>'))));
            QCOMPARE(n.value(QLatin1String("visits")).toInteger(), row.visits);
            QVERIFY(qAbs(n.value(QLatin1String("inclusive_ns")).toInteger() - row.inclusive) <=
                    row.visits);
            QVERIFY(qAbs(n.value(QLatin1String("exclusive_ns")).toInteger() - row.exclusive) <=
                    2 * row.visits);
        }
    }

    void csvIsRefused()
    {
        const QString anchor = traceAnchor(QStringLiteral("casita-mpi-late-sender-barrier-4r"));
        if (anchor.isEmpty()) QSKIP("casita-mpi-late-sender-barrier-4r is not available");
        const CliResult csv = runCli(
            {QStringLiteral("profile"), anchor, QStringLiteral("--tree"), QStringLiteral("--csv")});
        QCOMPARE(csv.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCallTree)
#include "tst_calltree.moc"
