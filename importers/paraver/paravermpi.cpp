#include "importers/paraver/paravermpi.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace rankscope::paraver {

namespace {

// Extrae's numbering of MPI calls (the values of its MPI event types; MPIVal in Extrae's
// src/merger/paraver/MPI_EventEncoding.h): the name without "MPI_" at index value - 1.
constexpr std::array<std::string_view, 172> kExtraeNames = {"Send",
                                                            "Recv",
                                                            "Isend",
                                                            "Irecv",
                                                            "Wait",
                                                            "Waitall",
                                                            "Bcast",
                                                            "Barrier",
                                                            "Reduce",
                                                            "Allreduce",
                                                            "Alltoall",
                                                            "Alltoallv",
                                                            "Gather",
                                                            "Gatherv",
                                                            "Scatter",
                                                            "Scatterv",
                                                            "Allgather",
                                                            "Allgatherv",
                                                            "Comm_rank",
                                                            "Comm_size",
                                                            "Comm_create",
                                                            "Comm_dup",
                                                            "Comm_split",
                                                            "Comm_group",
                                                            "Comm_free",
                                                            "Comm_remote_group",
                                                            "Comm_remote_size",
                                                            "Comm_test_inter",
                                                            "Comm_compare",
                                                            "Scan",
                                                            "Init",
                                                            "Finalize",
                                                            "Bsend",
                                                            "Ssend",
                                                            "Rsend",
                                                            "Ibsend",
                                                            "Issend",
                                                            "Irsend",
                                                            "Test",
                                                            "Cancel",
                                                            "Sendrecv",
                                                            "Sendrecv_replace",
                                                            "Cart_create",
                                                            "Cart_shift",
                                                            "Cart_coords",
                                                            "Cart_get",
                                                            "Cart_map",
                                                            "Cart_rank",
                                                            "Cart_sub",
                                                            "Cartdim_get",
                                                            "Dims_create",
                                                            "Graph_get",
                                                            "Graph_map",
                                                            "Graph_create",
                                                            "Graph_neighbors",
                                                            "Graphdims_get",
                                                            "Graph_neighbors_count",
                                                            "Topo_test",
                                                            "Waitany",
                                                            "Waitsome",
                                                            "Probe",
                                                            "Iprobe",
                                                            "Win_create",
                                                            "Win_free",
                                                            "Put",
                                                            "Get",
                                                            "Accumulate",
                                                            "Win_fence",
                                                            "Win_start",
                                                            "Win_complete",
                                                            "Win_post",
                                                            "Win_wait",
                                                            "Win_test",
                                                            "Win_lock",
                                                            "Win_unlock",
                                                            "Pack",
                                                            "Unpack",
                                                            "Op_create",
                                                            "Op_free",
                                                            "Reduce_scatter",
                                                            "Attr_delete",
                                                            "Attr_get",
                                                            "Attr_put",
                                                            "Group_difference",
                                                            "Group_excl",
                                                            "Group_free",
                                                            "Group_incl",
                                                            "Group_intersection",
                                                            "Group_rank",
                                                            "Group_range_excl",
                                                            "Group_range_incl",
                                                            "Group_size",
                                                            "Group_translate_ranks",
                                                            "Group_union",
                                                            "Group_compare",
                                                            "Intercomm_create",
                                                            "Intercomm_merge",
                                                            "Keyval_free",
                                                            "Keyval_create",
                                                            "Abort",
                                                            "Error_class",
                                                            "Errhandler_create",
                                                            "Errhandler_free",
                                                            "Errhandler_get",
                                                            "Error_string",
                                                            "Errhandler_set",
                                                            "Get_processor_name",
                                                            "Initialized",
                                                            "Wtick",
                                                            "Wtime",
                                                            "Address",
                                                            "Bsend_init",
                                                            "Buffer_attach",
                                                            "Buffer_detach",
                                                            "Request_free",
                                                            "Recv_init",
                                                            "Send_init",
                                                            "Get_count",
                                                            "Get_elements",
                                                            "Pack_size",
                                                            "Rsend_init",
                                                            "Ssend_init",
                                                            "Start",
                                                            "Startall",
                                                            "Testall",
                                                            "Testany",
                                                            "Test_cancelled",
                                                            "Testsome",
                                                            "Type_commit",
                                                            "Type_contiguous",
                                                            "Type_extent",
                                                            "Type_free",
                                                            "Type_hindexed",
                                                            "Type_hvector",
                                                            "Type_indexed",
                                                            "Type_lb",
                                                            "Type_size",
                                                            "Type_struct",
                                                            "Type_ub",
                                                            "Type_vector",
                                                            "File_open",
                                                            "File_close",
                                                            "File_read",
                                                            "File_read_all",
                                                            "File_write",
                                                            "File_write_all",
                                                            "File_read_at",
                                                            "File_read_at_all",
                                                            "File_write_at",
                                                            "File_write_at_all",
                                                            "Comm_spawn",
                                                            "Comm_spawn_multiple",
                                                            "Request_get_status",
                                                            "Ireduce",
                                                            "Iallreduce",
                                                            "Ibarrier",
                                                            "Ibcast",
                                                            "Ialltoall",
                                                            "Ialltoallv",
                                                            "Iallgather",
                                                            "Iallgatherv",
                                                            "Igather",
                                                            "Igatherv",
                                                            "Iscatter",
                                                            "Iscatterv",
                                                            "Ireduce_scatter",
                                                            "Iscan",
                                                            "Reduce_scatter_block",
                                                            "Ireduce_scatter_block",
                                                            "Alltoallw",
                                                            "Ialltoallw",
                                                            "Get_accumulate"};

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

/// The name in lower case without its "mpi_" prefix (and a non-blocking collective's 'i').
std::string baseName(std::string_view name)
{
    std::string n = lower(name);
    if (n.rfind("mpi_", 0) == 0) n.erase(0, 4);
    return n;
}

} // namespace

std::string_view mpiTypeLabel(uint32_t type)
{
    switch (type) {
    case kMpiPointToPoint:
        return "MPI Point-to-point";
    case kMpiCollective:
        return "MPI Collective Comm";
    case kMpiOther:
        return "MPI Other";
    case kMpiOneSided:
        return "MPI One-sided";
    case kMpiIo:
        return "MPI I/O";
    default:
        return "MPI";
    }
}

std::optional<std::string_view> extraeMpiName(uint64_t value)
{
    if (value == 0 || value > kExtraeNames.size()) return std::nullopt;
    static const std::array<std::string, kExtraeNames.size()> full = [] {
        std::array<std::string, kExtraeNames.size()> names;
        for (size_t i = 0; i < names.size(); ++i)
            names[i] = "MPI_" + std::string(kExtraeNames[i]);
        return names;
    }();
    return std::string_view(full[value - 1]);
}

std::optional<uint32_t> extraeMpiValue(std::string_view name)
{
    const std::string n = baseName(name);
    for (size_t i = 0; i < kExtraeNames.size(); ++i)
        if (lower(kExtraeNames[i]) == n) return uint32_t(i + 1);
    return std::nullopt;
}

RegionRole mpiRole(uint32_t type, std::string_view name)
{
    if (type == kMpiPointToPoint) return RegionRole::MpiPointToPoint;
    if (type == kMpiCollective)
        return lower(name).find("barrier") != std::string::npos ? RegionRole::Barrier
                                                                : RegionRole::MpiCollective;
    return RegionRole::MpiOther;
}

uint32_t mpiTypeOf(RegionRole role)
{
    switch (role) {
    case RegionRole::MpiPointToPoint:
        return kMpiPointToPoint;
    case RegionRole::MpiCollective:
    case RegionRole::Barrier:
        return kMpiCollective;
    default:
        return kMpiOther;
    }
}

CollectiveOp collectiveOpOf(std::string_view name)
{
    std::string n = baseName(name);
    // Non-blocking collectives (MPI_Ibcast...) perform the same operation.
    static constexpr std::array<std::pair<std::string_view, CollectiveOp>, 17> kOps = {{
        {"barrier", CollectiveOp::Barrier},
        {"bcast", CollectiveOp::Bcast},
        {"gather", CollectiveOp::Gather},
        {"gatherv", CollectiveOp::Gatherv},
        {"scatter", CollectiveOp::Scatter},
        {"scatterv", CollectiveOp::Scatterv},
        {"allgather", CollectiveOp::Allgather},
        {"allgatherv", CollectiveOp::Allgatherv},
        {"alltoall", CollectiveOp::Alltoall},
        {"alltoallv", CollectiveOp::Alltoallv},
        {"alltoallw", CollectiveOp::Alltoallw},
        {"allreduce", CollectiveOp::Allreduce},
        {"reduce", CollectiveOp::Reduce},
        {"reduce_scatter", CollectiveOp::ReduceScatter},
        {"scan", CollectiveOp::Scan},
        {"exscan", CollectiveOp::Exscan},
        {"reduce_scatter_block", CollectiveOp::ReduceScatterBlock},
    }};
    for (int pass = 0; pass < 2; ++pass) {
        for (const auto& [opName, op] : kOps)
            if (n == opName) return op;
        if (n.empty() || n[0] != 'i') break;
        n.erase(0, 1);
    }
    return CollectiveOp::Other;
}

bool isNonBlockingSend(std::string_view name)
{
    const std::string n = baseName(name);
    return n == "isend" || n == "ibsend" || n == "issend" || n == "irsend";
}

bool isNonBlockingReceive(std::string_view name)
{
    const std::string n = baseName(name);
    return n == "irecv" || n == "imrecv";
}

} // namespace rankscope::paraver
