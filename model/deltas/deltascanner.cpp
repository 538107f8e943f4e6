#include "model/deltas/deltascanner.h"

#include "model/trace/trace.h"

namespace rankscope {

DeltaScanner::DeltaScanner(const Trace& trace, RankId rank, CallSiteResolver& resolver,
                           const MpiLifecycle& lifecycle)
    : lifecycle_(lifecycle), calls_(trace, rank, &resolver),
      waitForInit_(callsInit(trace, rank, lifecycle))
{
}

bool DeltaScanner::callsInit(const Trace& trace, RankId rank, const MpiLifecycle& lifecycle)
{
    // MPI_Init is usually among the first calls, so this look-ahead stops early; it reads the
    // whole rank only when the trace defines MPI_Init but this rank never calls it.
    if (lifecycle.init.empty()) return false;
    MpiCallScanner scanner(trace, rank);
    CallRecord call;
    while (scanner.next(call)) {
        if (lifecycle.isInit(call.region)) return true;
    }
    return false;
}

bool DeltaScanner::next(DeltaTime& delta)
{
    if (finished_) return false;
    CallRecord call;
    while (calls_.next(call)) {
        if (!started_) {
            if (!waitForInit_ || lifecycle_.isInit(call.region)) {
                started_ = true;
                previous_ = call;
                finished_ = lifecycle_.isFinalize(call.region);
                if (finished_) return false;
            }
            continue;
        }
        delta = {previous_.callSite, call.callSite, previous_.leaveTime, call.enterTime};
        previous_ = call;
        finished_ = lifecycle_.isFinalize(call.region);
        return true;
    }
    finished_ = true;
    return false;
}

} // namespace rankscope
