#pragma once
// How extrapolation numbers read in tables, summaries and tooltips: series values in the unit
// of their quantity, accuracy, the interval of a prediction.

#include <QString>
#include <string>

namespace rankscope {

enum class SeriesUnit
{
    Time,  ///< ns, shown as a duration
    Count, ///< occurrences
    Ratio  ///< dimensionless (frequencies, quantile / mean ratios)
};

/// The unit of a fitted series from its quantity name ("mean", "count per rank", "bin 3
/// frequency", "per-rank total / mean q0.95"...).
SeriesUnit seriesUnit(const std::string& quantity);
/// `value` in `unit`: "1.234 ms", "12", "0.9731".
QString formatSeriesValue(double value, SeriesUnit unit);
/// "97.3 %"; "n/a" when not finite.
QString formatAccuracy(double percent);
/// "1.234 ms [1.200 ms, 1.300 ms]", or just the value when low == high == value.
QString formatWithInterval(double value, double low, double high,
                           SeriesUnit unit = SeriesUnit::Time);

} // namespace rankscope
