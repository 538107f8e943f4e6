#include "importers/rsum/rsumdefinitions.h"

#include "model/trace/tracebuilder.h"

#include <stdexcept>
#include <string>

namespace rankscope {

namespace {

// The last value of each enumeration (a damaged byte must not become an enum out of range).
constexpr uint8_t kLastRole = uint8_t(RegionRole::Other);
constexpr uint8_t kLastParadigm = uint8_t(Paradigm::Other);
constexpr uint8_t kLastLocationType = uint8_t(LocationType::Other);
constexpr uint8_t kLastMetricMode = uint8_t(MetricMode::RelativeNext);
constexpr uint8_t kLastMetricType = uint8_t(MetricValueType::Double);

uint8_t getEnum(ByteReader& r, uint8_t last, const char* what)
{
    const auto v = r.get<uint8_t>();
    if (v > last)
        throw std::runtime_error(std::string("unknown ") + what + " " + std::to_string(v));
    return v;
}

uint32_t getId(ByteReader& r, size_t count, const char* what)
{
    const auto v = r.get<uint32_t>();
    if (v >= count)
        throw std::runtime_error(std::string(what) + " " + std::to_string(v) + " out of range");
    return v;
}

/// A string id that may be invalid (unknown file, no host...).
StringId getString(ByteReader& r, size_t strings)
{
    const auto v = r.get<uint32_t>();
    if (v != StringId().value && v >= strings)
        throw std::runtime_error("string " + std::to_string(v) + " out of range");
    return StringId(v);
}

} // namespace

void encodeDefinitions(const Trace& trace, int64_t runBegin, int64_t runEnd, ByteWriter& w)
{
    const StringPool& strings = trace.strings();
    w.put<uint64_t>(strings.size());
    for (uint32_t i = 0; i < strings.size(); ++i)
        w.putString(std::string(strings.str(StringId(i))));
    w.put(trace.clock().sourceTicksPerSecond);
    w.put(trace.clock().offsetNs);
    w.putString(trace.provenance().kind);
    w.putString(trace.provenance().source);
    w.putString(trace.provenance().parameters);
    w.put(runBegin);
    w.put(runEnd);

    w.put<uint64_t>(trace.regions().size());
    for (const Region& g : trace.regions()) {
        w.put(g.name.value);
        w.put(uint8_t(g.role));
        w.put(uint8_t(g.paradigm));
        w.put(g.file.value);
        w.put(g.line);
    }
    w.put<uint64_t>(trace.ranks().size());
    for (const Rank& k : trace.ranks()) {
        w.put(k.name.value);
        w.put(k.host.value);
    }
    w.put<uint64_t>(trace.locations().size());
    for (const Location& l : trace.locations()) {
        w.put(l.name.value);
        w.put(uint8_t(l.type));
        w.put(l.rank.value);
        w.put(l.otf2Id);
    }
    w.put<uint64_t>(trace.communicators().size());
    for (const Communicator& c : trace.communicators()) {
        w.put(c.name.value);
        w.put(c.parent.value);
        std::vector<uint32_t> members;
        for (RankId m : c.members)
            members.push_back(m.value);
        w.putList(members);
    }
    w.put(trace.worldCommunicator().value);
    w.put<uint64_t>(trace.metrics().size());
    for (const Metric& m : trace.metrics()) {
        w.put(m.name.value);
        w.put(m.description.value);
        w.put(m.unit.value);
        w.put(uint8_t(m.mode));
        w.put(uint8_t(m.type));
    }
}

Trace decodeDefinitions(ByteReader& r, const TraceDiagnostics& diagnostics)
{
    TraceBuilder b;
    const auto strings = r.get<uint64_t>();
    for (uint64_t i = 0; i < strings; ++i) {
        const std::string s = r.getString();
        if (b.intern(s).value != i)
            throw std::runtime_error("string " + std::to_string(i) + " is defined twice");
    }
    ClockProperties clock;
    clock.sourceTicksPerSecond = r.get<uint64_t>();
    clock.offsetNs = r.get<int64_t>();
    b.setClock(clock);
    Provenance p;
    p.kind = r.getString();
    p.source = r.getString();
    p.parameters = r.getString();
    b.setProvenance(std::move(p));
    b.setPartial(diagnostics.partial);
    for (const std::string& w : diagnostics.warnings)
        b.addWarning(w);
    const auto begin = r.get<int64_t>();
    const auto end = r.get<int64_t>();
    b.setTimeSpan(begin, end);

    const auto regions = r.get<uint64_t>();
    for (uint64_t i = 0; i < regions; ++i) {
        Region g;
        g.name = StringId(getId(r, strings, "string"));
        g.role = RegionRole(getEnum(r, kLastRole, "region role"));
        g.paradigm = Paradigm(getEnum(r, kLastParadigm, "paradigm"));
        g.file = getString(r, strings);
        g.line = r.get<uint32_t>();
        b.addRegion(g);
    }
    const auto ranks = r.get<uint64_t>();
    for (uint64_t i = 0; i < ranks; ++i) {
        const RankId rank = b.addRank(StringId(getId(r, strings, "string")));
        const StringId host = getString(r, strings);
        if (host.valid()) b.setRankHost(rank, host);
    }
    const auto locations = r.get<uint64_t>();
    for (uint64_t i = 0; i < locations; ++i) {
        const StringId name(getId(r, strings, "string"));
        const auto type = LocationType(getEnum(r, kLastLocationType, "location type"));
        const RankId rank(getId(r, ranks, "rank"));
        b.addLocation(rank, name, type, r.get<uint64_t>());
    }
    const auto comms = r.get<uint64_t>();
    for (uint64_t i = 0; i < comms; ++i) {
        const StringId name(getId(r, strings, "string"));
        const auto parent = r.get<uint32_t>();
        if (parent != CommId().value && parent >= i)
            throw std::runtime_error("communicator " + std::to_string(i) + " names a later parent");
        std::vector<RankId> members;
        for (uint32_t m : r.getList<uint32_t>()) {
            if (m >= ranks) throw std::runtime_error("communicator member out of range");
            members.push_back(RankId(m));
        }
        b.addCommunicator(name, std::move(members), CommId(parent));
    }
    const auto world = r.get<uint32_t>();
    if (world != CommId().value) {
        if (world >= comms) throw std::runtime_error("world communicator out of range");
        b.setWorldCommunicator(CommId(world));
    }
    const auto metrics = r.get<uint64_t>();
    for (uint64_t i = 0; i < metrics; ++i) {
        Metric m;
        m.name = StringId(getId(r, strings, "string"));
        m.description = getString(r, strings);
        m.unit = getString(r, strings);
        m.mode = MetricMode(getEnum(r, kLastMetricMode, "metric mode"));
        m.type = MetricValueType(getEnum(r, kLastMetricType, "metric type"));
        b.addMetric(m);
    }
    return b.finish();
}

} // namespace rankscope
