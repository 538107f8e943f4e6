#pragma once
// The metric definitions of an OTF2 archive (MetricMember, MetricClass, MetricInstance): read
// with the other global definitions, then made model metrics, and a table from each OTF2 metric
// reference (a class or an instance of one; they share a numbering) to the model metrics its
// records carry, in the records' value order.

#include "model/trace/ids.h"
#include "model/trace/metric.h"

#include <cstdint>
#include <otf2/OTF2_GlobalDefReaderCallbacks.h>
#include <string>
#include <vector>

namespace rankscope {

class TraceBuilder;

class Otf2MetricDefinitions
{
public:
    /// Registers the metric callbacks of a reader whose user data is an `Owner` holding the
    /// definitions in `Member`.
    template <class Owner, Otf2MetricDefinitions Owner::*Member>
    static void setCallbacks(OTF2_GlobalDefReaderCallbacks* cb)
    {
        OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(
            cb, [](void* userData, OTF2_MetricMemberRef ref, OTF2_StringRef name,
                   OTF2_StringRef description, OTF2_MetricType, OTF2_MetricMode mode,
                   OTF2_Type valueType, OTF2_Base, int64_t, OTF2_StringRef unit) {
                (static_cast<Owner*>(userData)->*Member)
                    .members_.push_back({ref, name, description, unit, mode, valueType});
                return OTF2_CALLBACK_SUCCESS;
            });
        OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(
            cb, [](void* userData, OTF2_MetricRef ref, uint8_t count,
                   const OTF2_MetricMemberRef* members, OTF2_MetricOccurrence, OTF2_RecorderKind) {
                RawClass c{ref, {}};
                if (members) c.members.assign(members, members + count);
                (static_cast<Owner*>(userData)->*Member).classes_.push_back(std::move(c));
                return OTF2_CALLBACK_SUCCESS;
            });
        OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(
            cb, [](void* userData, OTF2_MetricRef ref, OTF2_MetricRef metricClass, OTF2_LocationRef,
                   OTF2_MetricScope, uint64_t) {
                (static_cast<Owner*>(userData)->*Member).instances_.push_back({ref, metricClass});
                return OTF2_CALLBACK_SUCCESS;
            });
    }

    /// Adds the members as model metrics and fills `byRef`: OTF2 metric ref -> member ids
    /// (empty for references that are not defined). `strings` maps OTF2 string refs. Throws
    /// TraceError naming `file` for a class that refers to an undefined member.
    void build(TraceBuilder& builder, const std::vector<StringId>& strings,
               std::vector<std::vector<MetricId>>& byRef, const std::string& file) const;

    bool empty() const { return members_.empty(); }

    /// OTF2's metric mode and value type of a model metric (for writing).
    static OTF2_MetricMode otf2Mode(MetricMode mode);
    static OTF2_Type otf2Type(MetricValueType type);

private:
    struct RawMember
    {
        uint32_t ref;
        uint32_t name;
        uint32_t description;
        uint32_t unit;
        uint8_t mode;
        uint8_t type;
    };
    struct RawClass
    {
        uint32_t ref;
        std::vector<uint32_t> members;
    };
    struct RawInstance
    {
        uint32_t ref;
        uint32_t metricClass;
    };
    std::vector<RawMember> members_;
    std::vector<RawClass> classes_;
    std::vector<RawInstance> instances_;
};

} // namespace rankscope
