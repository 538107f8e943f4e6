#pragma once
// A hand-built MPI run of n ranks on MPI_COMM_WORLD, for tests that describe a small timeline
// call by call: plain MPI calls, blocking sends and receives (one message each, `bytes` long)
// and barriers.

#include "model/trace/trace.h"
#include "testsupport/handtrace.h"

#include <cstdint>
#include <vector>

namespace rankscope::test {

struct HandWorld
{
    HandTrace h;
    std::vector<LocationId> loc; ///< one per rank
    CommId world;
    uint64_t bytes = 8; ///< size of every message sent or received

    explicit HandWorld(int ranks)
    {
        for (int i = 0; i < ranks; ++i)
            loc.push_back(h.addRank());
        world = h.addWorld();
    }
    /// MPI call `fn` on [b, e] with no payload (MPI_Init, MPI_Finalize, ...).
    void call(int r, const char* fn, int64_t b, int64_t e, RegionRole role = RegionRole::MpiOther)
    {
        h.call(loc[size_t(r)], h.mpi(fn, role), b, e);
    }
    /// MPI_Send to `to` on [b, e]; the message leaves at b.
    void send(int r, int64_t b, int64_t e, uint32_t to)
    {
        const RegionId f = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
        h.enter(loc[size_t(r)], b, f);
        h.builder().send(loc[size_t(r)], b, to, world, 0, bytes);
        h.leave(loc[size_t(r)], e, f);
    }
    /// MPI_Recv from `from` on [b, e]; the message arrives at e.
    void recv(int r, int64_t b, int64_t e, uint32_t from)
    {
        const RegionId f = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
        h.enter(loc[size_t(r)], b, f);
        h.builder().recv(loc[size_t(r)], e, from, world, 0, bytes);
        h.leave(loc[size_t(r)], e, f);
    }
    /// MPI_Barrier on [b, e].
    void barrier(int r, int64_t b, int64_t e)
    {
        const RegionId f = h.mpi("MPI_Barrier", RegionRole::Barrier);
        h.enter(loc[size_t(r)], b, f);
        h.builder().collectiveBegin(loc[size_t(r)], b);
        h.builder().collectiveEnd(loc[size_t(r)], e, CollectiveOp::Barrier, world, kNoRoot, 0, 0);
        h.leave(loc[size_t(r)], e, f);
    }
};

} // namespace rankscope::test

namespace rankscope::test {

/// The measured run of the comparison tests (2 ranks, `bytes`-byte message):
/// rank 0: Init [0,10], Send [100,110], Finalize [300,310];
/// rank 1: Init [0,10], Recv [50,120], Finalize [300,310].
inline Trace comparedRunA(uint64_t bytes)
{
    HandWorld w(2);
    w.bytes = bytes;
    w.call(0, "MPI_Init", 0, 10);
    w.send(0, 100, 110, 1);
    w.call(0, "MPI_Finalize", 300, 310);
    w.call(1, "MPI_Init", 0, 10);
    w.recv(1, 50, 120, 0);
    w.call(1, "MPI_Finalize", 300, 310);
    return w.h.finish();
}

/// The other run of the comparison tests (3 ranks, a late sender and a barrier):
/// rank 0: Init [0,10], Send [200,210], Barrier [300,360], Finalize [400,410];
/// rank 1: Init [0,10], Recv [50,220], Barrier [340,360], Finalize [400,410];
/// rank 2: Init [0,10], Barrier [350,360], Finalize [400,410].
inline Trace comparedRunB(uint64_t bytes)
{
    HandWorld w(3);
    w.bytes = bytes;
    w.call(0, "MPI_Init", 0, 10);
    w.send(0, 200, 210, 1);
    w.barrier(0, 300, 360);
    w.call(0, "MPI_Finalize", 400, 410);
    w.call(1, "MPI_Init", 0, 10);
    w.recv(1, 50, 220, 0);
    w.barrier(1, 340, 360);
    w.call(1, "MPI_Finalize", 400, 410);
    w.call(2, "MPI_Init", 0, 10);
    w.barrier(2, 350, 360);
    w.call(2, "MPI_Finalize", 400, 410);
    return w.h.finish();
}

} // namespace rankscope::test
