#pragma once
// Command-line pieces shared by simulate, sweep and collective: spec loading with overrides and
// `--collective OP=ALG` parsing.

#include "whatif/netsim/networkspec.h"
#include "whatif/netsim/simulation.h"

#include <string>
#include <vector>

namespace rankscope::cli {

/// Reads the spec with `--set` overrides (TraceError naming file, line and key on problems).
netsim::NetworkSpec loadNetworkSpec(const std::string& path, const std::vector<std::string>& set);
/// "bcast=binomial" -> ("bcast", "binomial"); UsageError without '='.
std::vector<std::pair<std::string, std::string>> parseCollectiveChoices(
    const std::vector<std::string>& choices);

} // namespace rankscope::cli
