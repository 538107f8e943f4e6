#pragma once
// The least-squares fit of one link class's latency and bandwidth to transfer times, for
// calibration (calibration.h describes the observations).

#include "whatif/netsim/networkspec.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rankscope::netsim {

/// Weighted least squares of z = hops * L + v * G over size groups of one link class.
struct ClassFit
{
    double latencyNs = 0, nsPerByte = 0;
    bool latencyDetermined = false, bandwidthDetermined = false;
    std::optional<double> latencyRse, bandwidthRse;
    uint64_t samples = 0;
    std::string latencyNote, bandwidthNote;
};

struct LinkFitGroup
{
    double hops = 0, v = 0;
    std::vector<double> z;
};

/// Fits `groups` (keyed by hops and v); a term the data cannot determine keeps `spec`'s value
/// and says why.
ClassFit fitClass(const std::map<std::pair<double, double>, LinkFitGroup>& groups,
                  const LinkClass& spec);

} // namespace rankscope::netsim
