#include "whatif/netsim/replaywork.h"

#include "model/trace/traceerror.h"
#include "whatif/netsim/collectiveschedule.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

namespace rankscope::netsim {

namespace {

double packetsOf(double bytes, double packetBytes)
{
    return std::max(1.0, std::ceil(bytes / packetBytes));
}

/// Steps walked per distinct collective at most; beyond, members are sampled evenly.
constexpr double kMostSteps = 1e6;
/// Steps walked in all; beyond, a collective of a size not walked yet is scaled from one of
/// its kind, members and root that was (its rounds move bytes in proportion to M).
constexpr double kMostStepsInAll = 3e7;

} // namespace

PacketWork plannedPacketWork(const ActionProgram& program,
                             const std::array<Algorithm, 9>& algorithms, uint32_t wideAreaStreams,
                             double packetBytes)
{
    PacketWork w;
    for (const ProgramMessage& m : program.messages) {
        w.packets += packetsOf(double(m.bytes), packetBytes);
        w.largestBytes = std::max(w.largestBytes, m.bytes);
    }
    // Collectives repeat (every iteration's allreduce is the same): one walk per kind.
    using Key = std::tuple<CollKind, uint32_t, uint32_t, uint64_t>;
    struct Walked
    {
        double packets = 0, largest = 0, sends = 0;
        uint64_t bytes = 0;
    };
    std::map<Key, Walked> memo;
    std::map<std::tuple<CollKind, uint32_t, uint32_t>, Walked> shapes; // the last walk of each
    double walkedInAll = 0;
    for (const ProgramCollective& c : program.collectives) {
        const uint32_t size = program.commSize(c.comm);
        const Key key{c.kind, size, c.root, c.bytes};
        auto it = memo.find(key);
        const auto shape = shapes.find({c.kind, size, c.root});
        if (it == memo.end() && walkedInAll > kMostStepsInAll && shape != shapes.end() &&
            shape->second.bytes > 0) {
            const Walked& like = shape->second;
            const double scale = double(c.bytes) / double(like.bytes);
            Walked scaled{std::max(like.sends, like.packets * scale), like.largest * scale,
                          like.sends, c.bytes};
            it = memo.emplace(key, scaled).first;
        }
        if (it == memo.end()) {
            const CollectiveSchedule s(c.kind, algorithms[size_t(c.kind)], size, c.root,
                                       double(c.bytes), wideAreaStreams);
            const double steps = double(s.members()) * s.roundCount();
            const uint32_t stride =
                steps <= kMostSteps ? 1u : uint32_t(std::ceil(steps / kMostSteps));
            Walked walk;
            walk.bytes = c.bytes;
            uint32_t walked = 0;
            for (uint32_t m = 0; m < s.members(); m += stride, ++walked)
                for (uint32_t k = 0; k < s.roundCount(); ++k) {
                    const CollectiveStep step = s.step(m, k);
                    if (step.sendTo == kNoPeer) continue;
                    walk.packets += packetsOf(step.sendBytes, packetBytes);
                    walk.largest = std::max(walk.largest, step.sendBytes);
                    walk.sends += 1;
                }
            walkedInAll += double(walked) * s.roundCount();
            if (walked > 0) {
                walk.packets *= double(s.members()) / walked;
                walk.sends *= double(s.members()) / walked;
            }
            shapes[{c.kind, size, c.root}] = walk;
            it = memo.emplace(key, walk).first;
        }
        w.packets += it->second.packets;
        w.largestBytes = std::max(w.largestBytes, uint64_t(it->second.largest));
    }
    return w;
}

void requirePacketWork(const PacketWork& work, double packetBytes, const std::string& specSource)
{
    if (work.packets <= kMostReplayPackets) return;
    // The rates measured for kMostReplayPackets (replaywork.h).
    char text[640];
    std::snprintf(text, sizeof text,
                  ": the packet model would cut about %.3g packets (packet_size %.0f bytes; the "
                  "largest transfer, %llu bytes, is %.3g packets by itself), more than the %.3g "
                  "a replay may take (at the 0.7-5.7 million packets a second measured, %.0f to "
                  "%.0f minutes); use a larger packet_size, or the flow or loggp model",
                  work.packets, packetBytes, (unsigned long long)work.largestBytes,
                  packetsOf(double(work.largestBytes), packetBytes), kMostReplayPackets,
                  work.packets / 5.7e6 / 60, work.packets / 0.7e6 / 60);
    throw TraceError(specSource + text);
}

} // namespace rankscope::netsim
