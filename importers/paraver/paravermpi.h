#pragma once
// The MPI vocabulary of Paraver traces: the event types Extrae and Dimemas use for MPI calls
// and collective details, Extrae's numbering of MPI calls (the value of an MPI event, which the
// .pcf beside a trace labels), and what a call's name says about it.
//
// Event types (Extrae's merger, src/common/events.h and src/merger/paraver/MPI_EventEncoding.h,
// as written in the .pcf files it produces): 50000001 "MPI Point-to-point", 50000002 "MPI
// Collective Comm", 50000003 "MPI Other", 50000004 "MPI One-sided", 50000005 "MPI I/O"; a
// value > 0 enters the call it labels, 0 leaves it. At a collective's entry the same record
// carries 50100001 "Send Size in MPI Global OP", 50100002 "Recv Size in MPI Global OP",
// 50100003 "Root in MPI Global OP" (1 on the root's task) and 50100004 "Communicator in MPI
// Global OP" (the id of a "c:" communicator record). 60000019 "User function" labels non-MPI
// functions by value, 0 on leaving.

#include "model/trace/definitions.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rankscope::paraver {

inline constexpr uint32_t kMpiPointToPoint = 50000001;
inline constexpr uint32_t kMpiCollective = 50000002;
inline constexpr uint32_t kMpiOther = 50000003;
inline constexpr uint32_t kMpiOneSided = 50000004;
inline constexpr uint32_t kMpiIo = 50000005;
inline constexpr uint32_t kGlobalOpSendSize = 50100001;
inline constexpr uint32_t kGlobalOpRecvSize = 50100002;
inline constexpr uint32_t kGlobalOpRoot = 50100003;
inline constexpr uint32_t kGlobalOpComm = 50100004;
inline constexpr uint32_t kUserFunction = 60000019;
/// Rankscope's own type, written with a collective's details: its operation (CollectiveOp + 1),
/// which a call's name does not always tell (Score-P's MPI_Init holds a CreateHandle
/// collective). Paraver shows it as any other labelled event; other traces lack it.
inline constexpr uint32_t kCollectiveOp = 77700001;

/// Whether `type` is one of the MPI call types (50000001..50000005).
inline bool isMpiCallType(uint64_t type)
{
    return type >= kMpiPointToPoint && type <= kMpiIo;
}

/// The label Extrae gives an MPI call type ("MPI Point-to-point", ...).
std::string_view mpiTypeLabel(uint32_t type);

/// Extrae's name for MPI call value `value` ("MPI_Send" for 1), if it numbers it.
std::optional<std::string_view> extraeMpiName(uint64_t value);
/// Extrae's value for the MPI call `name` (any case), if it numbers it.
std::optional<uint32_t> extraeMpiValue(std::string_view name);

/// The model role of an MPI call of event type `type` named `name`: point-to-point,
/// collective (Barrier when the name says so) or other.
RegionRole mpiRole(uint32_t type, std::string_view name);
/// The event type an MPI region of `role` is written with.
uint32_t mpiTypeOf(RegionRole role);
/// The collective operation an MPI collective call named `name` performs (Other if none).
CollectiveOp collectiveOpOf(std::string_view name);
/// Whether the call named `name` starts a non-blocking send (MPI_Isend, MPI_Ibsend, ...).
bool isNonBlockingSend(std::string_view name);
/// Whether the call named `name` posts a non-blocking receive (MPI_Irecv, MPI_Imrecv).
bool isNonBlockingReceive(std::string_view name);

} // namespace rankscope::paraver
