#include "whatif/netsim/calibration.h"

#include "model/analysis/runspan.h"
#include "whatif/netsim/calibrationlinkfit.h"
#include "whatif/netsim/calibrationsamples.h"
#include "whatif/netsim/calibrationsharing.h"
#include "whatif/netsim/machine.h"
#include "whatif/netsim/traceplacement.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace rankscope::netsim {

namespace {

constexpr size_t kMinSamples = 3;

/// The least-squares estimate of a constant.
double mean(const std::vector<double>& v)
{
    double sum = 0;
    for (double x : v)
        sum += x;
    return v.empty() ? 0 : sum / double(v.size());
}

std::string nsText(double ns)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6gns", ns);
    return buf;
}

std::string numberText(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

std::string bandwidthText(double bytesPerNs)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6gGB/s", bytesPerNs); // 1 byte/ns = 1 GB/s
    return buf;
}

/// A message's route as the fit sees it: one link class, its hop count, the protocol row.
struct Route
{
    std::string linkClass; ///< empty: mixed classes (not used)
    double hops = 0;
};

Route routeOf(const Machine& machine, const NetworkSpec& spec, uint32_t src, uint32_t dst,
              uint64_t bytes)
{
    const int net = machine.channel(src, dst, bytes);
    if (net < 0) {
        if (!machine.intraNode()) return {};
        return Route{machine.intraNode()->name, 1};
    }
    const PathInfo path =
        machine.topology(size_t(net)).path(machine.nodeOf(src), machine.nodeOf(dst));
    const LinkClass* c = spec.link(spec.networks[size_t(net)].link);
    if (!c || path.hops == 0) return {};
    const double expected = path.hops * c->latencyNs;
    const bool oneClass = std::abs(path.latencyNs - expected) <= 1e-9 * std::max(1.0, expected) &&
                          path.bytesPerNs == c->bytesPerNs;
    if (!oneClass) return {};
    return Route{c->name, double(path.hops)};
}

/// The eager limit that best explains the blocking sends' durations: up to it a send lasts o_s
/// (their mean), above it the transfer starts when the receive is posted (or after o_s) and the
/// send lasts until the data arrived: max(o_s, posted) + hops * L + b / B + protocol latency
/// (least squares over those sends). Candidates: the spec's limit, each message size (eager up
/// to it) and "all rendezvous"; one with one or two rendezvous sends (two parameters would fit
/// them exactly) is not judged. Chosen only when it at least halves the squared error of the
/// spec's limit.
struct EagerChoice
{
    uint64_t limit = 0;
    bool determined = false;
    uint64_t samples = 0;
    std::string note;
};

EagerChoice chooseEagerLimit(const std::vector<BlockingSendSample>& sends, const Machine& machine,
                             const NetworkSpec& spec, uint64_t specLimit)
{
    EagerChoice choice{specLimit, false, sends.size(), {}};
    if (sends.size() < 2 * kMinSamples) {
        choice.note = "too few blocking sends (" + std::to_string(sends.size()) + ")";
        return choice;
    }
    std::vector<uint64_t> candidates = {specLimit};
    uint64_t smallest = UINT64_MAX;
    for (const BlockingSendSample& s : sends) {
        candidates.push_back(s.bytes);
        smallest = std::min(smallest, s.bytes);
    }
    if (smallest > 0) candidates.push_back(smallest - 1);
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    auto error = [&](uint64_t limit) -> std::optional<double> {
        std::vector<double> eager;
        std::vector<const BlockingSendSample*> rendezvous;
        for (const BlockingSendSample& s : sends) {
            if (s.bytes <= limit)
                eager.push_back(s.durationNs);
            else
                rendezvous.push_back(&s);
        }
        if (!rendezvous.empty() && rendezvous.size() < kMinSamples) return std::nullopt;
        const double os = eager.empty() ? spec.sendOverheadNs : mean(eager);
        double rss = 0;
        for (double d : eager)
            rss += (d - os) * (d - os);
        if (rendezvous.empty()) return rss;
        Eigen::MatrixXd a(static_cast<Eigen::Index>(rendezvous.size()), 2);
        Eigen::VectorXd b(static_cast<Eigen::Index>(rendezvous.size()));
        for (size_t i = 0; i < rendezvous.size(); ++i) {
            const BlockingSendSample& s = *rendezvous[i];
            const Route r = routeOf(machine, spec, s.src, s.dst, s.bytes);
            const ProtocolEntry& p = machine.protocol(s.bytes);
            a(Eigen::Index(i), 0) = r.hops;
            a(Eigen::Index(i), 1) = double(s.bytes) / p.bandwidthFactor;
            b(Eigen::Index(i)) = s.durationNs - std::max(os, s.recvPostedAfterNs) - p.latencyNs;
        }
        const Eigen::VectorXd x = a.colPivHouseholderQr().solve(b);
        return rss + (a * x - b).squaredNorm();
    };
    const std::optional<double> base = error(specLimit);
    std::optional<double> best = base;
    for (uint64_t c : candidates) {
        const std::optional<double> e = error(c);
        if (e && (!best || *e < *best)) {
            best = e;
            choice.limit = c;
        }
    }
    if (!base || choice.limit == specLimit || *best > 0.5 * *base) {
        choice.limit = specLimit;
        choice.note = "no other limit halves the squared error of the send durations; kept";
        return choice;
    }
    choice.determined = true;
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "least squares over the send durations: %.0f %% of the spec's limit's squared "
                  "error",
                  100 * *best / *base);
    choice.note = buf;
    return choice;
}

/// Whether the transfers of `trace`, placed on the nodes it recorded, show how they slow down
/// when they share a node (calibrationsharing.h), with the spec's eager limit and overheads.
bool sharingShows(const Trace& trace, const NetworkSpec& input)
{
    const NetworkSpec placed =
        placedAsRecorded(input.withOverrides({{"mapping", "trace"}}), trace, nullptr);
    const Machine machine(placed, uint32_t(trace.rankCount()));
    const CalibrationSamples samples = collectCalibrationSamples(trace, placed.eagerLimit);
    const double os = samples.eagerSendNs.size() >= kMinSamples ? mean(samples.eagerSendNs)
                                                                : placed.sendOverheadNs;
    return fitSharing(samples.blockingSends, machine, os, placed.eagerLimit).determined;
}

} // namespace

CalibrationResult calibrate(const Trace& trace, const NetworkSpec& input,
                            const SimulationOptions& replay, CalibrationPlacement placement)
{
    CalibrationResult result;
    result.before = replayAgainstMeasured(trace, input, replay);
    std::vector<SpecOverride> overrides;

    // The placement first: which messages stay inside a node, and how many ranks share a
    // node's interface, decide what every other parameter is fitted to.
    static constexpr const char* kMappingNames[] = {"block", "cyclic", "file", "trace"};
    const std::string mappingBefore = kMappingNames[size_t(input.mapping)];
    CalibratedParameter mapping{"mapping", mappingBefore, mappingBefore, false, 0, std::nullopt,
                                {}};
    NetworkSpec working = input;
    const uint32_t recorded = recordedNodeCount(trace);
    // The fit below treats every transfer on its own; where ranks of one node send to other
    // nodes they also queue at the node's interface in the replay (LogGP's gap, the flow
    // model's shared link), which it does not see, so such placements are used only when asked.
    const bool sharedInterfaces =
        recorded > 1 &&
        placedAsRecorded(input.withOverrides({{"mapping", "trace"}}), trace, nullptr).ranksPerNode >
            1;
    if (recorded == 0) {
        mapping.note = "the trace does not record the compute node of every rank";
    } else if (input.mapping == RankMapping::Trace) {
        mapping.note = "already as the trace recorded it";
    } else if (placement == CalibrationPlacement::Spec) {
        mapping.note = "kept as in the spec (--placement spec)";
    } else if (placement == CalibrationPlacement::Auto && sharedInterfaces &&
               !(replay.model == "flow" && sharingShows(trace, input))) {
        mapping.note = "kept: the trace records " + std::to_string(recorded) +
                       " nodes shared by several ranks, and without the flow model and a "
                       "contention the trace shows the fit does not model ranks queueing at a "
                       "node's interface (--placement trace to use it)";
    } else {
        working = input.withOverrides({{"mapping", "trace"}});
        overrides.push_back({"mapping", "trace"});
        mapping.after = "trace";
        mapping.determined = true;
        mapping.samples = trace.rankCount();
    }
    if (recorded > 0 && (mapping.determined || input.mapping == RankMapping::Trace)) {
        const NetworkSpec placed = placedAsRecorded(working, trace, nullptr);
        mapping.note = recorded == 1 ? "the trace ran on one compute node"
                                     : "the trace records " + std::to_string(recorded) +
                                           " compute nodes, up to " +
                                           std::to_string(placed.ranksPerNode) + " ranks on one";
    }
    const NetworkSpec spec = placedAsRecorded(working, trace, nullptr);
    result.parameters.push_back(mapping);

    const uint64_t specLimit = replay.eagerLimit.value_or(spec.eagerLimit);
    const Machine machine(spec, uint32_t(trace.rankCount()));
    // The eager limit first: which sends are eager decides what o_s and the transfers are.
    const EagerChoice eager = chooseEagerLimit(
        collectCalibrationSamples(trace, specLimit).blockingSends, machine, spec, specLimit);
    const uint64_t eagerLimit = eager.limit;
    const CalibrationSamples samples = collectCalibrationSamples(trace, eagerLimit);

    // Send overhead.
    CalibratedParameter os{"overhead.send",
                           nsText(spec.sendOverheadNs),
                           {},
                           false,
                           samples.eagerSendNs.size(),
                           std::nullopt,
                           {}};
    double sendOverhead = spec.sendOverheadNs;
    if (samples.eagerSendNs.size() >= kMinSamples) {
        sendOverhead = mean(samples.eagerSendNs);
        os.determined = true;
        os.note = "mean duration of eager single-message sends";
    } else {
        os.note = "too few eager sends (" + std::to_string(samples.eagerSendNs.size()) + ")";
    }
    CalibratedParameter orp{
        "overhead.recv", nsText(spec.recvOverheadNs), {}, false, 0, std::nullopt, {}};
    double recvOverhead = spec.recvOverheadNs;

    // A completing call waited when it lasted more than twice what an MPI call costs without
    // waiting: the eager send's cost when known, else what the quickest quarter of the
    // completing calls lasted.
    std::vector<double> durations;
    for (const CompletionSample& c : samples.completions)
        durations.push_back(c.leaveNs - c.enterNs);
    double quick = 0;
    if (!durations.empty()) {
        const size_t q = durations.size() / 4;
        std::nth_element(durations.begin(), durations.begin() + long(q), durations.end());
        quick = durations[q];
    }
    if (os.determined) quick = sendOverhead;

    // Current transfer parameters per link class, from the spec, refined by each round.
    std::map<std::string, std::pair<double, double>> params; // latency, ns per byte
    for (const LinkClass& lc : spec.links)
        params[lc.name] = {lc.latencyNs, lc.bytesPerNs > 0 ? 1.0 / lc.bytesPerNs : 0.0};
    auto transferNs = [&](const Route& r, uint64_t bytes) {
        const ProtocolEntry& p = machine.protocol(bytes);
        const auto& [latency, perByte] = params[r.linkClass];
        return p.latencyNs + r.hops * latency + double(bytes) * perByte / p.bandwidthFactor;
    };
    std::vector<Route> routes(samples.received.size());
    for (const CompletionSample& c : samples.completions)
        for (uint32_t k = c.first; k < c.first + c.count; ++k)
            routes[k] =
                routeOf(machine, spec, samples.received[k].src, c.dst, samples.received[k].bytes);

    // Which message of a call arrived last depends on the very latency and bandwidth being
    // fitted; when the messages differ in size, a wrong choice fits itself (it is a fixed point
    // of choosing and fitting), so such calls are left out. With one size the last to arrive
    // is the last sent.
    auto mixedSizes = [&](const CompletionSample& c) {
        for (uint32_t k = c.first + 1; k < c.first + c.count; ++k)
            if (samples.received[k].bytes != samples.received[c.first].bytes) return true;
        return false;
    };
    // As in the replay: an eager message leaves o_s after its send started; a rendezvous one
    // when the receive is posted too.
    auto transferStart = [&](const ReceivedMessage& m) {
        const double ready = m.sendEnterNs + sendOverhead;
        return m.bytes > eagerLimit ? std::max(ready, m.recvPostedNs) : ready;
    };
    std::map<std::string, ClassFit> fits;
    std::vector<double> arrived;
    // The message that ended a call, and whether a receive found its message there, depend
    // on the transfer times: three rounds of choosing and fitting settle them.
    for (int round = 0; round < 3; ++round) {
        std::map<std::string, std::map<std::pair<double, double>, LinkFitGroup>> classes;
        auto add = [&](const std::string& linkClass, double h, double v, double z) {
            LinkFitGroup& g = classes[linkClass][{h, v}];
            g.hops = h;
            g.v = v;
            g.z.push_back(z);
        };
        arrived.clear();
        uint64_t used = 0, mixed = 0;
        for (const CompletionSample& c : samples.completions) {
            if (mixedSizes(c)) continue;
            uint32_t last = c.first;
            double lastArrival = -1e300;
            bool known = true;
            for (uint32_t k = c.first; k < c.first + c.count; ++k) {
                if (routes[k].linkClass.empty()) {
                    known = false;
                    break;
                }
                const double a = transferStart(samples.received[k]) +
                                 transferNs(routes[k], samples.received[k].bytes);
                if (a > lastArrival) {
                    lastArrival = a;
                    last = k;
                }
            }
            if (!known) {
                ++mixed;
                continue;
            }
            const ReceivedMessage& m = samples.received[last];
            const double duration = c.leaveNs - c.enterNs;
            if (c.blocking && c.enterNs >= lastArrival) {
                arrived.push_back(duration);
                continue;
            }
            // An eager message may have been there before the call (it did not wait); a
            // rendezvous transfer starts at the earliest when the receive is posted.
            if (m.bytes <= eagerLimit && duration <= 2 * quick) continue;
            const ProtocolEntry& p = machine.protocol(m.bytes);
            add(routes[last].linkClass, routes[last].hops, double(m.bytes) / p.bandwidthFactor,
                c.leaveNs - transferStart(m) - recvOverhead - p.latencyNs);
            ++used;
        }
        for (const RendezvousSendSample& x : samples.rendezvousSends) {
            const Route r = routeOf(machine, spec, x.src, x.dst, x.bytes);
            if (r.linkClass.empty()) {
                ++mixed;
                continue;
            }
            const ProtocolEntry& p = machine.protocol(x.bytes);
            add(r.linkClass, r.hops, double(x.bytes) / p.bandwidthFactor,
                x.durationNs - sendOverhead - p.latencyNs);
            ++used;
        }
        for (const BarrierSample& b : samples.barriers) {
            const Route r = routeOf(machine, spec, b.first, b.second, 0);
            if (r.linkClass.empty()) {
                ++mixed;
                continue;
            }
            double rounds = 0;
            while ((uint64_t(1) << uint64_t(rounds)) < b.members)
                rounds += 1;
            const ProtocolEntry& p = machine.protocol(0);
            add(r.linkClass, rounds * r.hops, 0.0,
                b.costNs - rounds * (sendOverhead + recvOverhead + p.latencyNs));
            ++used;
        }
        result.transferSamples = used;
        result.skippedTransfers = mixed;
        fits.clear();
        for (const auto& [name, groups] : classes) {
            fits[name] = fitClass(groups, *spec.link(name));
            params[name] = {fits[name].latencyNs, fits[name].nsPerByte};
        }
        if (arrived.size() >= kMinSamples) recvOverhead = mean(arrived);
    }
    orp.samples = arrived.size();
    if (arrived.size() >= kMinSamples) {
        orp.determined = true;
        orp.note = "mean duration of blocking receives whose message had arrived";
    } else {
        orp.note = "too few blocking receives entered after their message arrived (" +
                   std::to_string(arrived.size()) + ")";
    }

    CalibratedParameter el{"eager_limit",
                           std::to_string(specLimit),
                           std::to_string(eager.limit),
                           eager.determined,
                           eager.samples,
                           std::nullopt,
                           eager.note};
    if (el.determined) overrides.push_back({el.key, el.after});
    if (os.determined) {
        os.after = nsText(sendOverhead);
        overrides.push_back({os.key, os.after});
    }
    if (orp.determined) {
        orp.after = nsText(recvOverhead);
        overrides.push_back({orp.key, orp.after});
    }
    result.parameters.push_back(el);
    result.parameters.push_back(os);
    result.parameters.push_back(orp);
    // Contention, for the flow model only (the one that shares links by it).
    SharingFit sharing;
    sharing.note = "used by the flow model only (--model flow)";
    if (replay.model == "flow")
        sharing = fitSharing(samples.blockingSends, machine, sendOverhead, eagerLimit);
    for (const LinkClass& lc : spec.links) {
        const auto f = fits.find(lc.name);
        CalibratedParameter lat{"links." + lc.name + ".latency",
                                nsText(lc.latencyNs),
                                {},
                                false,
                                0,
                                std::nullopt,
                                "no message whose receiver waited used this "
                                "link class on its own"};
        CalibratedParameter bw{"links." + lc.name + ".bandwidth",
                               bandwidthText(lc.bytesPerNs),
                               {},
                               false,
                               0,
                               std::nullopt,
                               lat.note};
        if (f != fits.end()) {
            const ClassFit& fit = f->second;
            lat.samples = bw.samples = fit.samples;
            lat.determined = fit.latencyDetermined;
            lat.note = fit.latencyNote;
            lat.relStdError = fit.latencyRse;
            if (lat.determined) {
                lat.after = nsText(fit.latencyNs);
                overrides.push_back({lat.key, lat.after});
            }
            bw.determined = fit.bandwidthDetermined;
            bw.note = fit.bandwidthNote;
            bw.relStdError = fit.bandwidthRse;
            if (bw.determined) {
                bw.after = bandwidthText(1.0 / fit.nsPerByte);
                overrides.push_back({bw.key, bw.after});
            }
        }
        const bool intra = lc.name == spec.intraNodeLink;
        CalibratedParameter sh{"links." + lc.name + ".sharing",
                               numberText(lc.sharingOr(intra ? 0 : 1)),
                               {},
                               false,
                               sharing.samples,
                               sharing.relStdError,
                               sharing.note};
        if (const auto b = sharing.bytesPerNs.find(lc.name);
            sharing.determined && b != sharing.bytesPerNs.end()) {
            sh.determined = true;
            sh.after = numberText(sharing.exponent);
            overrides.push_back({sh.key, sh.after});
            bw.determined = true;
            bw.samples = sharing.classSamples.at(lc.name);
            bw.relStdError.reset();
            bw.note = "a transfer alone on its node, fitted with the sharing exponent";
            bw.after = bandwidthText(b->second);
            // Fitted without contention, the latency absorbs it: keep the spec's.
            std::erase_if(overrides, [&](const SpecOverride& o) {
                return o.key == bw.key || o.key == lat.key;
            });
            overrides.push_back({bw.key, bw.after});
            if (lat.determined) {
                lat.determined = false;
                lat.note = "kept as in the spec: fitted without the contention, it would "
                           "absorb it";
            }
        } else if (sharing.determined) {
            sh.note = "no rendezvous send whose receive was ready used this link class";
        }
        result.parameters.push_back(lat);
        result.parameters.push_back(bw);
        result.parameters.push_back(sh);
    }
    for (CalibratedParameter& p : result.parameters)
        if (!p.determined) p.after = p.before;

    result.spec = input.withOverrides(overrides);
    result.after = replayAgainstMeasured(trace, result.spec, replay);
    return result;
}

} // namespace rankscope::netsim
