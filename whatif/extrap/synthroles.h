#pragma once
// Trace synthesis: finding the roles of a program under one placement (ALGORITHMS.md §5).
//
// A placement fits when (1) ranks of one position class run the same steps at every scale,
// (2) a class's steps are the same loop form at every scale where it occurs (only the count
// may change), (3) every partner and root of a class follows one rank rule at all scales, and
// (4) every rank of the target scale falls into a class some input shows, with partners inside
// 0..N-1. `stage` says how far a placement got, so the refusal can quote the one that came
// closest.

#include "whatif/extrap/synthplan.h"

#include <cstdint>
#include <vector>

namespace rankscope::extrap::synth {

/// Ranks of one scale grouped by identical step sequences.
struct ScaleGroups
{
    std::vector<uint32_t> groupOf;                      ///< per rank
    std::vector<const std::vector<uint32_t>*> sequence; ///< per group
};

ScaleGroups groupRanks(const ScaleSkeleton& scale);

struct RoleSearch
{
    Placement placement{PlacementKind::Uniform};
    int stage = 0; ///< conditions (1)-(4) above met; 4 means the placement fits
    std::vector<Refusal> failures;
    std::vector<std::string> notes; ///< rules found for runs whose length changes with scale
    /// Roles whose MPI calls differ between scales by no rule, carried as the largest scale
    /// that shows them runs them (only when searched with `carry`).
    std::vector<std::string> warnings;
    uint32_t carried = 0;    ///< how many roles were carried so
    std::vector<Role> roles; ///< form, scales, rank rules, slot layout, ranksAtTarget
    std::vector<int32_t> roleOfClass;
    /// Per role and input scale: its ranks there, and their loop count.
    std::vector<std::vector<std::vector<uint32_t>>> members;
    std::vector<std::vector<uint64_t>> counts;
};

/// Tries `placement` on the input scales (ascending) for the target scale. With `carry`, a
/// role whose MPI calls differ between scales beyond a loop and runs is not refused but carried
/// as the largest scale that shows it runs it (scales that differ are left out of its rules).
RoleSearch searchRoles(const Placement& placement, const std::vector<ScaleSkeleton>& scales,
                       const std::vector<ScaleGroups>& groups,
                       const std::vector<MemberIndex>& memberIndex, SkeletonContext& context,
                       uint32_t target, bool carry = false);

/// Fills the slot layout of `role` (rankSlotBase, sizeSlotBase) from its step shapes; returns
/// the number of rank slots and of size slots.
std::pair<uint32_t, uint32_t> layoutSlots(Role& role, const StepTable& steps);

} // namespace rankscope::extrap::synth
