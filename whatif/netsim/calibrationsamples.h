#pragma once
// What a trace measured about its network, as calibration (calibration.h) reads it: the
// durations of eager sends, of receives whose message was already there, and the
// send-to-receive times of matched messages whose receiver was waiting when they were sent.
//
// Design note: only observations whose replayed counterpart is a sum of LogGP terms are kept,
// so a least-squares fit of the terms is meaningful:
//  - an eager MPI_Send / MPI_Isend posting one message lasts o_s in the replay;
//  - a call completing receives (MPI_Recv, MPI_Wait*) that had to wait ends o_r after the last
//    of its messages arrived, o_s + route latency + protocol latency + bytes / bandwidth after
//    that message's send call started; a blocking receive entered after its message arrived
//    lasts o_r. Which message arrived last, and whether a call waited, depends on the transfer
//    times being fitted, so the samples keep every message of a completing call and
//    calibration.cpp decides.
// Calls before the end of MPI_Init and MPI_Finalize are skipped (the span rule,
// model/analysis/runspan.h).

#include "model/trace/trace.h"

#include <cstdint>
#include <vector>

namespace rankscope::netsim {

/// A received message of a completing call: its sender, when the send call started and when
/// the call that posted the receive started (a rendezvous transfer starts at the later of the
/// two, as in the replay).
struct ReceivedMessage
{
    uint32_t src = 0;
    uint64_t bytes = 0;
    double sendEnterNs = 0;
    double recvPostedNs = 0;
    bool operator==(const ReceivedMessage&) const = default;
};

/// A call that completed matched receives (every one with a known send).
struct CompletionSample
{
    uint32_t dst = 0;
    double enterNs = 0, leaveNs = 0;
    bool blocking = false;         ///< a blocking receive of one message (MPI_Recv)
    uint32_t first = 0, count = 0; ///< its messages in CalibrationSamples::received
    bool operator==(const CompletionSample&) const = default;
};

/// A blocking send of one message above the eager limit whose receive was posted before it
/// started: in the replay it lasts o_s + route latency + protocol latency + bytes / bandwidth.
struct RendezvousSendSample
{
    uint32_t src = 0, dst = 0;
    uint64_t bytes = 0;
    double durationNs = 0;
    bool operator==(const RendezvousSendSample&) const = default;
};

/// A barrier: from its last member's entry to its last member's exit is its cost without the
/// waiting (the dissemination algorithm's rounds of empty messages in the replay).
struct BarrierSample
{
    uint32_t members = 0;
    uint32_t first = 0, second = 0; ///< world ranks of members 0 and 1 (a representative route)
    double costNs = 0;
    bool operator==(const BarrierSample&) const = default;
};

/// A blocking MPI_Send of one message, any size (for the eager limit).
struct BlockingSendSample
{
    uint32_t src = 0, dst = 0;
    uint64_t bytes = 0;
    double durationNs = 0;
    double enterNs = 0; ///< when the send started
    /// When the receive was posted, from the send's start (<= 0: the receiver was ready).
    double recvPostedAfterNs = 0;
    bool operator==(const BlockingSendSample&) const = default;
};

struct CalibrationSamples
{
    std::vector<double> eagerSendNs; ///< durations of eager single-message sends
    std::vector<RendezvousSendSample> rendezvousSends;
    std::vector<BlockingSendSample> blockingSends;
    std::vector<BarrierSample> barriers;
    std::vector<CompletionSample> completions;
    std::vector<ReceivedMessage> received;
    bool operator==(const CalibrationSamples&) const = default;
};

/// Collects the samples of `trace`; messages up to `eagerLimit` bytes count as eager.
CalibrationSamples collectCalibrationSamples(const Trace& trace, uint64_t eagerLimit);

} // namespace rankscope::netsim
