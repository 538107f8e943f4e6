#pragma once
// Trace synthesis: runs whose length changes with the scale (ALGORITHMS.md §5, "loops inside the
// loop").
//
// A hand-written tree or butterfly reduction runs one block of calls log2(P) times, P the ranks
// of a process-grid row or of the world: NPB CG exchanges with r XOR 2^j, j < ⌈log2 n / 2⌉,
// several times per iteration. Its ranks then run different step sequences at every scale, and
// the plain loop form (prefix + body^count + suffix) cannot hold them. Here a role's steps are
// read as a sequence of elements, each a block of steps repeated m times, where two steps are the
// same token only when they are the same step AND their partners follow the same kind of rule on
// every rank of the role (r XOR 2^j counts as one kind whatever j is; synthrunblocks.h). The
// elements must be the same at every scale; an element's repeat count m either stays the same
// or is c x f(n) for one f among log2 n, ⌈log2 n / 2⌉, ⌊log2 n / 2⌋, n, n - 1 and n / 2. A run
// whose copies exchange with r XOR k is read as c chunks of f(n) copies, each with k = b 2^j
// (ascending) or b 2^(f - 1 - j) (descending), b the same at every scale; a run without such
// partners repeats one copy.
//
// The role's form is then written out at the target (the runs at their target length), with a
// map from every input scale's positions into it, the XOR partner of every run position, and for
// positions no input shows (the longer runs), the position whose sizes, rules and gaps they take.
// Tags may change along a run (NPB CG tags its i-th exchange i): per chunk and message, a tag is
// the same for every copy, or a + j, or a + (f - 1 - j); copies no input shows get new steps
// (added to the context) with the tag that rule gives.

#include "whatif/extrap/synthplan.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rankscope::extrap::synth {

/// One input scale of a role.
struct RunScale
{
    const ScaleSkeleton* scale = nullptr;
    const MemberIndex* members = nullptr;
    const std::vector<uint32_t>* ranks = nullptr; ///< the role's ranks there (not empty)
    size_t index = 0;                             ///< the scale's index among the inputs
};

struct RunForm
{
    LoopForm form;                     ///< at the target
    std::vector<ScaleForm> inputForms; ///< by input index (empty where the role is absent)
    std::vector<uint64_t> counts;      ///< the outer loop's count, by input index
    std::vector<int64_t> xorAt;        ///< per target position: partners r XOR k (0: not a run)
    std::vector<uint32_t> alias;       ///< per target position: whose sizes, rules and gaps
    std::vector<std::string> notes;    ///< the runs and their rules, for the plan's notes
    /// The lengths f(n) of its XOR runs, as indices into scaleFunctions(): 2^f(n) ranks
    /// exchange in such a run (a row of a process grid the partners show).
    std::vector<size_t> xorRunFunctions;
};

/// A count rule c x f(n): the functions tried, in order.
struct ScaleFunction
{
    const char* name;
    std::optional<uint64_t> (*value)(uint32_t n);
};
const std::vector<ScaleFunction>& scaleFunctions();

/// The role's steps as runs (see above) at the input scales `scales` (ascending), written out
/// for `target`; nothing, with `why` set, when they cannot be read so.
std::optional<RunForm> fitRuns(const std::vector<RunScale>& scales, const Placement& placement,
                               SkeletonContext& ctx, uint32_t target, size_t inputCount,
                               std::string& why);

} // namespace rankscope::extrap::synth
