#pragma once
// Hand-built traces for analysis tests: named regions, one CPU location per rank, and
// Enter/Leave helpers on top of TraceBuilder, so a test reads like the timeline it describes.

#include "model/trace/tracebuilder.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::test {

class HandTrace
{
public:
    TraceBuilder& builder() { return b_; }

    /// The user (non-MPI) region `name`, defined on first use.
    RegionId user(std::string_view name);
    /// The MPI region `name`, defined on first use.
    RegionId mpi(std::string_view name, RegionRole role = RegionRole::MpiOther);
    /// A new rank (in world-rank order) with one CPU-thread location; returns the location.
    LocationId addRank();
    /// A communicator over all ranks added so far, marked as MPI_COMM_WORLD.
    CommId addWorld();

    void enter(LocationId loc, int64_t t, RegionId r) { b_.enter(loc, t, r); }
    void leave(LocationId loc, int64_t t, RegionId r) { b_.leave(loc, t, r); }
    /// Enter `r` at `begin` and leave it at `end` (nothing nested).
    void call(LocationId loc, RegionId r, int64_t begin, int64_t end);

    Trace finish(unsigned threads = 1) { return b_.finish(threads); }

private:
    RegionId region(std::string_view name, RegionRole role, Paradigm paradigm);

    TraceBuilder b_;
    std::map<std::string, RegionId, std::less<>> regions_;
};

/// A hand-built MPI program of `n` ranks: the user region "main" around everything, MPI_Init
/// and MPI_Finalize, one location per rank (`locs`, in rank order) and MPI_COMM_WORLD.
struct MpiWorld
{
    HandTrace h;
    RegionId main = h.user("main");
    RegionId init = h.mpi("MPI_Init"), fin = h.mpi("MPI_Finalize");
    std::vector<LocationId> locs;
    CommId world;

    explicit MpiWorld(uint32_t n)
    {
        for (uint32_t r = 0; r < n; ++r)
            locs.push_back(h.addRank());
        world = h.addWorld();
    }
    /// `l` enters main at 0 and is in MPI_Init over [10, initEnd].
    void begin(LocationId l, int64_t initEnd = 20)
    {
        h.enter(l, 0, main);
        h.call(l, init, 10, initEnd);
    }
    /// `l` is in MPI_Finalize over [t, t + 10] and leaves main at `mainEnd`.
    void end(LocationId l, int64_t t, int64_t mainEnd)
    {
        h.call(l, fin, t, t + 10);
        h.leave(l, mainEnd, main);
    }
};

/// Two ranks in MPI_COMM_WORLD with the regions of a blocking point-to-point test, each rank
/// in MPI_Init over [0, 10]; end() puts both in MPI_Finalize over [t, t + 10] and finishes.
struct TwoRanks
{
    HandTrace h;
    LocationId r0 = h.addRank(), r1 = h.addRank();
    CommId world = h.addWorld();
    RegionId init = h.mpi("MPI_Init"), fin = h.mpi("MPI_Finalize");
    RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);

    TwoRanks()
    {
        h.call(r0, init, 0, 10);
        h.call(r1, init, 0, 10);
    }
    Trace end(int64_t t)
    {
        h.call(r0, fin, t, t + 10);
        h.call(r1, fin, t, t + 10);
        return h.finish();
    }
};

} // namespace rankscope::test
