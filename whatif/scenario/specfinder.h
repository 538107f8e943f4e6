#pragma once
// Where a scenario's `network` is: a spec file's path, or the name of a bundled spec
// ("ib-switch"), looked up in the bundled resources (relative to the running executable). One
// lookup for `rankscope-cli` and the GUI, so a scenario or session that names a bundled spec
// opens the same file in both, and a session stores the name rather than a path into a build
// tree or an install prefix.

#include <string>

namespace rankscope::whatif {

/// The spec file for `network`: an existing path as given, else a bundled spec by name
/// ("ib-switch" or "ib-switch.yaml"): $RANKSCOPE_RESOURCES/networks, <prefix>/share/rankscope/
/// networks beside an installed executable, <build>/resources/networks in a build tree. Throws
/// TraceError listing where it looked.
std::string findNetworkSpec(const std::string& network);

/// The bundled name of the spec file at `path` ("ib-switch"), or empty when it is not one of
/// the bundled specs.
std::string bundledSpecName(const std::string& path);

} // namespace rankscope::whatif
