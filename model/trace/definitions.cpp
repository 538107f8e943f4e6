#include "model/trace/definitions.h"

#include <array>

namespace rankscope {

std::string_view collectiveOpName(CollectiveOp op)
{
    static constexpr std::array<std::string_view, 24> names = {"barrier",
                                                               "bcast",
                                                               "gather",
                                                               "gatherv",
                                                               "scatter",
                                                               "scatterv",
                                                               "allgather",
                                                               "allgatherv",
                                                               "alltoall",
                                                               "alltoallv",
                                                               "alltoallw",
                                                               "allreduce",
                                                               "reduce",
                                                               "reduce_scatter",
                                                               "scan",
                                                               "exscan",
                                                               "reduce_scatter_block",
                                                               "create_handle",
                                                               "destroy_handle",
                                                               "allocate",
                                                               "deallocate",
                                                               "create_handle_and_allocate",
                                                               "destroy_handle_and_deallocate",
                                                               "other"};
    const auto i = static_cast<size_t>(op);
    return i < names.size() ? names[i] : "other";
}

std::string_view regionRoleName(RegionRole role)
{
    switch (role) {
    case RegionRole::Function:
        return "function";
    case RegionRole::MpiPointToPoint:
        return "point2point";
    case RegionRole::MpiCollective:
        return "collective";
    case RegionRole::Barrier:
        return "barrier";
    case RegionRole::MpiOther:
        return "mpi_other";
    case RegionRole::Other:
        return "other";
    }
    return "other";
}

std::string_view paradigmName(Paradigm p)
{
    switch (p) {
    case Paradigm::Unknown:
        return "unknown";
    case Paradigm::User:
        return "user";
    case Paradigm::Compiler:
        return "compiler";
    case Paradigm::Mpi:
        return "mpi";
    case Paradigm::OpenMp:
        return "openmp";
    case Paradigm::Pthread:
        return "pthread";
    case Paradigm::Cuda:
        return "cuda";
    case Paradigm::OpenAcc:
        return "openacc";
    case Paradigm::Measurement:
        return "measurement";
    case Paradigm::Other:
        return "other";
    }
    return "other";
}

} // namespace rankscope
