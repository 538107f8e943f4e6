#pragma once
// YAML as Rankscope's files mean it (network specs, scenario files, sessions): one document, and
// no key given twice in any map at any depth, nor two entries of a `scenarios:` list with the
// same `name:` (scenarios are run and shown by name).
// yaml-cpp keeps the first of two equal keys and ignores the second, and reads only the first
// document of a multi-document file; either would silently change what a user wrote.

#include <string>
#include <yaml-cpp/yaml.h>

namespace rankscope::netsim {

/// Parses `text` (named `source` in errors). Throws TraceError "<source>:<line>: ..." for
/// invalid YAML, a second document, a key given twice or two list entries of the same name.
/// An empty text gives a null node. Also refuses a document whose aliases (`*name`) expand to
/// more than a million values (a few hundred bytes can name 10^10: every later walk would hang).
YAML::Node loadStrictYaml(const std::string& text, const std::string& source);

/// The checks of loadStrictYaml on a node already parsed (a `--set KEY=VALUE` value).
void checkStrictYaml(const YAML::Node& root, const std::string& source);

} // namespace rankscope::netsim
