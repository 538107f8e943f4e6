#pragma once
// Small typed ids for every definition and table row. A RegionId cannot be passed where a
// RankId is expected, yet each is a plain 32-bit index into its table.

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace rankscope {

template <class Tag> struct TypedId
{
    static constexpr uint32_t kInvalid = std::numeric_limits<uint32_t>::max();
    uint32_t value = kInvalid;

    constexpr TypedId() = default;
    constexpr explicit TypedId(uint32_t v) : value(v) {}
    constexpr bool valid() const { return value != kInvalid; }
    constexpr auto operator<=>(const TypedId&) const = default;
};

using StringId = TypedId<struct StringTag>;
using RegionId = TypedId<struct RegionTag>;
using RankId = TypedId<struct RankTag>;
using LocationId = TypedId<struct LocationTag>;
using CommId = TypedId<struct CommTag>;
using MessageId = TypedId<struct MessageTag>;
using CollectiveId = TypedId<struct CollectiveTag>;
using CallSiteId = TypedId<struct CallSiteTag>;
using MetricId = TypedId<struct MetricTag>;

} // namespace rankscope

template <class Tag> struct std::hash<rankscope::TypedId<Tag>>
{
    size_t operator()(rankscope::TypedId<Tag> id) const noexcept
    {
        return std::hash<uint32_t>{}(id.value);
    }
};
