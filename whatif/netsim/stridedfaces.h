#pragma once
// Halo faces by kind on a machine with several networks (ALGORITHMS.md §9; the TCA paper's
// contiguous and strided faces): which messages are strided faces, and what packing and
// unpacking them costs.

#include "model/trace/trace.h"
#include "whatif/netsim/actionprogram.h"
#include "whatif/netsim/networkspec.h"

#include <cstddef>

namespace rankscope::netsim {

/// Marks the strided faces of `program` (built by buildActions from `trace`, whose message
/// indices it shares): the point-to-point messages whose send call's site contains one of
/// `policy.stridedSites` (ActionProgram::strided). Each one's PostSend action gets the time to
/// pack it, and its WaitRecv action the time to unpack it: bytes / packBytesPerNs (none when
/// that is 0). Returns how many messages are strided; a policy without strided sites changes
/// nothing.
size_t markStridedFaces(const Trace& trace, const ChannelPolicy& policy, ActionProgram& program);

} // namespace rankscope::netsim
