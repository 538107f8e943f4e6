#pragma once
// What each rank does, as the simulator replays it (ALGORITHMS.md §7.1): flat action lists per
// rank plus the message and collective tables they refer to.
//
// Design note: everything is in a few flat vectors (16 bytes per action, 16 per message, a
// start time per rank), never an object per rank, so a million-rank program fits in memory.
// A blocking send is PostSend + WaitSend; a non-blocking one is PostSend now and WaitSend in the
// MPI_Wait* call that completed it. Enter/Leave bracket each MPI call (for MPI time and for the
// simulated trace).

#include "whatif/netsim/collectivealgorithm.h"
#include "whatif/netsim/hugepageallocator.h"

#include <cstdint>
#include <vector>

namespace rankscope::netsim {

enum class ActionKind : uint8_t
{
    Compute,    ///< value = duration in ns
    Enter,      ///< an MPI call begins
    Leave,      ///< it ends
    PostSend,   ///< ref = message; value = time to pack it first (strided faces), else 0
    PostRecv,   ///< ref = message
    WaitSend,   ///< ref = message: blocks until the send completed
    WaitRecv,   ///< ref = message: blocks until the data arrived; value = time to unpack it
    Collective, ///< ref = collective; value = this rank's index in its communicator
};

struct Action
{
    ActionKind kind = ActionKind::Compute;
    uint32_t ref = 0;
    double value = 0;
};

inline constexpr uint32_t kNoRank = 0xFFFFFFFFu;

/// A point-to-point message; an end is kNoRank when the trace has no partner for it.
struct ProgramMessage
{
    uint32_t src = kNoRank;
    uint32_t dst = kNoRank;
    uint64_t bytes = 0;
};

struct ProgramCollective
{
    CollKind kind = CollKind::None;
    uint32_t comm = 0;  ///< index into ActionProgram::comms
    uint32_t root = 0;  ///< root's index in the communicator (0 when none)
    uint64_t bytes = 0; ///< the operation's size M (see collectiveschedule.h)
};

struct ActionProgram
{
    std::vector<size_t> rankBegin; ///< actions of rank r: [rankBegin[r], rankBegin[r + 1])
    std::vector<Action, HugePageAllocator<Action>> actions;
    std::vector<double> startNs; ///< when each rank starts
    /// Where the compared span begins (model/analysis/runspan.h); with synchronisedStart every rank
    /// that called MPI_Init starts there, having left it together.
    double spanStartNs = 0;
    bool synchronisedStart = false;
    std::vector<ProgramMessage, HugePageAllocator<ProgramMessage>> messages;
    std::vector<ProgramCollective> collectives;
    std::vector<std::vector<uint32_t>> comms; ///< member world ranks; empty = every rank in order
    /// Per message, whether it is a strided halo face (Placement::Strided); empty when none is.
    /// A strided face's PostSend and WaitRecv actions hold its pack and unpack time as value.
    std::vector<uint8_t> strided;

    uint32_t rankCount() const { return uint32_t(startNs.size()); }
    /// World rank of member `i` of communicator `c`.
    uint32_t member(uint32_t c, uint32_t i) const { return comms[c].empty() ? i : comms[c][i]; }
    uint32_t commSize(uint32_t c) const
    {
        return comms[c].empty() ? rankCount() : uint32_t(comms[c].size());
    }
};

} // namespace rankscope::netsim
