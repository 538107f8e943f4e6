#pragma once
// Layout constants and helpers shared by HistogramOverlay's data and drawing halves.

#include "model/deltas/histogram.h"

#include <optional>

namespace rankscope::histogramoverlay {

inline constexpr int kPad = 8;
inline constexpr double kMinBarPixels = 3; // a zero-width (all-equal) bin stays visible

inline bool hasData(const std::optional<Histogram>& h)
{
    return h && !h->empty() && !h->bins.empty();
}

} // namespace rankscope::histogramoverlay
