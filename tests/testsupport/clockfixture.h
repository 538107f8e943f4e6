#pragma once
// A hand-built trace with a clock violation, shared by the clock-correction tests.

#include "model/trace/trace.h"

#include <cstdint>
#include <vector>

namespace rankscope::test {

/// The timestamps of location `l`'s events, in order.
std::vector<int64_t> eventTimes(const Trace& t, LocationId l);

/// Rank 0 sends at 110 (MPI_Send over [100, 120]); rank 1 receives it at 80 (MPI_Recv over
/// [50, 90]): received 30 ns before it was sent. Both are inside main over [0, 1000], rank 1 in
/// foo over [200, 300] after the receive.
Trace lateReceiveTrace();

} // namespace rankscope::test
