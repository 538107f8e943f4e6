#pragma once
// `mapping: trace`: ranks placed on the compute nodes the measurement recorded (Rank::host,
// from the OTF2 system tree), so a replay or a calibration sees the machine the trace came from:
// which messages stayed inside a node and how many ranks shared a node's network interface.

#include "model/trace/trace.h"
#include "whatif/netsim/networkspec.h"

#include <string>

namespace rankscope::netsim {

/// `spec` ready for a replay of `trace`. With `mapping: trace`: the nodes the trace recorded,
/// numbered in order of their first rank (node i of the spec's topology), as a mapping table,
/// and ranks_per_node raised to the most ranks a node held. A trace that does not record the
/// node of every rank (a generated or synthesized one) is placed `block` instead, and `note`
/// says so. Other mappings are returned unchanged. Throws TraceError, naming the spec, when the
/// trace ran on more nodes than the spec's machine has.
NetworkSpec placedAsRecorded(const NetworkSpec& spec, const Trace& trace, std::string* note);

/// The number of distinct compute nodes `trace` records, 0 when some rank has none.
uint32_t recordedNodeCount(const Trace& trace);

} // namespace rankscope::netsim
