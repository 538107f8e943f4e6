#include "testsupport/exchangetrace.h"

#include "testsupport/handtrace.h"

namespace rankscope::test {

Trace exchangeTrace(uint32_t n, const PartnerFn& partnersOf, const BytesFn& bytes)
{
    MpiWorld w(n);
    HandTrace& h = w.h;
    const RegionId isend = h.mpi("MPI_Isend", RegionRole::MpiPointToPoint);
    const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    const RegionId waitall = h.mpi("MPI_Waitall");
    for (uint32_t r = 0; r < n; ++r) {
        const LocationId l = w.locs[r];
        const std::vector<uint32_t> partners = partnersOf(r, n);
        w.begin(l);
        int64_t t = 1000;
        uint64_t request = 1;
        for (int it = 0; it < 3; ++it) {
            const uint64_t first = request;
            for (const uint32_t p : partners) {
                h.enter(l, t, isend);
                h.builder().isend(l, t + 1, p, w.world, 0, bytes(r, p, n), request++);
                h.leave(l, t + 2, isend);
                t += 100;
            }
            for (const uint32_t p : partners) {
                h.enter(l, t, recv);
                h.builder().recv(l, t + 10, p, w.world, 0, bytes(p, r, n));
                h.leave(l, t + 11, recv);
                t += 100;
            }
            h.enter(l, t, waitall);
            for (uint64_t q = first; q < request; ++q)
                h.builder().isendComplete(l, t + 1, q);
            h.leave(l, t + 2, waitall);
            t += 1000;
        }
        w.end(l, t, t + 20);
    }
    return h.finish();
}

} // namespace rankscope::test
