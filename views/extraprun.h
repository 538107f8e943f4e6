#pragma once
// One extrapolation as the GUI shows it: the results of both methods (either may be absent:
// the user asked for one, or the classic one ran in sum mode without intervals), the names of
// the input traces and of the measured one, and that trace itself (to place the tab next to it).

#include "model/trace.h"
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
    QStringList traceNames;   ///< the small-scale traces, ascending by scale
    QString measuredName;     ///< empty without a measured trace
    std::weak_ptr<const Trace> measured;
    uint32_t target = 0;

    /// The result shown first: Rankscope when present.
    const extrap::ExtrapolationResult* primary() const
    {
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
