#include "whatif/extrap/seriesfit.h"

#include <cmath>
#include <limits>

namespace rankscope::extrap {

double powerLog2(double x, double e, int logPower)
{
    double v = e == 0 ? 1.0 : std::pow(x, e);
    for (int p = 0; p < logPower; ++p)
        v *= std::log2(x);
    return v;
}

double evaluate(const CandidateModel& model, double n, double s)
{
    double v = 0;
    for (const ModelTerm& t : model.function) {
        double factor = powerLog2(n, t.i, t.j);
        if (t.k != 0 || t.l != 0) {
            if (!(s > 0)) return std::numeric_limits<double>::quiet_NaN();
            factor *= powerLog2(s, t.k, t.l);
        }
        v += t.coefficient * factor;
    }
    return v;
}

bool dependsOnProblemSize(const CandidateModel& model)
{
    for (const ModelTerm& t : model.function)
        if (t.k != 0 || t.l != 0) return true;
    return false;
}

} // namespace rankscope::extrap
