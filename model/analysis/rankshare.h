#pragma once
// The per-rank results of the profile and interval analyses (RankProfile, RankIntervals,
// RankSpan) as bytes (model/support/bytecodec.h): what a process of rankscope-mpi sends to rank 0,
// and what a result summary file (importers/rsum) stores per rank, so that its reader merges them
// with the desktop's merge functions into the same Profile and IntervalTable.

#include "model/analysis/runspan.h"
#include "model/deltas/intervals.h"
#include "model/profile/profile.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rankscope {

/// Everything one process computed for one of its ranks.
struct RankShare
{
    RankProfile profile;
    RankIntervals intervals;
    RankSpan span;
};

/// Appends `share` to `out`.
void encodeShare(const RankShare& share, std::vector<char>& out);
/// Decodes every share in `bytes` (as concatenated by encodeShare); throws std::runtime_error
/// when the bytes end early.
std::vector<RankShare> decodeShares(const char* bytes, size_t size);

} // namespace rankscope
