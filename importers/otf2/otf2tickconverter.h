#pragma once
// Converts OTF2 timestamps (ticks of the trace's timer) to the model's nanoseconds since the
// trace's global offset, exactly: ns = (ticks - offset) * 1e9 / ticksPerSecond, rounded toward
// zero. The common case (ticks >= offset, resolution below ~18 GHz) stays in 64-bit integers by
// splitting the quotient, so the per-event cost is two divisions instead of a 128-bit one.

#include <cstdint>

namespace rankscope {

__extension__ typedef __int128 Otf2Int128; // GCC/Clang extension; -Wpedantic accepts it this way

class Otf2TickConverter
{
public:
    Otf2TickConverter() = default;
    Otf2TickConverter(uint64_t ticksPerSecond, uint64_t globalOffset)
        : tps_(ticksPerSecond), offset_(globalOffset), nanoTicks_(ticksPerSecond == kNsPerSecond)
    {
    }

    uint64_t ticksPerSecond() const { return tps_; }
    uint64_t globalOffset() const { return offset_; }

    int64_t toNs(uint64_t ticks) const
    {
        if (ticks >= offset_) [[likely]] {
            const uint64_t d = ticks - offset_;
            if (nanoTicks_) return static_cast<int64_t>(d);
            if (tps_ <= kSplitLimit) {
                // d = q * tps + r with r < tps, so r * 1e9 fits in 64 bits.
                const uint64_t q = d / tps_;
                const uint64_t r = d % tps_;
                return static_cast<int64_t>(q * kNsPerSecond + r * kNsPerSecond / tps_);
            }
        }
        const Otf2Int128 d = static_cast<Otf2Int128>(ticks) - static_cast<Otf2Int128>(offset_);
        return static_cast<int64_t>(d * kNsPerSecond / static_cast<Otf2Int128>(tps_));
    }

    /// Absolute time of the offset in ns (the model's ClockProperties::offsetNs).
    int64_t offsetNs() const
    {
        return static_cast<int64_t>(static_cast<Otf2Int128>(offset_) * kNsPerSecond /
                                    static_cast<Otf2Int128>(tps_));
    }

private:
    static constexpr uint64_t kNsPerSecond = 1'000'000'000;
    static constexpr uint64_t kSplitLimit = UINT64_MAX / kNsPerSecond; // ~18.4 GHz

    uint64_t tps_ = kNsPerSecond;
    uint64_t offset_ = 0;
    bool nanoTicks_ = true;
};

} // namespace rankscope
