#pragma once
// Trace synthesis: alignment of two ranks' event sequences (a shortest edit script over event
// keys, computed with dtl, Debian's libdtl-dev), used to find how one rank's calls differ from
// another's (synthcompose.h).

#include <cstdint>
#include <vector>

namespace rankscope::extrap::synth {

/// For each element of `a`, the index of the element of `b` it is kept as in a shortest edit
/// script turning `a` into `b`, or -1 where it is deleted. Kept pairs are strictly increasing
/// in both sequences; elements of `b` no element of `a` maps to are insertions.
std::vector<int64_t> alignSequences(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b);

} // namespace rankscope::extrap::synth
