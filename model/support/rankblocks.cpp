#include "model/support/rankblocks.h"

#include <algorithm>

namespace rankscope {

std::vector<uint32_t> rankBlockStarts(const std::vector<uint64_t>& eventsPerRank, uint32_t parts)
{
    const uint32_t n = uint32_t(eventsPerRank.size());
    parts = std::max<uint32_t>(parts, 1);
    std::vector<uint32_t> starts(size_t(parts) + 1, n);
    starts[0] = 0;
    uint64_t total = 0;
    for (const uint64_t e : eventsPerRank)
        total += e;
    if (total == 0) {
        for (uint32_t p = 1; p < parts; ++p)
            starts[p] = uint32_t(uint64_t(n) * p / parts);
        return starts;
    }
    // Block p starts at the first rank r whose prefix (events of the ranks before r) reaches
    // total * p / parts, i.e. ceil(total * p / parts), computed as q * p + ceil(rem * p / parts)
    // so that nothing overflows (rem < parts) and every process gets the same blocks.
    const uint64_t q = total / parts;
    const uint64_t rem = total % parts;
    uint64_t prefix = 0;
    uint32_t p = 1;
    for (uint32_t r = 0; r < n && p < parts; ++r) {
        while (p < parts && prefix >= q * p + (rem * p + parts - 1) / parts)
            starts[p++] = r;
        prefix += eventsPerRank[r];
    }
    return starts;
}

} // namespace rankscope
