#pragma once
// Point-to-point dependencies of one MPI call (ALGORITHMS.md §6.2, names as in Scalasca):
// - Late Sender: a call completing a receive (MPI_Recv, the receive of MPI_Sendrecv, the
//   MPI_Wait* holding the MpiIrecv) depends on the Enter of the matching send call.
// - Late Receiver: a call completing a send that must synchronise (MPI_Ssend, MPI_Issend
//   completed in an MPI_Wait*, or any message above the eager limit) depends on the Enter of
//   the call that posted the matching receive (the MPI_Irecv, or the MPI_Recv itself).
// Scalasca's pattern reference (scout_patterns, "Late Sender": "a receive operation is posted
// earlier than the corresponding send operation"; "Late Receiver": "a send operation is blocked
// until the corresponding receive operation is called") states the same two cases.
// MPI_Test* calls never wait (they return at once), so they have no dependency.
// A message whose other end another process holds (rankscope-mpi) is unmatched in the part;
// its partner's call comes from the WaitBoundary instead.

#include "model/trace/callrecord.h"
#include "model/waits/waitdependency.h"

#include <cstdint>
#include <vector>

namespace rankscope {

class Trace;
class WaitCallLocator;
struct WaitBoundary;

class WaitPointToPoint
{
public:
    /// `boundary` (may be null) gives the partners of messages whose other end is not in
    /// `trace`; it must outlive this object.
    WaitPointToPoint(const Trace& trace, const WaitCallLocator& locator, uint64_t eagerLimit,
                     const WaitBoundary* boundary = nullptr);

    /// Adds the dependency of `payload` (an event of `call` on `rank`) to `best`; true when the
    /// call synchronises with another rank through it (whether or not it waits).
    bool consider(RankId rank, const CallRecord& call, const CallPayload& payload,
                  WaitDependency& best) const;

private:
    bool lateSender(RankId rank, const Message& m, WaitDependency& best) const;
    bool lateReceiver(RankId rank, MessageId id, const Message& m, WaitDependency& best) const;
    bool synchronising(const Message& m) const;
    bool considerRemote(MessageId id, const Message& m, EventKind kind, WaitDependency& best) const;

    const Trace& trace_;
    const WaitCallLocator& locator_;
    uint64_t eagerLimit_;
    const WaitBoundary* boundary_;
    std::vector<uint8_t> nonBlocking_; // per region: MPI_Test* (never waits)
    std::vector<uint8_t> synchronous_; // per region: MPI_Ssend / MPI_Issend
};

} // namespace rankscope
