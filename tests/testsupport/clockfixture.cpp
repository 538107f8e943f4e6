#include "testsupport/clockfixture.h"

#include "testsupport/handtrace.h"

namespace rankscope::test {

std::vector<int64_t> eventTimes(const Trace& t, LocationId l)
{
    std::vector<int64_t> out;
    for (size_t i = 0; i < t.events(l).size(); ++i)
        out.push_back(t.events(l).time(i));
    return out;
}

Trace lateReceiveTrace()
{
    HandTrace h;
    const LocationId r0 = h.addRank(), r1 = h.addRank();
    const CommId world = h.addWorld();
    const RegionId main = h.user("main"), foo = h.user("foo");
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    h.enter(r0, 0, main);
    h.enter(r0, 100, send);
    h.builder().send(r0, 110, 1, world, 0, 8);
    h.leave(r0, 120, send);
    h.leave(r0, 1000, main);
    h.enter(r1, 0, main);
    h.enter(r1, 50, recv);
    h.builder().recv(r1, 80, 0, world, 0, 8);
    h.leave(r1, 90, recv);
    h.call(r1, foo, 200, 300);
    h.leave(r1, 1000, main);
    return h.finish();
}

} // namespace rankscope::test
