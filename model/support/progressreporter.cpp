#include "model/support/progressreporter.h"

#include <algorithm>

namespace rankscope {

ProgressCallback progressSlice(const ProgressCallback& progress, double from, double to)
{
    if (!progress) return {};
    return [progress, from, to](double f) {
        return progress(from + (to - from) * std::clamp(f, 0.0, 1.0));
    };
}

ProgressReporter::ProgressReporter(const ProgressCallback& callback, uint64_t total)
    : callback_(callback), total_(total), step_(std::max<uint64_t>(1, total / kReportsPerRun))
{
}

bool ProgressReporter::report(uint64_t done)
{
    if (cancelled_ || !callback_) return !cancelled_;
    nextReport_ = done + step_;
    const double fraction = total_ == 0 ? 1.0 : std::min(1.0, double(done) / double(total_));
    cancelled_ = !callback_(fraction);
    return !cancelled_;
}

} // namespace rankscope
