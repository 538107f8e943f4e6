#pragma once
// The work of a packet-model replay, estimated before it starts: a spec with a tiny packet size
// or a program moving gigabytes would cut billions of packets and run for hours. Refused at
// once with the estimate and the spec named, as an import too large for the machine's memory
// is (model/support/memorybudget.h).

#include "whatif/netsim/actionprogram.h"
#include "whatif/netsim/collectivealgorithm.h"

#include <array>
#include <cstdint>
#include <string>

namespace rankscope::netsim {

/// Most packets a packet-model replay may cut. A pairwise alltoall of 64 ranks, 64 MiB at
/// packet_size 256 (16.5 M packets), replayed in 2.9 s on a crossbar and in 22.8 s on the
/// bundled 4-ary 3-tree (2 busy cores): 0.7-5.7 M packets/s, so this is 45 s to 6 min.
inline constexpr double kMostReplayPackets = 2.5e8;

struct PacketWork
{
    double packets = 0;        ///< every message's and collective round's packets (1 at least)
    uint64_t largestBytes = 0; ///< the largest single transfer
};

/// The packets of `program` at `packetBytes` per packet: each point-to-point message, and each
/// collective's rounds by `algorithms` (per CollKind; the schedule's own sizes), every member
/// walked when there are at most a million (member, round) steps, else an even sample scaled up.
/// Transfers between ranks of one node are counted too: an upper bound.
PacketWork plannedPacketWork(const ActionProgram& program,
                             const std::array<Algorithm, 9>& algorithms, uint32_t wideAreaStreams,
                             double packetBytes);

/// Throws TraceError naming `specSource` when plannedPacketWork exceeds kMostReplayPackets.
void requirePacketWork(const PacketWork& work, double packetBytes, const std::string& specSource);

} // namespace rankscope::netsim
