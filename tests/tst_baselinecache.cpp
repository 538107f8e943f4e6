// The what-if explorer's baseline replays (whatif/scenario/baselinecache.h): one replay per
// trace, spec and model, equal to a direct replay on the unedited spec.

#include "model/generator/tracegenerator.h"
#include "whatif/netsim/simulation.h"
#include "whatif/scenario/baselinecache.h"

#include <QTest>

using namespace rankscope;

namespace {

constexpr const char* kSpec = R"(name: flat
nodes: 8
ranks_per_node: 1
links:
  l: {latency: 2us, bandwidth: 10GB/s}
networks:
  n: {topology: crossbar, link: l}
)";

} // namespace

class TestBaselineCache : public QObject
{
    Q_OBJECT

private slots:
    void replaysOncePerTraceSpecAndModel()
    {
        GeneratorOptions g;
        g.pattern = "pingpong";
        g.ranks = 4;
        g.iterations = 5;
        auto trace = std::make_shared<const Trace>(generateTrace(g));
        const netsim::NetworkSpec spec = netsim::NetworkSpec::fromString(kSpec, "flat.yaml");
        whatif::BaselineCache cache;
        const whatif::BaselineReplay a = cache.get(trace, spec, "loggp");
        const whatif::BaselineReplay b = cache.get(trace, spec, "loggp");
        QCOMPARE(cache.replays(), size_t(1));
        QVERIFY(a == b);
        const netsim::SimulationResult direct =
            netsim::simulate(*trace, spec, netsim::SimulationOptions{});
        QCOMPARE(a.baseline.runNs, direct.predictedRuntimeNs);
        QCOMPARE(a.measured.runNs, direct.inputRuntimeNs);
        QCOMPARE(a.span, std::string("mpi_init_end_to_finalize_end"));
        // Another model, another spec: new replays; the same again: none.
        cache.get(trace, spec, "flow");
        cache.get(trace, spec.withOverrides({{"links.l.latency", "4us"}}), "loggp");
        cache.get(trace, spec, "flow");
        QCOMPARE(cache.replays(), size_t(3));
        // The effect of an edit against it: slower by the difference.
        const whatif::EditedRun e = whatif::editedRun("", a, {a.baseline.runNs + 500, 0});
        QCOMPARE(e.effectNs, 500);
        QCOMPARE(*e.effectPct, 100.0 * 500 / double(a.baseline.runNs));
    }
};

QTEST_GUILESS_MAIN(TestBaselineCache)
#include "tst_baselinecache.moc"
