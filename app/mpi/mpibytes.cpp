#include "app/mpi/mpibytes.h"

#include "model/trace/traceerror.h"

#include <climits>
#include <cstdint>
#include <string>

namespace rankscope::mpi {

namespace {

// Counts and displacements are ints in MPI-3: one process's part of one exchange must stay
// under 2 GiB (the exchanges carry per-message and per-wait facts, tens of bytes each).
int checkedInt(uint64_t n, const char* what)
{
    if (n > uint64_t(INT_MAX))
        throw TraceError(std::string(what) + " exceed 2 GiB, too large for one MPI message");
    return int(n);
}

} // namespace

std::vector<char> gatherBytes(const std::vector<char>& mine, MPI_Comm comm)
{
    int me = 0, size = 1;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &size);
    const int count = checkedInt(mine.size(), "a process's results");
    std::vector<int> counts(me == 0 ? size_t(size) : 0);
    MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
    std::vector<int> displs(counts.size());
    std::vector<char> all;
    if (me == 0) {
        uint64_t total = 0;
        for (size_t p = 0; p < counts.size(); ++p) {
            displs[p] = checkedInt(total, "the gathered results");
            total += uint64_t(counts[p]);
        }
        checkedInt(total, "the gathered results");
        all.resize(total);
    }
    MPI_Gatherv(mine.data(), count, MPI_CHAR, all.data(), counts.data(), displs.data(), MPI_CHAR, 0,
                comm);
    return all;
}

Received exchangeBytes(const std::vector<std::vector<char>>& outgoing, MPI_Comm comm)
{
    int size = 1;
    MPI_Comm_size(comm, &size);
    std::vector<int> sendCounts(size_t(size), 0), sendDispls(size_t(size), 0);
    std::vector<char> sendBuffer;
    for (size_t p = 0; p < size_t(size); ++p) {
        sendDispls[p] = checkedInt(sendBuffer.size(), "one process's outgoing facts");
        if (p < outgoing.size()) {
            sendCounts[p] = checkedInt(outgoing[p].size(), "one process's outgoing facts");
            sendBuffer.insert(sendBuffer.end(), outgoing[p].begin(), outgoing[p].end());
        }
    }
    checkedInt(sendBuffer.size(), "one process's outgoing facts");
    std::vector<int> recvCounts(size_t(size), 0), recvDispls(size_t(size), 0);
    MPI_Alltoall(sendCounts.data(), 1, MPI_INT, recvCounts.data(), 1, MPI_INT, comm);
    Received r;
    r.from.assign(size_t(size) + 1, 0);
    for (size_t p = 0; p < size_t(size); ++p) {
        recvDispls[p] = checkedInt(r.from[p], "one process's incoming facts");
        r.from[p + 1] = r.from[p] + size_t(recvCounts[p]);
    }
    checkedInt(r.from.back(), "one process's incoming facts");
    r.bytes.resize(r.from.back());
    MPI_Alltoallv(sendBuffer.data(), sendCounts.data(), sendDispls.data(), MPI_CHAR, r.bytes.data(),
                  recvCounts.data(), recvDispls.data(), MPI_CHAR, comm);
    return r;
}

} // namespace rankscope::mpi
