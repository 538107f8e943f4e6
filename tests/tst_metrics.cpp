// Metrics (hardware counters): OTF2 metric records imported as metric columns per location,
// and the counter delta per region (model/metrics/metricprofile.h). A hand-built trace checks
// the rules (nesting, a Leave and an Enter sharing a timestamp, a gauge that is no running
// total); the real PAPI trace checks the import and the profile against figures computed from
// otf2-print's listing alone, and `rankscope-cli metrics` prints them.

#include "importers/otf2/otf2reader.h"
#include "model/metrics/metricprofile.h"
#include "testsupport/clirunner.h"
#include "testsupport/handtrace.h"
#include "testsupport/testpaths.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

using namespace rankscope;
using namespace rankscope::test;

namespace {

const MetricRegion* find(const Trace& t, const MetricProfile& p, std::string_view metric,
                         std::string_view region)
{
    for (const MetricRegion& r : p.regions)
        if (t.metricName(r.metric) == metric && t.regionName(r.region) == region) return &r;
    return nullptr;
}

} // namespace

class TestMetrics : public QObject
{
    Q_OBJECT

private slots:
    void handBuilt()
    {
        HandTrace h;
        TraceBuilder& b = h.builder();
        const LocationId r0 = h.addRank(), r1 = h.addRank();
        h.addWorld();
        const RegionId main = h.user("main"), foo = h.user("foo");
        const MetricId cyc = b.addMetric(Metric{b.intern("CYC"),
                                                {},
                                                b.intern("#"),
                                                MetricMode::AccumulatedStart,
                                                MetricValueType::Uint64});
        const MetricId temp = b.addMetric(Metric{b.intern("TEMP"),
                                                 {},
                                                 b.intern("C"),
                                                 MetricMode::AbsolutePoint,
                                                 MetricValueType::Int64});
        auto sample = [&](LocationId l, int64_t t, uint64_t v) { b.metric(l, t, &cyc, &v, 1); };
        // Rank 0: main [0, 40] holding foo [10, 20] and foo [20, 30]; at 20 the Leave takes
        // the first sample of that time (250) and the Enter the second (260).
        sample(r0, 0, 100);
        h.enter(r0, 0, main);
        sample(r0, 10, 150);
        h.enter(r0, 10, foo);
        sample(r0, 20, 250);
        h.leave(r0, 20, foo);
        sample(r0, 20, 260);
        h.enter(r0, 20, foo);
        sample(r0, 30, 300);
        h.leave(r0, 30, foo);
        sample(r0, 40, 400);
        h.leave(r0, 40, main);
        // Rank 1: main [0, 9] holding foo [5, 7]; a gauge sampled at 5 (42) and 7 (40).
        sample(r1, 0, 0);
        h.enter(r1, 0, main);
        sample(r1, 5, 10);
        const uint64_t t42 = 42;
        b.metric(r1, 5, &temp, &t42, 1);
        h.enter(r1, 5, foo);
        const MetricId both[] = {cyc, temp};
        const uint64_t at7[] = {30, 40};
        b.metric(r1, 7, both, at7, 2);
        h.leave(r1, 7, foo);
        sample(r1, 9, 50);
        h.leave(r1, 9, main);
        const Trace t = h.finish();

        QCOMPARE(t.metricRecords(), uint64_t(11));
        QCOMPARE(t.eventCount(), uint64_t(6 + 4 + 11));
        QCOMPARE(t.metricColumns().size(), size_t(3));
        QCOMPARE(t.metricColumn(r1, temp)->times, (std::vector<int64_t>{5, 7}));

        const MetricProfile p = computeMetricProfile(t);
        QCOMPARE(p.metrics.size(), size_t(2));
        // CYC: rank 0 400 - 100, rank 1 50 - 0.
        QCOMPARE(p.metrics[0].byRank, (std::vector<double>{300, 50}));
        QCOMPARE(p.metrics[0].samples, uint64_t(6 + 4)); // CYC samples; TEMP has its own
        QCOMPARE(p.metrics[0].locations, uint32_t(2));
        QVERIFY(!p.metrics[1].accumulated);
        QCOMPARE(p.metrics[1].samples, uint64_t(2));
        QCOMPARE(p.metrics[1].minValue, 40.0);
        QCOMPARE(p.metrics[1].maxValue, 42.0);
        // foo: 250 - 150 = 100 and 300 - 260 = 40 on rank 0, 30 - 10 = 20 on rank 1.
        // main: 400 - 100 = 300 (exclusive 300 - 140 = 160) and 50 - 0 = 50 (exclusive 30).
        QCOMPARE(p.regions.size(), size_t(2));
        const MetricRegion expectMain{cyc, main, 2, 350, 190, 50, 300, {300, 50}, {160, 30}};
        const MetricRegion expectFoo{cyc, foo, 3, 160, 160, 20, 100, {140, 20}, {140, 20}};
        QCOMPARE(p.regions[0], expectMain); // largest exclusive first
        QCOMPARE(p.regions[1], expectFoo);
        QCOMPARE(p.regions[1].meanPerCall(), 160.0 / 3);
    }

    void papiImport()
    {
        const QString anchor = sharedTraceAnchor(QStringLiteral("pipit-ping-pong-papi-2r"));
        if (anchor.isEmpty()) QSKIP("shared trace not present");
        const Trace t = readOtf2(anchor.toStdString());
        // otf2-print: 204 events, 42 METRIC records per location, each with PAPI_TOT_CYC,
        // PAPI_L2_TCM and PAPI_BR_MSP (METRIC_MEMBER 0-2, ACCUMULATED_START, UINT64).
        QCOMPARE(t.eventCount(), uint64_t(204));
        QCOMPARE(t.metricRecords(), uint64_t(84));
        QCOMPARE(t.metrics().size(), size_t(3));
        QCOMPARE(std::string(t.metricName(MetricId(0))), std::string("PAPI_TOT_CYC"));
        QCOMPARE(std::string(t.metricName(MetricId(2))), std::string("PAPI_BR_MSP"));
        QCOMPARE(std::string(t.str(t.metric(MetricId(1)).unit)), std::string("#"));
        QCOMPARE(t.metricColumns().size(), size_t(6));
        for (const MetricColumn& c : t.metricColumns())
            QCOMPARE(c.size(), size_t(42));
        for (const MiscEvent& m : t.miscEvents())
            QVERIFY(m.kind != MiscKind::Other || t.str(StringId(m.detail)) != "METRIC");
        // First METRIC of location 0: PAPI_TOT_CYC 98850, PAPI_L2_TCM 2191, PAPI_BR_MSP 421.
        QCOMPARE(t.metricColumn(LocationId(0), MetricId(0))->raw.front(), uint64_t(98850));
        QCOMPARE(t.metricColumn(LocationId(0), MetricId(2))->raw.front(), uint64_t(421));
    }

    void papiProfile()
    {
        const QString anchor = sharedTraceAnchor(QStringLiteral("pipit-ping-pong-papi-2r"));
        if (anchor.isEmpty()) QSKIP("shared trace not present");
        const Trace t = readOtf2(anchor.toStdString());
        const MetricProfile p = computeMetricProfile(t);
        // From otf2-print alone: an awk script keeps each location's latest METRIC values,
        // pushes them at ENTER and at LEAVE adds the difference to the region (and to the
        // parent's children):
        //   otf2-print traces.otf2 | awk '$1=="METRIC"{...v[loc,name]=value}
        //     $1=="ENTER"{push v[loc,"PAPI_TOT_CYC"]} $1=="LEAVE"{inc=v-pop; I[r]+=inc; ...}'
        // PAPI_TOT_CYC: MPI_Send 16 calls, 12452840 (rank 0 6383893, rank 1 6068947);
        // MPI_Recv 16, 608601 (258976, 349625); MPI_Init 2, 140221084; main 2 calls,
        // inclusive 156147353, exclusive 2454193. Last minus first sample per location:
        // 95986038 and 60161315. PAPI_L2_TCM of MPI_Send: 8190 over 16 calls, 214 to 1429.
        const MetricRegion* send = find(t, p, "PAPI_TOT_CYC", "MPI_Send");
        QVERIFY(send);
        QCOMPARE(send->calls, uint64_t(16));
        QCOMPARE(send->inclusive, 12452840.0);
        QCOMPARE(send->inclusiveByRank, (std::vector<double>{6383893, 6068947}));
        const MetricRegion* recv = find(t, p, "PAPI_TOT_CYC", "MPI_Recv");
        QVERIFY(recv);
        QCOMPARE(recv->inclusive, 608601.0);
        QCOMPARE(recv->inclusiveByRank, (std::vector<double>{258976, 349625}));
        QCOMPARE(find(t, p, "PAPI_TOT_CYC", "MPI_Init")->inclusive, 140221084.0);
        const MetricRegion* main = find(t, p, "PAPI_TOT_CYC", "int main(int, char**)");
        QVERIFY(main);
        QCOMPARE(main->calls, uint64_t(2));
        QCOMPARE(main->inclusive, 156147353.0);
        QCOMPARE(main->exclusive, 2454193.0);
        QCOMPARE(p.metrics[0].byRank, (std::vector<double>{95986038, 60161315}));
        const MetricRegion* l2 = find(t, p, "PAPI_L2_TCM", "MPI_Send");
        QVERIFY(l2);
        QCOMPARE(l2->inclusive, 8190.0);
        QCOMPARE(l2->minPerCall, 214.0);
        QCOMPARE(l2->maxPerCall, 1429.0);
    }

    void cli()
    {
        const QString anchor = sharedTraceAnchor(QStringLiteral("pipit-ping-pong-papi-2r"));
        if (anchor.isEmpty()) QSKIP("shared trace not present");
        const CliResult r = runCli({QStringLiteral("metrics"), anchor, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray metrics = jsonOf(r).value(QLatin1String("metrics")).toArray();
        QCOMPARE(metrics.size(), 3);
        const QJsonObject cyc = metrics.at(0).toObject();
        QCOMPARE(cyc.value(QLatin1String("name")).toString(), QStringLiteral("PAPI_TOT_CYC"));
        QCOMPARE(cyc.value(QLatin1String("total")).toInteger(), 95986038 + 60161315);
        QCOMPARE(cyc.value(QLatin1String("samples")).toInteger(), 84);
        bool sawSend = false;
        for (const QJsonValue& v : cyc.value(QLatin1String("regions")).toArray()) {
            const QJsonObject o = v.toObject();
            if (o.value(QLatin1String("region")).toString() != QLatin1String("MPI_Send")) continue;
            sawSend = true;
            QCOMPARE(o.value(QLatin1String("calls")).toInteger(), 16);
            QCOMPARE(o.value(QLatin1String("inclusive")).toInteger(), 12452840);
            QCOMPARE(o.value(QLatin1String("mean_per_call")).toDouble(), 12452840.0 / 16);
            QCOMPARE(o.value(QLatin1String("inclusive_by_rank")).toArray().at(1).toInteger(),
                     6068947);
        }
        QVERIFY(sawSend);

        const CliResult csv = runCli({QStringLiteral("metrics"), anchor, QStringLiteral("--csv")});
        QCOMPARE(csv.exitCode, 0);
        QVERIFY2(csv.out.contains("PAPI_TOT_CYC,MPI_Send,all,16,12452840,12452840,"),
                 csv.out.constData());
        QVERIFY(csv.out.contains("PAPI_TOT_CYC,MPI_Send,1,,6068947,6068947,,,"));

        const CliResult info = runCli({QStringLiteral("info"), anchor, QStringLiteral("--json")});
        QCOMPARE(jsonOf(info).value(QLatin1String("events")).toInteger(), 204);
        QCOMPARE(jsonOf(info).value(QLatin1String("metric_records")).toInteger(), 84);
    }

    void noMetrics()
    {
        const QString anchor = sharedTraceAnchor(QStringLiteral("pipit-ping-pong-2r"));
        if (anchor.isEmpty()) QSKIP("shared trace not present");
        const CliResult r = runCli({QStringLiteral("metrics"), anchor});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("no metrics recorded"));
    }
};

QTEST_GUILESS_MAIN(TestMetrics)
#include "tst_metrics.moc"
