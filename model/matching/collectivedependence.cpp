#include "model/matching/collectivedependence.h"

namespace rankscope {

CollectiveDependence collectiveDependence(CollectiveOp op)
{
    using D = CollectiveDependence;
    switch (op) {
    case CollectiveOp::Barrier:
        return D::Barrier;
    case CollectiveOp::Allreduce:
    case CollectiveOp::Allgather:
    case CollectiveOp::Allgatherv:
    case CollectiveOp::Alltoall:
    case CollectiveOp::Alltoallv:
    case CollectiveOp::Alltoallw:
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::ReduceScatterBlock:
    case CollectiveOp::Scan:
    case CollectiveOp::Exscan:
        return D::NxN;
    case CollectiveOp::Bcast:
    case CollectiveOp::Scatter:
    case CollectiveOp::Scatterv:
        return D::OneToN;
    case CollectiveOp::Reduce:
    case CollectiveOp::Gather:
    case CollectiveOp::Gatherv:
        return D::NToOne;
    default:
        return D::None;
    }
}

} // namespace rankscope
