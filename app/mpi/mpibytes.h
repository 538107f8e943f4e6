#pragma once
// Moving encoded bytes between the processes of rankscope-mpi with MPI collectives.

#include <mpi.h>
#include <vector>

namespace rankscope::mpi {

/// Gathers every process's bytes on rank 0, in process order (empty elsewhere).
std::vector<char> gatherBytes(const std::vector<char>& mine, MPI_Comm comm);

/// What one process received from every process in an all-to-all exchange.
struct Received
{
    std::vector<char> bytes;
    std::vector<size_t> from; ///< bytes [from[p], from[p + 1]) came from process p
};

/// Sends outgoing[p] to process p (every process calls it; outgoing has one entry per process).
Received exchangeBytes(const std::vector<std::vector<char>>& outgoing, MPI_Comm comm);

} // namespace rankscope::mpi
