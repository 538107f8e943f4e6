#pragma once
// The collective operations the simulator replays and the algorithms it knows for each
// (ALGORITHMS.md §8), by the names specs and the command line use.

#include "model/trace/definitions.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::netsim {

/// The operation families the algorithms implement (v-variants replay as their plain form).
enum class CollKind : uint8_t
{
    Barrier,
    Bcast,
    Reduce,
    Allreduce,
    Allgather,
    Gather,
    Scatter,
    Alltoall,
    ReduceScatter,
    None
};

enum class Algorithm : uint8_t
{
    Binomial,
    VanDeGeijn,
    Linear,
    Rabenseifner,
    RecursiveDoubling,
    Ring,
    Bruck,
    Pairwise,
    Dissemination,
    RecursiveHalving,
    ExtendedVanDeGeijn,
    FarFirst,
    ExtendedRabenseifner,
    TwoTier, ///< grid (two clusters, §8)
    Grid,    ///< the wide-area form of scatter, gather, allgather, reduce-scatter, alltoall (§8)
    Hybrid,  ///< bcast / allgather with the §9 step placement on a hybrid machine
};

/// True for the algorithms of two clusters joined by a wide-area link (gridschedule.h).
bool isGridAlgorithm(Algorithm a);

/// The family a trace's collective op replays as; CollKind::None for handle operations etc.
CollKind collKindOf(CollectiveOp op);
/// "bcast", "allreduce", ... (the keys of a spec's `collectives:` map).
std::string_view collKindName(CollKind kind);
std::optional<CollKind> collKindFromName(std::string_view name);
std::string_view algorithmName(Algorithm a);
/// The algorithm `name` if it implements `kind`.
std::optional<Algorithm> algorithmFromName(CollKind kind, std::string_view name);
/// The names valid for `kind`, for error messages.
std::vector<std::string_view> algorithmNames(CollKind kind);
/// What runs when nothing is chosen.
Algorithm defaultAlgorithm(CollKind kind);

} // namespace rankscope::netsim
