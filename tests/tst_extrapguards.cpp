// Guards of the extrapolation that no fit quality overrides: a law that turns negative or turns
// around between the largest input scale and the target is never used (ALGORITHMS.md §4, item
// 7); a 1-rank run (no point-to-point calls: it has no partner) is the same program as its
// parallel runs.

#include "model/generator/tracegenerator.h"
#include "whatif/extrap/extrapolation.h"

#include <QTest>
#include <cmath>

using namespace rankscope;
using namespace rankscope::extrap;

namespace {

/// f(n) = n^(-1/2) * log2(n)^2, which rises to its maximum at n = e^4 (about 54.6) and falls after.
double bump(double n)
{
    return std::pow(n, -0.5) * std::pow(std::log2(n), 2);
}

} // namespace

class TestExtrapGuards : public QObject
{
    Q_OBJECT

private slots:
    void lawNegativeBeforeTheTargetIsRejected()
    {
        // t(n) = 4.2 - bump(n): 2.2, 1.02, 0.2 at 4, 8, 16 (all positive), about -0.29 at 54.6,
        // +0.2 again at 256 (worked by hand: bump(4) = 2, bump(8) = 3.18, bump(16) = 4,
        // bump(e^4) = 4.49, bump(256) = 4). The law fits the inputs exactly and is positive at
        // the target, yet it is negative in between: it must not be chosen.
        std::vector<FitPoint> points;
        for (double n : {2.0, 4.0, 8.0, 16.0})
            points.push_back({n, 0, 4.2 - bump(n), 0});
        const SeriesFit f = fitSeries(points, Method::Rankscope, 256);
        bool found = false;
        for (const CandidateModel& m : f.models)
            if (m.name == "c0 + c1*n^(-1/2)*log2(n)^2") {
                found = true;
                QVERIFY(!m.plausible);
            }
        QVERIFY(found);
        QVERIFY(f.chosen >= 0);
        QVERIFY(f.models[size_t(f.chosen)].name != "c0 + c1*n^(-1/2)*log2(n)^2");
    }

    void lawTurningAroundIsRejected()
    {
        // t(n) = 1 + bump(n): rises from 4 to 16 and would turn down after 54.6, before 256.
        std::vector<FitPoint> points;
        for (double n : {2.0, 4.0, 8.0, 16.0})
            points.push_back({n, 0, 1 + bump(n), 0});
        const SeriesFit f = fitSeries(points, Method::Rankscope, 256);
        for (const CandidateModel& m : f.models)
            if (m.name == "c0 + c1*n^(-1/2)*log2(n)^2") QVERIFY(!m.plausible);
        // Up to 50 ranks the same law does not turn: it stays usable.
        const SeriesFit near = fitSeries(points, Method::Rankscope, 50);
        for (const CandidateModel& m : near.models)
            if (m.name == "c0 + c1*n^(-1/2)*log2(n)^2") QVERIFY(m.plausible);
    }

    void serialRunIsTheSameProgram()
    {
        // A 1-rank stencil has no neighbours: it makes the Allreduce and none of the halo
        // exchange. It used to make the 4-rank run "not a trace of the same program".
        std::vector<Trace> traces;
        for (uint32_t n : {1u, 4u, 9u, 16u}) {
            GeneratorOptions o;
            o.pattern = "stencil2d";
            o.ranks = n;
            o.iterations = 3;
            traces.push_back(generateTrace(o));
        }
        ExtrapolationOptions o;
        o.target = 16;
        o.method = Method::Rankscope;
        const ExtrapolationResult r =
            extrapolate({&traces[0], &traces[1], &traces[2]}, o, &traces[3]);
        QCOMPARE(r.scales, (std::vector<uint32_t>{1, 4, 9}));
        QVERIFY(r.accuracyPct.has_value());
        QVERIFY(r.predictedMaxRankDeltaSum > 0);
    }
};

QTEST_GUILESS_MAIN(TestExtrapGuards)
#include "tst_extrapguards.moc"
