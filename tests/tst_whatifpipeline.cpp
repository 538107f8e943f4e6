// The what-if pipeline (whatif/scenario/whatifpipeline.h) against independent computations:
// the baseline and edited replays are netsim::simulate on the unedited and the edited spec, the
// effect their difference; an edit of a link class no message crosses is flagged; a scale
// prediction's baseline is the synthesis on the unedited spec; a replay calibrated "on" uses the
// fit only when it helps.

#include "importers/otf2/otf2reader.h"
#include "model/generator/tracegenerator.h"
#include "model/trace/traceerror.h"
#include "testsupport/bundledspec.h"
#include "testsupport/testpaths.h"
#include "whatif/netsim/simulation.h"
#include "whatif/scenario/whatifpipeline.h"

#include <QTest>
#include <memory>

using namespace rankscope;

namespace {

std::shared_ptr<const Trace> stencil(uint32_t ranks)
{
    GeneratorOptions o;
    o.pattern = "stencil2d";
    o.ranks = ranks;
    o.iterations = 3;
    return std::make_shared<const Trace>(generateTrace(o));
}

whatif::Scenario replay(const netsim::NetworkSpec& spec)
{
    whatif::Scenario s;
    s.name = "replay";
    s.baselines = {"s16"};
    s.network = spec.source;
    return s;
}

int64_t mpiSum(const netsim::SimulationResult& r)
{
    int64_t sum = 0;
    for (const netsim::RankTimes& t : r.perRank)
        sum += t.mpiNs;
    return sum;
}

} // namespace

class TestWhatIfPipeline : public QObject
{
    Q_OBJECT

private slots:
    void effectIsEditedMinusBaseline()
    {
        const auto trace = stencil(16);
        const netsim::NetworkSpec spec = test::bundledSpec("ib-switch");
        whatif::Scenario s = replay(spec);
        s.overrides = {{"links.hdr.latency", "20us"}};
        whatif::WhatIfInputs in;
        in.fileSpec = spec;
        in.baselines = {trace};
        const whatif::WhatIfResult r = whatif::runWhatIf(s, in);
        // The two replays, run here on their own.
        const netsim::SimulationResult base = netsim::simulate(*trace, spec, {});
        const netsim::SimulationResult edited =
            netsim::simulate(*trace, spec.withOverrides(s.overrides), {});
        QVERIFY(edited.predictedRuntimeNs > base.predictedRuntimeNs); // 40x the latency
        QCOMPARE(r.baseline->runNs, base.predictedRuntimeNs);
        QCOMPARE(r.baseline->mpiNs, mpiSum(base));
        QCOMPARE(r.measured->runNs, base.inputRuntimeNs);
        QCOMPARE(r.runs.size(), size_t(1));
        const whatif::WhatIfPoint& p = r.runs.front();
        QCOMPARE(p.predicted.runNs, edited.predictedRuntimeNs);
        QCOMPARE(*p.effectNs, edited.predictedRuntimeNs - base.predictedRuntimeNs);
        QCOMPARE(*p.effectPct, 100.0 * double(*p.effectNs) / double(base.predictedRuntimeNs));
        QCOMPARE(*p.errorPct, 100.0 * double(edited.predictedRuntimeNs - base.inputRuntimeNs) /
                                  double(base.inputRuntimeNs));
        QCOMPARE(*r.baselineErrorPct, 100.0 *
                                          double(base.predictedRuntimeNs - base.inputRuntimeNs) /
                                          double(base.inputRuntimeNs));
        QVERIFY(p.waitNs.has_value());
        QVERIFY(r.idleEdits.empty()); // 16 ranks on 16 nodes: every message crosses hdr
    }

    void editOfAnIdleLinkIsFlagged()
    {
        // All 16 ranks on one node: every message stays in shared memory, so an edit of the
        // hdr links cannot change anything, and says so.
        const auto trace = stencil(16);
        const netsim::NetworkSpec spec = test::bundledSpec("ib-switch");
        whatif::Scenario s = replay(spec);
        s.baselineOverrides = {{"ranks_per_node", "16"}};
        s.overrides = {{"links.hdr.latency", "20us"}};
        whatif::WhatIfInputs in;
        in.fileSpec = spec;
        in.baselines = {trace};
        const whatif::WhatIfResult r = whatif::runWhatIf(s, in);
        QCOMPARE(*r.runs.front().effectNs, int64_t(0));
        QCOMPARE(r.idleEdits.size(), size_t(1));
        QCOMPARE(r.idleEdits.front().first, std::string("links.hdr.latency"));
        QVERIFY(r.idleEdits.front().second.find("shm") != std::string::npos);
        QCOMPARE(r.warnings.size(), size_t(1));
    }

    void sweepPointsAgainstOneBaseline()
    {
        const auto trace = stencil(16);
        const netsim::NetworkSpec spec = test::bundledSpec("ib-switch");
        whatif::Scenario s = replay(spec);
        s.sweepParam = "links.hdr.latency";
        s.sweepValues = {"1us", "10us", "100us"};
        whatif::WhatIfInputs in;
        in.fileSpec = spec;
        in.baselines = {trace};
        std::vector<int> seen;
        whatif::WhatIfOptions o;
        o.onPoint = [&](const whatif::WhatIfPoint& p) { seen.push_back(p.index); };
        const whatif::WhatIfResult r = whatif::runWhatIf(s, in, o);
        std::sort(seen.begin(), seen.end());
        QCOMPARE(seen, (std::vector<int>{0, 1, 2}));
        QCOMPARE(r.runs.size(), size_t(3));
        for (size_t i = 0; i < 3; ++i) {
            const netsim::SimulationResult direct = netsim::simulate(
                *trace, spec.withOverrides({{s.sweepParam, s.sweepValues[i]}}), {});
            QCOMPARE(r.runs[i].value, s.sweepValues[i]);
            QCOMPARE(r.runs[i].predicted.runNs, direct.predictedRuntimeNs);
            QCOMPARE(*r.runs[i].effectNs, direct.predictedRuntimeNs - r.baseline->runNs);
        }
        QVERIFY(r.runs[0].predicted.runNs < r.runs[2].predicted.runNs);
    }

    void scaleBaselineIsTheUneditedSynthesis()
    {
        std::vector<std::shared_ptr<const Trace>> inputs = {stencil(16), stencil(36), stencil(64)};
        const netsim::NetworkSpec spec = test::bundledSpec("ib-switch");
        whatif::Scenario s;
        s.name = "scale";
        s.kind = whatif::ScenarioKind::Scale;
        s.baselines = {"s16", "s36", "s64"};
        s.network = spec.source;
        s.target = 100;
        s.calibrate = "off";
        s.overrides = {{"links.hdr.latency", "50us"}};
        whatif::WhatIfInputs in;
        in.fileSpec = spec;
        in.baselines = inputs;
        in.measured = stencil(100);
        const whatif::WhatIfResult r = whatif::runWhatIf(s, in);
        QVERIFY(!r.calibration); // calibrate: off
        const whatif::WhatIfPoint& p = r.runs.front();
        QCOMPARE(p.ranks, 100u);
        QVERIFY(p.baseline.has_value());
        // The same synthesis without the edit, here on its own.
        whatif::Scenario unedited = s;
        unedited.overrides.clear();
        const whatif::WhatIfResult plain = whatif::runWhatIf(unedited, in);
        QCOMPARE(p.baseline->runNs, plain.runs.front().predicted.runNs);
        QVERIFY(p.predicted.runNs > p.baseline->runNs); // 100x the link latency
        QCOMPARE(*p.effectNs, p.predicted.runNs - p.baseline->runNs);
        QVERIFY(p.structure.has_value());
        QCOMPARE(p.structure->predictedMessages, p.structure->measuredMessages);
        QVERIFY(p.errorPct.has_value());
    }

    void replayCalibratedOnlyWhenItHelps()
    {
        const QString anchor = test::sharedTraceAnchor("casita-jacobi-mpi-cuda-2r");
        if (anchor.isEmpty()) QFAIL("../shared/traces/casita-jacobi-mpi-cuda-2r is missing");
        auto trace = std::make_shared<const Trace>(readOtf2(anchor.toStdString()));
        const netsim::NetworkSpec spec = test::bundledSpec("ib-switch");
        whatif::Scenario s = replay(spec);
        s.calibrate = "on";
        whatif::WhatIfInputs in;
        in.fileSpec = spec;
        in.baselines = {trace};
        const whatif::WhatIfResult r = whatif::runWhatIf(s, in);
        QVERIFY(r.calibration.has_value());
        QVERIFY(!r.calibration->applied);
        // Not applied: the baseline is the replay on the spec as it was.
        QCOMPARE(r.baseline->runNs, netsim::simulate(*trace, spec, {}).predictedRuntimeNs);
    }

    void invalidScenarioNamesItself()
    {
        whatif::Scenario s;
        s.name = "broken";
        s.kind = whatif::ScenarioKind::Scale;
        s.baselines = {"a"};
        s.network = "ib-switch";
        s.target = 8;
        bool threw = false;
        try {
            whatif::runWhatIf(s, {});
        } catch (const TraceError& e) {
            threw = std::string(e.what()).find("scenario 'broken'") != std::string::npos;
        }
        QVERIFY(threw);
    }
};

QTEST_GUILESS_MAIN(TestWhatIfPipeline)
#include "tst_whatifpipeline.moc"
