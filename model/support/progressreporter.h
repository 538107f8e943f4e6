#pragma once
// Progress and cancellation for long analyses. A callback receives the fraction done in [0, 1]
// and returns false to cancel; the reporter throttles calls so a hot loop can ask cheaply.

#include <cstdint>
#include <functional>

namespace rankscope {

/// Receives the fraction done in [0, 1]; returns false to cancel the work.
using ProgressCallback = std::function<bool(double)>;

/// The part [from, to] of `progress`: what a stage of a longer job reports (its 0..1, clamped,
/// mapped onto [from, to] of the whole). Empty when `progress` is empty.
ProgressCallback progressSlice(const ProgressCallback& progress, double from, double to);

class ProgressReporter
{
public:
    /// Reports progress over `total` work units to (a copy of) `callback`, which may be empty.
    ProgressReporter(const ProgressCallback& callback, uint64_t total);

    /// Reports `done` units when enough has happened since the last report; false once cancelled.
    bool update(uint64_t done)
    {
        if (done < nextReport_ || !callback_) return !cancelled_;
        return report(done);
    }
    /// Reports `done` units unconditionally; false once cancelled.
    bool report(uint64_t done);
    bool cancelled() const { return cancelled_; }

private:
    // About a thousand reports over the whole work, as Qt Creator's trace loading does.
    static constexpr uint64_t kReportsPerRun = 1000;

    ProgressCallback callback_;
    uint64_t total_;
    uint64_t step_;
    uint64_t nextReport_ = 0;
    bool cancelled_ = false;
};

} // namespace rankscope
