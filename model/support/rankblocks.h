#pragma once
// Splits a trace's ranks into contiguous blocks of about equal event counts, one block per
// process of a parallel analysis (rankscope-mpi). Contiguous blocks keep a process's ranks
// together, so that later exchanges between neighbouring ranks stay mostly inside a process.

#include <cstdint>
#include <vector>

namespace rankscope {

/// First rank of each of `parts` blocks, plus the rank count at the end (parts + 1 entries,
/// non-decreasing; block p is [starts[p], starts[p + 1])). Block p begins at the first rank
/// whose preceding ranks hold at least p/parts of all events; with no events at all the ranks
/// are split by count instead. Blocks may be empty when there are fewer ranks than parts.
std::vector<uint32_t> rankBlockStarts(const std::vector<uint64_t>& eventsPerRank, uint32_t parts);

} // namespace rankscope
