#pragma once
// The per-rank results a process of rankscope-mpi sends to rank 0: a flat little byte encoding
// of RankProfile, RankIntervals and RankSpan (fixed-width integers in host order, strings as
// length + bytes). Both ends are the same binary on the same cluster, so there is no versioning
// or byte swapping; this is a message, not a file format.

#include "model/analysis/runspan.h"
#include "model/deltas/intervals.h"
#include "model/profile/profile.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rankscope::mpi {

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

} // namespace rankscope::mpi
