#pragma once
// One extrapolation as the GUI shows it: the results of both methods (either may be absent:
// the user asked for one, or the classic one ran in sum mode without intervals), the names of
// the input traces and of the measured one, and that trace itself (to place the tab next to it).
// With the automatic choice (§4.4b) it also holds which method won and every method's score;
// the winner is shown first.

#include "model/trace/trace.h"
#include "whatif/extrap/extrapolation.h"

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

namespace rankscope {

struct ExtrapolationRun
{
    std::optional<extrap::ExtrapolationResult> rankscope;
    std::optional<extrap::ExtrapolationResult> classic;
    QStringList traceNames; ///< the small-scale traces, ascending by scale
    QString measuredName;   ///< empty without a measured trace
    std::weak_ptr<const Trace> measured;
    uint32_t target = 0;
    /// Set when the method was chosen automatically: the winner, and every candidate scored.
    std::optional<extrap::Method> autoChosen;
    std::vector<extrap::MethodCandidate> candidates;

    /// The result shown first: the automatic choice, else Rankscope when present.
    const extrap::ExtrapolationResult* primary() const
    {
        if (autoChosen)
            if (const extrap::ExtrapolationResult* r = result(*autoChosen)) return r;
        return rankscope ? &*rankscope : classic ? &*classic : nullptr;
    }
    const extrap::ExtrapolationResult* result(extrap::Method m) const
    {
        const auto& r = m == extrap::Method::Classic ? classic : rankscope;
        return r ? &*r : nullptr;
    }
};

} // namespace rankscope

Q_DECLARE_METATYPE(rankscope::ExtrapolationRun)
