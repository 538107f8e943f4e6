#pragma once
// Command-line pieces shared by the commands that take a network spec (simulate, sweep,
// collective, calibrate, predict, scenario): spec lookup by file or bundled name, loading with
// overrides, and `--collective OP=ALG` parsing.

#include "whatif/netsim/networkspec.h"
#include "whatif/netsim/simulation.h"

#include <string>
#include <vector>

namespace rankscope::cli {

/// The spec file for `--network`: an existing path as given, else a bundled spec by name
/// ("ib-switch" or "ib-switch.yaml") next to the executable or in the source tree it was built
/// from. Throws TraceError listing where it looked.
std::string findNetworkSpec(const std::string& network);
/// Reads the spec (a file or a bundled name, see findNetworkSpec) with `--set` overrides
/// (TraceError naming file, line and key on problems).
netsim::NetworkSpec loadNetworkSpec(const std::string& path, const std::vector<std::string>& set);
/// "bcast=binomial" -> ("bcast", "binomial"); UsageError without '='.
std::vector<std::pair<std::string, std::string>>
parseCollectiveChoices(const std::vector<std::string>& choices);

} // namespace rankscope::cli
