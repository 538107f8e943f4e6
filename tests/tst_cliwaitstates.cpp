// End-to-end tests of `rankscope-cli waitstates`: the real binary run with QProcess. Expected
// numbers for casita-mpi-late-sender-barrier-4r (checked in under resources/demo/traces, so
// these run without ../shared as well) are computed by hand from otf2-print output (the
// derivation is in tst_waitstates.cpp, sharedLateSenderBarrierTrace).

#include "testsupport/clirunner.h"
#include "testsupport/testpaths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

namespace {

using rankscope::test::CliResult;
using rankscope::test::runCli;

/// Runs the rankscope-cli built with these tests.

} // namespace

class TestCliWaitStates : public QObject
{
    Q_OBJECT

private slots:
    void json()
    {
        const QString trace = rankscope::test::traceAnchor("casita-mpi-late-sender-barrier-4r");
        QVERIFY(!trace.isEmpty()); // checked in
        const CliResult r = runCli({"waitstates", trace, "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value("total_wait_ns").toInteger(), 51429839525);
        const QJsonObject p = o.value("by_pattern").toObject();
        QCOMPARE(p.keys(), (QStringList{"early_reduce", "late_broadcast", "late_receiver",
                                        "late_sender", "wait_at_barrier", "wait_at_nxn"}));
        QCOMPARE(p.value("late_sender").toInteger(), 30020572978);
        QCOMPARE(p.value("wait_at_barrier").toInteger(), 21409266547);
        QCOMPARE(p.value("late_receiver").toInteger(), 0);
        QCOMPARE(o.value("direct_ns").toInteger(), 30434080586);
        QCOMPARE(o.value("indirect_ns").toInteger(), 20995758939);
        const QJsonArray ranks = o.value("by_rank").toArray();
        QCOMPARE(ranks.size(), 4);
        QCOMPARE(ranks.at(0).toInteger(), 0);
        QCOMPARE(ranks.at(3).toInteger(), 10990433990 + 6730308390);
        const QJsonArray sites = o.value("by_callsite").toArray();
        QCOMPARE(sites.size(), 2);
        const QJsonObject first = sites.at(0).toObject();
        QCOMPARE(first.value("callsite").toString(), "main>late_sender:MPI_Recv");
        QCOMPARE(first.value("pattern").toString(), "late_sender");
        QCOMPARE(first.value("wait_ns").toInteger(), 30020572978);
        QCOMPARE(first.value("occurrences").toInteger(), 3);
    }

    void text()
    {
        const QString trace = rankscope::test::traceAnchor("casita-mpi-late-sender-barrier-4r");
        QVERIFY(!trace.isEmpty()); // checked in
        const CliResult r = runCli({"waitstates", trace});
        QCOMPARE(r.exitCode, 0);
        // 51429839525 ns, 30020572978 ns, 21409266547 ns at four significant digits.
        QVERIFY(r.out.contains("total waiting time: 51.43 s"));
        QVERIFY(r.out.contains("Late Sender"));
        QVERIFY(r.out.contains("30.02 s"));
        QVERIFY(r.out.contains("21.41 s"));
        QVERIFY(r.out.contains("main>barrier:MPI_Barrier"));
    }

    void eagerLimitOption()
    {
        // No message of this trace is synchronising at any limit: Score-P recorded no MPI_Ssend,
        // and its messages are tiny. An eager limit of 0 makes every send rendezvous, and all
        // three sends were entered after their receives: still no Late Receiver.
        const QString trace = rankscope::test::traceAnchor("casita-mpi-late-sender-barrier-4r");
        QVERIFY(!trace.isEmpty()); // checked in
        const CliResult r = runCli({"waitstates", trace, "--eager-limit", "0", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value("by_pattern").toObject().value("late_receiver").toInteger(), 0);
        QCOMPARE(o.value("total_wait_ns").toInteger(), 51429839525);
    }

    void errors()
    {
        QCOMPARE(runCli({"waitstates", "/nonexistent/trace.otf2"}).exitCode, 1);
        QCOMPARE(runCli({"waitstates"}).exitCode, 2);
        const QString trace = rankscope::test::traceAnchor("casita-mpi-late-sender-barrier-4r");
        QVERIFY(!trace.isEmpty()); // checked in
        QCOMPARE(runCli({"waitstates", trace, "--eager-limit", "lots"}).exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliWaitStates)
#include "tst_cliwaitstates.moc"
