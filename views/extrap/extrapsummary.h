#pragma once
// The one-line summary above an extrapolation: target and input scales, the predicted
// max S(r) with its interval, the measured value, accuracy and W1 of both methods side by side
// (ALGORITHMS.md §4: the Rankscope method must say so when it beats the classic one), and the
// intervals that could not be predicted.

#include "views/extrap/extraprun.h"

#include <QString>

namespace rankscope {

struct ExtrapolationSummary
{
    QString text;    ///< one line, plain text
    QString toolTip; ///< the details, e.g. every missing interval
};

/// The summary of `run` with `shown`'s numbers first.
ExtrapolationSummary summarizeExtrapolation(const ExtrapolationRun& run, extrap::Method shown);

/// "Rankscope" / "Classic (sum mode)" / "Classic (interval mode)".
QString methodLabel(const extrap::ExtrapolationResult& result);

} // namespace rankscope
