// Every fitter stores the function it fitted (CandidateModel::function) and extrap::evaluate
// reads it: fitted on samples of a known function, a candidate of that function's form gives
// the function's hand-computed value at a new scale; on noisy samples every candidate's
// function gives its own prediction at the target; and the fit plot's curve comes from the
// stored function, not from refitting.

#include "views/extrap/extrapcurve.h"
#include "whatif/extrap/classicmodels.h"
#include "whatif/extrap/countmodel.h"
#include "whatif/extrap/pmnf.h"

#include <QTest>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

using namespace rankscope;
using namespace rankscope::extrap;

namespace {

using Function = std::function<double(double)>;

const std::vector<double> kScales = {4, 8, 16, 32, 64};

std::vector<FitPoint> sample(const Function& f, const std::vector<double>& ns = kScales)
{
    std::vector<FitPoint> p;
    for (double n : ns)
        p.push_back({n, 0, f(n)});
    return p;
}

bool near(double a, double b, double rel)
{
    return std::abs(a - b) <= rel * std::max(1.0, std::abs(b));
}

/// The candidate called `name`; fails the test when there is none.
const CandidateModel* candidate(const SeriesFit& s, const std::string& name)
{
    for (const CandidateModel& c : s.models)
        if (c.name == name) return &c;
    return nullptr;
}

/// Every candidate's function at the target against its prediction there. Not bit for bit:
/// the fitters compute the prediction in their own form (a dot product of design row and
/// coefficients; classic k / n where the terms hold k * n^-1), so the two may differ by
/// rounding, 1e-12 relative at most.
void checkEveryCandidate(const SeriesFit& s, double target, double targetS = 0)
{
    QVERIFY(!s.models.empty());
    for (const CandidateModel& c : s.models) {
        QVERIFY2(!c.function.empty(), c.name.c_str());
        const double v = evaluate(c, target, targetS);
        QVERIFY2(near(v, c.prediction, 1e-12), qPrintable(QStringLiteral("%1: %2 against %3")
                                                              .arg(QString::fromStdString(c.name))
                                                              .arg(v, 0, 'g', 17)
                                                              .arg(c.prediction, 0, 'g', 17)));
    }
}

/// Samples of a real run, with their noise: the MG medians of tst_pmnf (ms) and a fourth scale.
const std::vector<FitPoint> kNoisy = {
    {4, 0, 163.5, 4.1}, {8, 0, 124.6, 3.3}, {16, 0, 60.4, 2.8}, {32, 0, 41.7, 2.5}};

} // namespace

class TestModelEvaluate : public QObject
{
    Q_OBJECT

private slots:
    void classic_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("which");
        QTest::addColumn<double>("at1024");
        // 7 at every scale: the constant 7.
        QTest::newRow("constant") << "constant" << 0 << 7.0;
        // 3 + 2 n: 3 + 2048 = 2051.
        QTest::newRow("linear") << "linear" << 1 << 2051.0;
        // 640 / n: 640 / 1024 = 0.625.
        QTest::newRow("inverse") << "inverse" << 2 << 0.625;
        // 5 + 256 / n, fitted as t n = 5 n + 256: 5 + 0.25 = 5.25.
        QTest::newRow("inverse_constant") << "inverse_constant" << 3 << 5.25;
    }

    void classic()
    {
        QFETCH(QString, model);
        QFETCH(int, which);
        QFETCH(double, at1024);
        const Function f[] = {[](double) { return 7.0; }, [](double n) { return 3 + 2 * n; },
                              [](double n) { return 640 / n; },
                              [](double n) { return 5 + 256 / n; }};
        const SeriesFit s = fitClassic(sample(f[which]), 64);
        const CandidateModel* c = candidate(s, model.toStdString());
        QVERIFY(c);
        QVERIFY2(near(evaluate(*c, 1024), at1024, 1e-9),
                 qPrintable(QString::number(evaluate(*c, 1024), 'g', 17)));
        // Between the samples too: at n = 10, 7; 23; 64; 30.6.
        const double at10[] = {7, 23, 64, 30.6};
        QVERIFY(near(evaluate(*c, 10), at10[which], 1e-9));
    }

    void classicUnclamped()
    {
        // t = 10 - n: the linear model predicts 10 - 20 = -10 at 20, clamped to 0 in the fit's
        // prediction only; the function is the model as fitted.
        const SeriesFit s = fitClassic(sample([](double n) { return 10 - n; }, {1, 2, 4}), 20);
        QCOMPARE(s.prediction, 0.0);
        QVERIFY(s.clamped);
        const CandidateModel* c = candidate(s, "linear");
        QVERIFY(c);
        QVERIFY(near(evaluate(*c, 20), -10, 1e-9));
    }

    void pmnf_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("which");
        QTest::addColumn<double>("at1024");
        // 3 + 2 n log2 n: 3 + 2 * 1024 * 10 = 20483.
        QTest::newRow("n log n") << "c0 + c1*n*log2(n)" << 0 << 20483.0;
        // 1 + 0.25 sqrt(n) log2(n)^2: 1 + 0.25 * 32 * 100 = 801.
        QTest::newRow("sqrt log^2") << "c0 + c1*n^(1/2)*log2(n)^2" << 1 << 801.0;
        // 10 + 64 / sqrt(n): 10 + 64 / 32 = 12.
        QTest::newRow("inverse sqrt") << "c0 + c1*n^(-1/2)" << 2 << 12.0;
        // 1e6 / n (no constant): 976.5625.
        QTest::newRow("inverse") << "inverse" << 3 << 976.5625;
        // 7: 7.
        QTest::newRow("constant") << "constant" << 4 << 7.0;
    }

    void pmnf()
    {
        QFETCH(QString, model);
        QFETCH(int, which);
        QFETCH(double, at1024);
        const Function f[] = {
            [](double n) { return 3 + 2 * n * std::log2(n); },
            [](double n) { return 1 + 0.25 * std::sqrt(n) * std::pow(std::log2(n), 2); },
            [](double n) { return 10 + 64 / std::sqrt(n); }, [](double n) { return 1e6 / n; },
            [](double) { return 7.0; }};
        const SeriesFit s = fitPmnf(sample(f[which]), 128);
        QCOMPARE(QString::fromStdString(s.chosenName()), model);
        const CandidateModel* c = candidate(s, model.toStdString());
        QVERIFY(c);
        QVERIFY(!dependsOnProblemSize(*c));
        QVERIFY2(near(evaluate(*c, 1024), at1024, 1e-9),
                 qPrintable(QString::number(evaluate(*c, 1024), 'g', 17)));
    }

    void pmnfProblemSize()
    {
        // t = 2 + 0.5 n s on a 3 x 3 grid: at (16, 80) 2 + 0.5 * 16 * 80 = 642, at (100, 3)
        // 2 + 150 = 152. Without a problem size the model has no value.
        std::vector<FitPoint> p;
        for (double n : {2.0, 4.0, 8.0})
            for (double size : {10.0, 20.0, 40.0})
                p.push_back({n, size, 2 + 0.5 * n * size});
        const SeriesFit s = fitPmnf(p, 16, 80);
        const CandidateModel* c = candidate(s, "c0 + c1*n*s");
        QVERIFY(c);
        QVERIFY(dependsOnProblemSize(*c));
        QVERIFY(near(evaluate(*c, 16, 80), 642, 1e-9));
        QVERIFY(near(evaluate(*c, 100, 3), 152, 1e-9));
        QVERIFY(std::isnan(evaluate(*c, 16)));
        checkEveryCandidate(s, 16, 80);
    }

    void count_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("which");
        QTest::addColumn<double>("at1024");
        // 2 + 3 log2 n: 2 + 30 = 32.
        QTest::newRow("log") << "{1, log2 n}" << 0 << 32.0;
        // 1 + 4 sqrt(n): 1 + 128 = 129.
        QTest::newRow("sqrt") << "{1, sqrt n}" << 1 << 129.0;
        // 2 + 512 / n: 2.5 (not rounded: the function is the model, the rounding is the fit's).
        QTest::newRow("inverse") << "{1, 1/n}" << 2 << 2.5;
        // 5 n: 5120.
        QTest::newRow("linear") << "{n}" << 3 << 5120.0;
    }

    void count()
    {
        QFETCH(QString, model);
        QFETCH(int, which);
        QFETCH(double, at1024);
        const Function f[] = {[](double n) { return 2 + 3 * std::log2(n); },
                              [](double n) { return 1 + 4 * std::sqrt(n); },
                              [](double n) { return 2 + 512 / n; }, [](double n) { return 5 * n; }};
        const SeriesFit s = fitCount(sample(f[which]), 128);
        const CandidateModel* c = candidate(s, model.toStdString());
        QVERIFY(c);
        QVERIFY2(near(evaluate(*c, 1024), at1024, 1e-9),
                 qPrintable(QString::number(evaluate(*c, 1024), 'g', 17)));
    }

    void everyCandidateGivesItsPrediction()
    {
        checkEveryCandidate(fitClassic(kNoisy, 128), 128);
        checkEveryCandidate(fitPmnf(kNoisy, 128), 128);
        checkEveryCandidate(fitPmnf(kNoisy, 100), 100);
        // Occurrence counts that are not a law: 12, 13, 17, 18, 24 per rank.
        const std::vector<FitPoint> counts = {
            {4, 0, 12}, {8, 0, 13}, {16, 0, 17}, {32, 0, 18}, {64, 0, 24}};
        checkEveryCandidate(fitCount(counts, 256), 256);
    }

    void curveFromStoredFunction()
    {
        // 3 + 2 n log2 n: at 2, 100 and 1024 that is 7, 3 + 200 log2(100), 20483.
        SeriesFit s = fitPmnf(sample([](double n) { return 3 + 2 * n * std::log2(n); }), 1024);
        QVERIFY(s.chosen >= 0);
        s.points.clear(); // nothing to refit from: the curve can only come from the function
        const std::vector<double> ns = {2, 100, 1024};
        const auto curve = evaluateCandidate(s, s.chosen, ns);
        QVERIFY(curve);
        QCOMPARE(curve->size(), size_t(3));
        QVERIFY(near((*curve)[0], 7, 1e-9));
        QVERIFY(near((*curve)[1], 3 + 200 * std::log2(100.0), 1e-9));
        QVERIFY(near((*curve)[2], 20483, 1e-9));
        QVERIFY(!evaluateCandidate(s, -1, ns));
        QVERIFY(!evaluateCandidate(s, int(s.models.size()), ns));
        // A candidate without a function (built by hand) has no curve.
        s.models[size_t(s.chosen)].function.clear();
        QVERIFY(!evaluateCandidate(s, s.chosen, ns));
    }

    void noCurveInNForProblemSizeModels()
    {
        // 2 + 0.5 n s: the model in (n, s) has no curve in n alone; a candidate in n alone
        // (c0 + c1*n) fitted on the same samples has one.
        std::vector<FitPoint> p;
        for (double n : {2.0, 4.0, 8.0})
            for (double size : {10.0, 20.0, 40.0})
                p.push_back({n, size, 2 + 0.5 * n * size});
        const SeriesFit s = fitPmnf(p, 16, 80);
        const std::vector<double> ns = {4, 16};
        int inNS = -1, inN = -1;
        for (size_t i = 0; i < s.models.size(); ++i) {
            if (s.models[i].name == "c0 + c1*n*s") inNS = int(i);
            if (s.models[i].name == "linear") inN = int(i);
        }
        QVERIFY(inNS >= 0 && inN >= 0);
        QVERIFY(!evaluateCandidate(s, inNS, ns));
        const auto line = evaluateCandidate(s, inN, ns);
        QVERIFY(line);
        // Least squares in n over the balanced grid gives the mean over s at each n:
        // 2 + 0.5 n (10 + 20 + 40) / 3 = 2 + 35 n / 3; at 16, 2 + 560 / 3.
        QVERIFY(near((*line)[1], 2 + 560.0 / 3, 1e-9));
    }
};

QTEST_GUILESS_MAIN(TestModelEvaluate)
#include "tst_modelevaluate.moc"
