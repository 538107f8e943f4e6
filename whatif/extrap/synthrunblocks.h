#pragma once
// Trace synthesis, runs whose length changes with the scale (synthruns.h): a role's steps at
// each input scale as tokens, and the blocks of tokens that repeat back to back.
//
// Two steps are the same token when they are the same MPI call (tags aside) and their partners
// follow the same rule on every rank of the role, r XOR k counting as one rule whatever k is.
// Where several rules fit a step's partners, the rule that fits at the most input scales names
// the token, so that a step reads the same at every scale.

#include "whatif/extrap/synthruns.h"

#include <cstdint>
#include <map>
#include <vector>

namespace rankscope::extrap::synth {

/// One input scale as tokens.
struct Tokens
{
    std::vector<uint32_t> token;            ///< per step
    std::vector<int64_t> xorK;              ///< per step: k when every partner is r XOR k
    std::vector<std::vector<int32_t>> tags; ///< per step: the tags of its MPI call's events
};

/// Every input scale of a role as tokens (one token numbering for all).
std::vector<Tokens> tokensOf(const std::vector<RunScale>& scales, const Placement& placement,
                             const SkeletonContext& ctx);

/// The blocks that repeat back to back (2 copies or more) at some input scale, innermost first;
/// a block that holds another one is left out (an outer loop whose inner run happens to run
/// once at a small scale).
std::vector<std::vector<uint32_t>> innermostBlocks(const std::vector<Tokens>& tokens);

/// A block of tokens repeated `count` times from step `first` on.
struct Element
{
    uint32_t block = 0;
    uint64_t count = 1;
    size_t first = 0;
};

/// `t` as elements, left to right: at each step the known block whose copies from there cover
/// the most steps (the shorter on a tie), or the step alone; `blocks` numbers the blocks.
std::vector<Element> collapse(const std::vector<uint32_t>& t,
                              const std::vector<std::vector<uint32_t>>& known,
                              std::map<std::vector<uint32_t>, uint32_t>& blocks);

} // namespace rankscope::extrap::synth
