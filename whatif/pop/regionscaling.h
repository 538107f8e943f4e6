#pragma once
// Which code stops scaling (`rankscope-cli scaling`): for every region and every call path its
// exclusive time per rank (mean and max over ranks, model/profile/profile.h and calltree.h) at
// each scale of a set of runs of one program, and for every point-to-point send call site its
// messages and bytes per rank (mean over ranks, model/analysis/messagestats.h); each series
// fitted with the extrapolation engine's series fit (extrap::fitSeries, Rankscope's PMNF
// search: the `fit` command's models, selection and interval) and predicted at a target scale.
//
// Growth is the measured mean per rank at the largest scale over that at the smallest (> 1: the
// time per rank does not fall with the ranks, a scalability bug under strong scaling). Rows are
// listed by growth (largest first) or, with a target given, those whose time does not fall first
// and then by the predicted mean at the target. Rows match across runs by name; one present at
// fewer than 3 scales gets no fit (fitError says why), its growth still shows.

#include "whatif/extrap/seriesfit.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rankscope {
class Trace;
}

namespace rankscope::pop {

struct ScalingPoint
{
    uint32_t ranks = 0;
    double mean = 0; ///< per rank, mean over ranks
    double max = 0;  ///< per rank, max over ranks (regions only; = mean for call sites)
    bool operator==(const ScalingPoint&) const = default;
};

struct ScalingSeries
{
    std::string name;
    std::vector<ScalingPoint> points; ///< ascending ranks, where present
    std::optional<extrap::SeriesFit> meanFit;
    std::optional<extrap::SeriesFit> maxFit;
    std::string fitError; ///< why there is no fit
    double growth = 0;    ///< mean at the largest scale / mean at the smallest (0: absent there)
    bool operator==(const ScalingSeries&) const = default;
};

struct CallSiteScaling
{
    ScalingSeries messages; ///< messages sent per rank
    ScalingSeries bytes;    ///< bytes sent per rank
    bool operator==(const CallSiteScaling&) const = default;
};

struct ScalingReport
{
    std::vector<uint32_t> scales; ///< ascending
    double target = 0;            ///< the scale predicted
    bool byPrediction = false;    ///< rows ordered by prediction at the target (else by growth)
    std::vector<ScalingSeries> regions;   ///< exclusive ns per rank
    std::vector<ScalingSeries> callPaths; ///< the same per call path ("main>solve>MPI_Send")
    std::vector<CallSiteScaling> callSites;
    bool operator==(const ScalingReport&) const = default;
};

/// The report of a set of runs (at least 2 distinct rank counts, of one program:
/// extrap::checkSameProgram). `target` 0: twice the largest scale, rows by growth. Throws
/// TraceError naming the trace for a set it refuses.
ScalingReport scalingReport(const std::vector<const Trace*>& traces,
                            const std::vector<std::string>& labels, uint32_t target = 0);

} // namespace rankscope::pop
