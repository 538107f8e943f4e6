#pragma once
// Who waits for whom in a collective operation, by its kind: the one reading the wait-state
// analysis (model/waits) and the clock-violation check (clockviolations.h) share.

#include "model/trace/definitions.h"

#include <cstdint>

namespace rankscope {

enum class CollectiveDependence : uint8_t
{
    None,    ///< no synchronisation (handle creation and destruction, windows, unknown)
    Barrier, ///< every member waits for the last to enter, moving no data
    NxN,     ///< every member depends on every other (all-reduce, all-to-all, scans, ...)
    OneToN,  ///< the non-roots depend on the root (bcast, scatter)
    NToOne,  ///< the root depends on the non-roots (reduce, gather)
};

CollectiveDependence collectiveDependence(CollectiveOp op);

} // namespace rankscope
