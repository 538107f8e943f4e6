#include "whatif/netsim/collectivealgorithm.h"

#include <array>
#include <utility>

namespace rankscope::netsim {

namespace {

constexpr std::array<std::string_view, 9> kKindNames{"barrier",   "bcast",     "reduce",
                                                     "allreduce", "allgather", "gather",
                                                     "scatter",   "alltoall",  "reduce_scatter"};

constexpr std::array<std::string_view, 16> kAlgorithmNames{"binomial",
                                                           "van_de_geijn",
                                                           "linear",
                                                           "rabenseifner",
                                                           "recursive_doubling",
                                                           "ring",
                                                           "bruck",
                                                           "pairwise",
                                                           "dissemination",
                                                           "recursive_halving",
                                                           "extended_van_de_geijn",
                                                           "farfirst",
                                                           "extended_rabenseifner",
                                                           "twotier",
                                                           "grid",
                                                           "hybrid"};

std::vector<Algorithm> algorithmsOf(CollKind kind)
{
    using A = Algorithm;
    switch (kind) {
    case CollKind::Barrier:
        return {A::Dissemination, A::Linear};
    case CollKind::Bcast:
        return {A::Binomial,           A::VanDeGeijn, A::Linear,
                A::ExtendedVanDeGeijn, A::FarFirst,   A::Hybrid};
    case CollKind::Reduce:
        return {A::Binomial, A::Rabenseifner, A::Linear, A::ExtendedRabenseifner, A::TwoTier};
    case CollKind::Allreduce:
        return {A::RecursiveDoubling, A::Rabenseifner, A::Ring, A::ExtendedRabenseifner,
                A::TwoTier};
    case CollKind::Allgather:
        return {A::RecursiveDoubling, A::Ring, A::Bruck, A::Grid, A::Hybrid};
    case CollKind::Gather:
        return {A::Linear, A::Binomial, A::Grid};
    case CollKind::Scatter:
        return {A::Linear, A::Binomial, A::Grid};
    case CollKind::Alltoall:
        return {A::Pairwise, A::Bruck, A::Grid};
    case CollKind::ReduceScatter:
        return {A::RecursiveHalving, A::Ring, A::Grid};
    case CollKind::None:
        break;
    }
    return {};
}

} // namespace

CollKind collKindOf(CollectiveOp op)
{
    switch (op) {
    case CollectiveOp::Barrier:
        return CollKind::Barrier;
    case CollectiveOp::Bcast:
        return CollKind::Bcast;
    case CollectiveOp::Gather:
    case CollectiveOp::Gatherv:
        return CollKind::Gather;
    case CollectiveOp::Scatter:
    case CollectiveOp::Scatterv:
        return CollKind::Scatter;
    case CollectiveOp::Allgather:
    case CollectiveOp::Allgatherv:
        return CollKind::Allgather;
    case CollectiveOp::Alltoall:
    case CollectiveOp::Alltoallv:
    case CollectiveOp::Alltoallw:
        return CollKind::Alltoall;
    case CollectiveOp::Allreduce:
    case CollectiveOp::Scan:
    case CollectiveOp::Exscan:
        return CollKind::Allreduce;
    case CollectiveOp::Reduce:
        return CollKind::Reduce;
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::ReduceScatterBlock:
        return CollKind::ReduceScatter;
    default:
        return CollKind::None;
    }
}

std::string_view collKindName(CollKind kind)
{
    return kind == CollKind::None ? "none" : kKindNames[size_t(kind)];
}

std::optional<CollKind> collKindFromName(std::string_view name)
{
    for (size_t i = 0; i < kKindNames.size(); ++i)
        if (kKindNames[i] == name) return CollKind(i);
    return std::nullopt;
}

bool isGridAlgorithm(Algorithm a)
{
    using A = Algorithm;
    return a == A::ExtendedVanDeGeijn || a == A::FarFirst || a == A::ExtendedRabenseifner ||
           a == A::TwoTier || a == A::Grid;
}

std::string_view algorithmName(Algorithm a)
{
    return kAlgorithmNames[size_t(a)];
}

std::optional<Algorithm> algorithmFromName(CollKind kind, std::string_view name)
{
    for (Algorithm a : algorithmsOf(kind))
        if (algorithmName(a) == name) return a;
    return std::nullopt;
}

std::vector<std::string_view> algorithmNames(CollKind kind)
{
    std::vector<std::string_view> names;
    for (Algorithm a : algorithmsOf(kind))
        names.push_back(algorithmName(a));
    return names;
}

Algorithm defaultAlgorithm(CollKind kind)
{
    return algorithmsOf(kind).front();
}

} // namespace rankscope::netsim
