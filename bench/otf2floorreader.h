#pragma once
// The decoding floor: the least work any OTF2 importer must do. It opens the archive, reads the
// locations' definitions and decodes every event with callbacks that only count. An importer's
// rate is judged against this rate on the same file in the same run.

#include <cstdint>
#include <string>

namespace rankscope::bench {

struct FloorResult
{
    uint64_t events = 0;
    uint64_t locations = 0;
};

/// Reads every event of the archive `anchor` (traces.otf2); throws std::runtime_error on failure.
FloorResult readOtf2Floor(const std::string& anchor);

} // namespace rankscope::bench
