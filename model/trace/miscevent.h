#pragma once
// Events that are kept (so counts and round trips are exact) but not analysed.

#include <cstdint>
#include <tuple>

namespace rankscope {

enum class MiscKind : uint8_t
{
    ProgramBegin,   ///< detail = StringId of the program name
    ProgramEnd,     ///< value = exit status
    MeasurementOn,  ///< recording resumed
    MeasurementOff, ///< recording paused (gap in the trace)
    CommCreate,     ///< detail = CommId
    CommDestroy,    ///< detail = CommId
    Other,          ///< detail = StringId naming the source record type (e.g. "RMA_GET")
};

struct MiscEvent
{
    MiscKind kind = MiscKind::Other;
    uint32_t detail = 0;
    int64_t value = 0;
    bool operator==(const MiscEvent& o) const
    {
        return std::tie(kind, detail, value) == std::tie(o.kind, o.detail, o.value);
    }
};

} // namespace rankscope
