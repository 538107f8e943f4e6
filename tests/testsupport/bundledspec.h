#pragma once
// A network spec bundled in resources/networks, read for a test.

#include "whatif/netsim/networkspec.h"

#include <string>

namespace rankscope::test {

/// resources/networks/<name>.yaml, e.g. bundledSpec("ib-switch").
netsim::NetworkSpec bundledSpec(const std::string& name);

} // namespace rankscope::test
