#pragma once
// Wait-state totals and (pattern, call site, rank) rows as bytes (model/support/bytecodec.h),
// field by field: what a process of rankscope-mpi sends to rank 0 for its ranks, and the WAIT
// section of a result summary file (importers/rsum). The call sites travel by name.

#include "model/support/bytecodec.h"
#include "model/waits/waitstates.h"

#include <cstdint>
#include <vector>

namespace rankscope {

/// Writes the totals of `a` (byRank for ranks [firstRank, endRank) only) and `rows`.
void encodeWaitTotals(const WaitStateAnalysis& a, const std::vector<WaitRow>& rows,
                      uint32_t firstRank, uint32_t endRank, ByteWriter& w);
/// Reads what encodeWaitTotals wrote for a trace of `ranks` ranks (byRank gets `ranks` rows,
/// zero outside the written ones; the rows land in `rows`); throws std::runtime_error on
/// damaged bytes, an unknown pattern, call site or rank.
WaitStateAnalysis decodeWaitTotals(ByteReader& r, size_t ranks);

} // namespace rankscope
