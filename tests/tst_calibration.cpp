// Calibration (whatif/netsim/calibration.h) recovers the network a generated trace was made
// with. The generator's model (model/generator/tracegenerator.h): a message of b bytes arrives
// latency + b / bandwidth after its send record, which sits half an MPI call (mpiCallNs / 2)
// after the send's Enter; a blocking receive records it on arrival and leaves half a call later;
// a send lasts one call. The replay's terms (netsim/replayengine.h) map onto that by hand:
//   o_s = mpiCallNs (a send's duration);
//   receive end - send start = mpiCallNs + latency + b / bandwidth
//                            = o_s + 2 L + b / B + o_r   (a crossbar route crosses two links),
// so with o_r = 0 in the spec: L = latency / 2 per link and B = bandwidth.

#include "model/generator/tracegenerator.h"
#include "testsupport/handtrace.h"
#include "whatif/netsim/calibration.h"
#include "whatif/netsim/calibrationsharing.h"
#include "whatif/netsim/machine.h"

#include <QTest>
#include <cmath>

using namespace rankscope;
using namespace rankscope::netsim;

namespace {

constexpr const char* kSpec = R"(name: flat
nodes: 8
ranks_per_node: 1
eager_limit: 1GiB
overhead: {send: 1us, recv: 0ns}
links:
  net: {latency: 500ns, bandwidth: 25GB/s}
  shm: {latency: 100ns, bandwidth: 50GB/s}
intra_node: shm
networks:
  n: {topology: crossbar, link: net}
)";

const CalibratedParameter& param(const CalibrationResult& r, const std::string& key)
{
    for (const CalibratedParameter& p : r.parameters)
        if (p.key == key) return p;
    qFatal("no parameter %s", key.c_str());
}

/// A value with units as calibration writes them ("123.4ns", "2GB/s") in ns or bytes/ns.
double number(const std::string& text)
{
    return std::stod(text);
}

} // namespace

class TestCalibration : public QObject
{
    Q_OBJECT

private slots:
    void sharingFromConcurrency()
    {
        // Eight ranks on one node. Groups of k = 1, 2, 4, 8 rendezvous sends of 1 MiB start
        // together (receives posted first) and each lasts o_s + shm latency + b / B * k^s with
        // o_s = 1 us, latency 100 ns, B = 2 bytes/ns, s = 0.5: the fit must give s and B back.
        const NetworkSpec spec =
            NetworkSpec::fromString(kSpec, "flat.yaml")
                .withOverrides({{"nodes", "1"}, {"ranks_per_node", "8"}, {"eager_limit", "64KiB"}});
        const Machine machine(spec, 8);
        const uint64_t b = 1 << 20;
        std::vector<BlockingSendSample> sends;
        double t = 0;
        for (int repeat = 0; repeat < 3; ++repeat)
            for (uint32_t k : {1u, 2u, 4u, 8u}) {
                const double d = 1000 + 100 + double(b) / 2 * std::pow(double(k), 0.5);
                for (uint32_t r = 0; r < k; ++r)
                    sends.push_back({r, (r + 1) % 8, b, d, t, -10});
                t += 10 * d;
            }
        const SharingFit fit = fitSharing(sends, machine, 1000, 64 * 1024);
        QVERIFY2(fit.determined, fit.note.c_str());
        QCOMPARE(fit.samples, uint64_t(3 * 15));
        QVERIFY(std::abs(fit.exponent - 0.5) < 1e-9);
        QVERIFY(std::abs(fit.bytesPerNs.at("shm") - 2.0) < 1e-9);
        // One concurrency only (all groups of 4): the exponent cannot show.
        std::vector<BlockingSendSample> four;
        for (const BlockingSendSample& x : sends)
            if (std::abs(x.durationNs - (1100 + double(b) / 2 * 2)) < 1e-6) four.push_back(x);
        const SharingFit flat = fitSharing(four, machine, 1000, 64 * 1024);
        QVERIFY(!flat.determined);
        QVERIFY2(flat.note.find("hardly varies") != std::string::npos, flat.note.c_str());
        // Sends that waited for their receive are no samples, but occupy the node while their
        // data moves (from the receive's posting on): one ready send beside k - 1 of them
        // sees k.
        std::vector<BlockingSendSample> beside;
        t = 0;
        for (int repeat = 0; repeat < 3; ++repeat)
            for (uint32_t k : {1u, 2u, 4u, 8u}) {
                const double d = 1100 + double(b) / 2 * std::pow(double(k), 0.5);
                beside.push_back({0, 1, b, d, t, -10});
                for (uint32_t r = 1; r < k; ++r)
                    beside.push_back({r, (r + 1) % 8, b, d + 500, t - 500, 500});
                t += 10 * d;
            }
        const SharingFit fromOne = fitSharing(beside, machine, 1000, 64 * 1024);
        QVERIFY2(fromOne.determined, fromOne.note.c_str());
        QCOMPARE(fromOne.samples, uint64_t(12));
        QVERIFY(std::abs(fromOne.exponent - 0.5) < 1e-9);
    }

    void recoversGeneratorNetwork_data()
    {
        QTest::addColumn<double>("latencyNs");
        QTest::addColumn<double>("bytesPerSecond");
        QTest::addColumn<double>("callNs");
        QTest::newRow("20us 2GB/s") << 20000.0 << 2e9 << 400.0;
        QTest::newRow("3us 10GB/s") << 3000.0 << 10e9 << 1000.0;
        QTest::newRow("80us 0.5GB/s") << 80000.0 << 0.5e9 << 250.0;
    }

    void recoversGeneratorNetwork()
    {
        QFETCH(double, latencyNs);
        QFETCH(double, bytesPerSecond);
        QFETCH(double, callNs);
        GeneratorOptions g;
        g.pattern = "pingpong";
        g.ranks = 4;
        g.iterations = 48;
        g.sizeSteps = 8; // 1 KiB .. 128 KiB
        g.messageBytes = 1024;
        g.latencyNs = latencyNs;
        g.bandwidthBytesPerSecond = bytesPerSecond;
        g.mpiCallNs = callNs;
        // Little computation, so the network is a good part of the run.
        g.regions = {{"prepare", 1000, ScalingLaw::Constant},
                     {"compute", 5000, ScalingLaw::Constant}};
        const Trace trace = generateTrace(g);
        const NetworkSpec spec = NetworkSpec::fromString(kSpec, "flat.yaml");
        const CalibrationResult r = calibrate(trace, spec, SimulationOptions{});

        const CalibratedParameter& os = param(r, "overhead.send");
        QVERIFY(os.determined);
        QVERIFY2(std::abs(number(os.after) / callNs - 1) < 0.02, os.after.c_str());
        const CalibratedParameter& lat = param(r, "links.net.latency");
        QVERIFY2(lat.determined, lat.note.c_str());
        QVERIFY2(std::abs(number(lat.after) / (latencyNs / 2) - 1) < 0.02, lat.after.c_str());
        const CalibratedParameter& bw = param(r, "links.net.bandwidth");
        QVERIFY2(bw.determined, bw.note.c_str());
        QVERIFY2(std::abs(number(bw.after) / (bytesPerSecond / 1e9) - 1) < 0.02, bw.after.c_str());
        QCOMPARE(lat.samples, uint64_t(2 * 2 * 48)); // two pairs, ping and pong per iteration

        // What the trace cannot tell stays as in the spec, and says so: every receive waited
        // (no o_r sample), and no two ranks share a node (no shared-memory message).
        const CalibratedParameter& orp = param(r, "overhead.recv");
        QVERIFY(!orp.determined);
        QCOMPARE(orp.after, orp.before);
        QVERIFY(!orp.note.empty());
        QVERIFY(!param(r, "links.shm.latency").determined);
        QCOMPARE(param(r, "links.shm.bandwidth").after, param(r, "links.shm.bandwidth").before);

        // The calibrated replay reproduces the generated run; the spec's did not.
        QVERIFY2(std::abs(r.after.errorPct) < 1.0, std::to_string(r.after.errorPct).c_str());
        QVERIFY(std::abs(r.before.errorPct) > 5.0);
        QCOMPARE(r.after.ranksMpiWithin20Pct, 4u);
        // The calibrated spec carries the values as overrides.
        QCOMPARE(r.spec.link("net")->latencyNs,
                 spec.withOverrides({{lat.key, lat.after}}).link("net")->latencyNs);
    }

    void eagerLimitFromSendDurations()
    {
        // Blocking sends of 256, 512 and 1024 bytes last 500 ns whatever their size (eager);
        // those of 1, 2 and 4 MiB last until their data has arrived: 500 + 2 x 1000 + b / 1
        // (receive posted first, a crossbar route of 1 us links at 1 byte/ns). The spec's limit
        // (64 MiB: all eager) explains that badly; "eager up to 1024 bytes" exactly.
        test::TwoRanks w;
        const uint64_t sizes[] = {256, 512, 1024, 1u << 20, 2u << 20, 4u << 20};
        int64_t t = 1000;
        for (uint64_t b : sizes) {
            const int64_t d = b <= 1024 ? 500 : 2500 + int64_t(b);
            w.h.enter(w.r1, t - 100, w.recv);
            w.h.enter(w.r0, t, w.send);
            w.h.builder().send(w.r0, t + 1, 1, w.world, 0, b);
            w.h.leave(w.r0, t + d, w.send);
            w.h.builder().recv(w.r1, t + d + 5, 0, w.world, 0, b);
            w.h.leave(w.r1, t + d + 10, w.recv);
            t += d + 100000;
        }
        const Trace trace = w.end(t);
        const NetworkSpec spec =
            NetworkSpec::fromString(kSpec, "flat.yaml")
                .withOverrides({{"eager_limit", "64MiB"}, {"overhead.send", "0ns"}});
        const CalibrationResult r = calibrate(trace, spec, SimulationOptions{});
        const CalibratedParameter& limit = param(r, "eager_limit");
        QVERIFY2(limit.determined, limit.note.c_str());
        QCOMPARE(limit.before, std::string("67108864"));
        QCOMPARE(limit.after, std::string("1024"));
        QCOMPARE(r.spec.eagerLimit, uint64_t(1024));
        const CalibratedParameter& os = param(r, "overhead.send");
        QVERIFY(os.determined);
        QCOMPARE(number(os.after), 500.0); // the eager sends only
    }

    void rendezvousStartsWhenTheReceiveIsPosted()
    {
        // Blocking sends of 1, 2 and 4 MiB (eager limit 64 KiB: rendezvous) whose receives are
        // posted 50 us after the send started. As in the replay, the data moves from the later
        // of send start + o_s (1 us) and the receive's post, so each receive ends
        // 50 000 + 2 x 500 (two links) + b / 2 (2 bytes/ns) ns after the send started (o_r 0).
        // Measuring from the send's start instead would add the 50 us to every transfer.
        test::TwoRanks w;
        int64_t t = 1000;
        for (int rep = 0; rep < 2; ++rep)
            for (uint64_t b : {uint64_t(1) << 20, uint64_t(2) << 20, uint64_t(4) << 20}) {
                const int64_t arrive = t + 50000 + 1000 + int64_t(b / 2);
                w.h.enter(w.r0, t, w.send);
                w.h.builder().send(w.r0, t + 1, 1, w.world, 0, b);
                w.h.enter(w.r1, t + 50000, w.recv);
                w.h.builder().recv(w.r1, arrive, 0, w.world, 0, b);
                w.h.leave(w.r1, arrive, w.recv);
                w.h.leave(w.r0, arrive, w.send);
                t = arrive + 100000;
            }
        const Trace trace = w.end(t);
        const NetworkSpec spec =
            NetworkSpec::fromString(kSpec, "flat.yaml").withOverrides({{"eager_limit", "64KiB"}});
        const CalibrationResult r = calibrate(trace, spec, SimulationOptions{});
        const CalibratedParameter& bw = param(r, "links.net.bandwidth");
        QVERIFY2(bw.determined, bw.note.c_str());
        QVERIFY2(std::abs(number(bw.after) / 2.0 - 1) < 0.02, bw.after.c_str());
        const CalibratedParameter& lat = param(r, "links.net.latency");
        QVERIFY2(lat.determined, lat.note.c_str());
        QVERIFY2(std::abs(number(lat.after) / 500.0 - 1) < 0.02, lat.after.c_str());
    }

    void receiveOverheadOfArrivedMessages()
    {
        // Eager sends lasting 1 us whose receives start 50 us later, long after the data
        // arrived (2 x 500 ns + 1000 bytes / 25 bytes/ns = 1.04 us on the spec's network):
        // the receives last 600, 700 and 800 ns, so o_r is their mean, 700 ns, and o_s 1 us.
        // (The generator's receivers always wait for their data, so its traces cannot show o_r.)
        test::TwoRanks w;
        int64_t t = 1000;
        for (int64_t d : {600, 700, 800, 600, 700, 800}) {
            w.h.enter(w.r0, t, w.send);
            w.h.builder().send(w.r0, t + 1, 1, w.world, 0, 1000);
            w.h.leave(w.r0, t + 1000, w.send);
            w.h.enter(w.r1, t + 50000, w.recv);
            w.h.builder().recv(w.r1, t + 50000 + d / 2, 0, w.world, 0, 1000);
            w.h.leave(w.r1, t + 50000 + d, w.recv);
            t += 100000;
        }
        const Trace trace = w.end(t);
        const NetworkSpec spec = NetworkSpec::fromString(kSpec, "flat.yaml");
        const CalibrationResult r = calibrate(trace, spec, SimulationOptions{});
        const CalibratedParameter& orp = param(r, "overhead.recv");
        QVERIFY2(orp.determined, orp.note.c_str());
        QCOMPARE(orp.samples, uint64_t(6));
        QVERIFY2(std::abs(number(orp.after) / 700.0 - 1) < 0.02, orp.after.c_str());
        QVERIFY2(std::abs(number(param(r, "overhead.send").after) / 1000.0 - 1) < 0.02,
                 param(r, "overhead.send").after.c_str());
    }

    void placementAsRecorded()
    {
        // Two ranks that the trace records on one compute node exchange messages over the
        // intra-node link: calibration places them there (mapping: trace) and fits the shm
        // class, leaving the network's link as in the spec. Each message of b bytes is received
        // 1 us (o_s) + 100 ns + b / 5 ns after its send started (one intra-node hop).
        test::TwoRanks w;
        const StringId node = w.h.builder().intern("node17");
        w.h.builder().setRankHost(RankId(0), node);
        w.h.builder().setRankHost(RankId(1), node);
        int64_t t = 1000;
        for (int rep = 0; rep < 2; ++rep)
            for (uint64_t b : {uint64_t(10000), uint64_t(20000), uint64_t(40000)}) {
                const int64_t arrive = t + 1000 + 100 + int64_t(b / 5);
                w.h.enter(w.r1, t - 10, w.recv);
                w.h.enter(w.r0, t, w.send);
                w.h.builder().send(w.r0, t + 1, 1, w.world, 0, b);
                w.h.leave(w.r0, t + 1000, w.send);
                w.h.builder().recv(w.r1, arrive, 0, w.world, 0, b);
                w.h.leave(w.r1, arrive, w.recv);
                t = arrive + 100000;
            }
        const Trace trace = w.end(t);
        const NetworkSpec spec = NetworkSpec::fromString(kSpec, "flat.yaml");
        const CalibrationResult r = calibrate(trace, spec, SimulationOptions{});
        const CalibratedParameter& mapping = param(r, "mapping");
        QVERIFY2(mapping.determined, mapping.note.c_str());
        QCOMPARE(mapping.before, std::string("block"));
        QCOMPARE(mapping.after, std::string("trace"));
        QCOMPARE(r.spec.mapping, RankMapping::Trace);
        const CalibratedParameter& shmBw = param(r, "links.shm.bandwidth");
        QVERIFY2(shmBw.determined, shmBw.note.c_str());
        QVERIFY2(std::abs(number(shmBw.after) / 5.0 - 1) < 0.02, shmBw.after.c_str());
        QVERIFY(!param(r, "links.net.bandwidth").determined);
        // The calibrated replay reproduces the run: every transfer as measured.
        QVERIFY2(std::abs(r.after.errorPct) < 1.0, std::to_string(r.after.errorPct).c_str());

        // --placement spec keeps the spec's block mapping: one rank per node, the net class.
        const CalibrationResult kept =
            calibrate(trace, spec, SimulationOptions{}, CalibrationPlacement::Spec);
        QVERIFY(!param(kept, "mapping").determined);
        QCOMPARE(kept.spec.mapping, RankMapping::Block);
        QVERIFY(param(kept, "links.net.bandwidth").determined);
        QVERIFY(!param(kept, "links.shm.bandwidth").determined);
    }

    void oneSizeLeavesBandwidth()
    {
        // A single message size cannot separate latency from bandwidth: the bandwidth stays
        // as in the spec and the latency absorbs the rest: 2 L = latency + b / B - b / B_spec.
        GeneratorOptions g;
        g.pattern = "pingpong";
        g.ranks = 2;
        g.iterations = 10;
        g.messageBytes = 64000;
        g.latencyNs = 10000;
        g.bandwidthBytesPerSecond = 1e9;
        const Trace trace = generateTrace(g);
        const NetworkSpec spec = NetworkSpec::fromString(kSpec, "flat.yaml");
        const CalibrationResult r = calibrate(trace, spec, SimulationOptions{});
        const CalibratedParameter& bw = param(r, "links.net.bandwidth");
        QVERIFY(!bw.determined);
        QCOMPARE(bw.after, bw.before);
        const double expected = (10000 + 64000 / 1.0 - 64000 / 25.0) / 2;
        const CalibratedParameter& lat = param(r, "links.net.latency");
        QVERIFY(lat.determined);
        QVERIFY2(std::abs(number(lat.after) / expected - 1) < 0.02, lat.after.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCalibration)
#include "tst_calibration.moc"
