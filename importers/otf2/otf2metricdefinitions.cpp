#include "importers/otf2/otf2metricdefinitions.h"

#include "model/trace/tracebuilder.h"

#include <unordered_map>

namespace rankscope {

namespace {

MetricMode modeOf(uint8_t m)
{
    switch (m) {
    case OTF2_METRIC_ACCUMULATED_POINT:
        return MetricMode::AccumulatedPoint;
    case OTF2_METRIC_ACCUMULATED_LAST:
        return MetricMode::AccumulatedLast;
    case OTF2_METRIC_ACCUMULATED_NEXT:
        return MetricMode::AccumulatedNext;
    case OTF2_METRIC_ABSOLUTE_POINT:
        return MetricMode::AbsolutePoint;
    case OTF2_METRIC_ABSOLUTE_LAST:
        return MetricMode::AbsoluteLast;
    case OTF2_METRIC_ABSOLUTE_NEXT:
        return MetricMode::AbsoluteNext;
    case OTF2_METRIC_RELATIVE_POINT:
        return MetricMode::RelativePoint;
    case OTF2_METRIC_RELATIVE_LAST:
        return MetricMode::RelativeLast;
    case OTF2_METRIC_RELATIVE_NEXT:
        return MetricMode::RelativeNext;
    default:
        return MetricMode::AccumulatedStart;
    }
}

MetricValueType typeOf(uint8_t t)
{
    switch (t) {
    case OTF2_TYPE_INT8:
    case OTF2_TYPE_INT16:
    case OTF2_TYPE_INT32:
    case OTF2_TYPE_INT64:
        return MetricValueType::Int64;
    case OTF2_TYPE_FLOAT:
    case OTF2_TYPE_DOUBLE:
        return MetricValueType::Double;
    default:
        return MetricValueType::Uint64;
    }
}

} // namespace

OTF2_MetricMode Otf2MetricDefinitions::otf2Mode(MetricMode mode)
{
    switch (mode) {
    case MetricMode::AccumulatedStart:
        return OTF2_METRIC_ACCUMULATED_START;
    case MetricMode::AccumulatedPoint:
        return OTF2_METRIC_ACCUMULATED_POINT;
    case MetricMode::AccumulatedLast:
        return OTF2_METRIC_ACCUMULATED_LAST;
    case MetricMode::AccumulatedNext:
        return OTF2_METRIC_ACCUMULATED_NEXT;
    case MetricMode::AbsolutePoint:
        return OTF2_METRIC_ABSOLUTE_POINT;
    case MetricMode::AbsoluteLast:
        return OTF2_METRIC_ABSOLUTE_LAST;
    case MetricMode::AbsoluteNext:
        return OTF2_METRIC_ABSOLUTE_NEXT;
    case MetricMode::RelativePoint:
        return OTF2_METRIC_RELATIVE_POINT;
    case MetricMode::RelativeLast:
        return OTF2_METRIC_RELATIVE_LAST;
    case MetricMode::RelativeNext:
        return OTF2_METRIC_RELATIVE_NEXT;
    }
    return OTF2_METRIC_ACCUMULATED_START;
}

OTF2_Type Otf2MetricDefinitions::otf2Type(MetricValueType type)
{
    switch (type) {
    case MetricValueType::Int64:
        return OTF2_TYPE_INT64;
    case MetricValueType::Double:
        return OTF2_TYPE_DOUBLE;
    case MetricValueType::Uint64:
        break;
    }
    return OTF2_TYPE_UINT64;
}

void Otf2MetricDefinitions::build(TraceBuilder& builder, const std::vector<StringId>& strings,
                                  std::vector<std::vector<MetricId>>& byRef,
                                  const std::string& file) const
{
    byRef.clear();
    const auto str = [&](uint32_t ref) { return ref < strings.size() ? strings[ref] : StringId(); };
    std::unordered_map<uint32_t, MetricId> memberIds;
    for (const RawMember& m : members_) {
        StringId name = str(m.name);
        if (!name.valid()) name = builder.intern("metric " + std::to_string(m.ref));
        memberIds[m.ref] = builder.addMetric(
            Metric{name, str(m.description), str(m.unit), modeOf(m.mode), typeOf(m.type)});
    }
    const auto slot = [&](uint32_t ref) -> std::vector<MetricId>& {
        if (ref >= (1u << 26))
            throw TraceError(file + ": metric reference " + std::to_string(ref) +
                             " is implausibly large (corrupt definitions?)");
        if (ref >= byRef.size()) byRef.resize(size_t(ref) + 1);
        return byRef[ref];
    };
    for (const RawClass& c : classes_) {
        std::vector<MetricId>& ids = slot(c.ref);
        for (uint32_t member : c.members) {
            const auto it = memberIds.find(member);
            if (it == memberIds.end())
                throw TraceError(file + ": metric class " + std::to_string(c.ref) +
                                 " refers to undefined metric member " + std::to_string(member));
            ids.push_back(it->second);
        }
    }
    for (const RawInstance& i : instances_) {
        if (i.metricClass >= byRef.size() || byRef[i.metricClass].empty())
            throw TraceError(file + ": metric instance " + std::to_string(i.ref) +
                             " refers to undefined metric class " + std::to_string(i.metricClass));
        const std::vector<MetricId> ids = byRef[i.metricClass];
        slot(i.ref) = ids;
    }
}

} // namespace rankscope
