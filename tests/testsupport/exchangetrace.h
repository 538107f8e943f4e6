#pragma once
// A hand-built neighbour exchange for synthesis tests: every rank posts an MPI_Isend to each of
// its partners (one call site, in one loop), receives from each with MPI_Recv and completes the
// sends with MPI_Waitall, three times; no user regions, as SMPI traces record it. The partners
// must be symmetric (r lists p when p lists r) for the messages to pair up.

#include "model/trace/trace.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace rankscope::test {

/// Rank r's partners at n ranks, in the order it sends to and receives from them.
using PartnerFn = std::function<std::vector<uint32_t>(uint32_t r, uint32_t n)>;
/// Bytes of the message from rank `from` to rank `to` at n ranks.
using BytesFn = std::function<uint64_t(uint32_t from, uint32_t to, uint32_t n)>;

Trace exchangeTrace(uint32_t n, const PartnerFn& partnersOf, const BytesFn& bytes);

} // namespace rankscope::test
