#pragma once
// Reads the YAML tree of a network spec into a NetworkSpec, checking every key and value.
// Errors name the source, the line, the key path and what was expected; a value that came from
// a `--set` override says so instead of a line.

#include "whatif/netsim/networkspec.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace rankscope::netsim {

class SpecReader
{
public:
    SpecReader(std::string source, std::set<std::string> overridden);

    /// Fills `spec` from `root`; throws TraceError on the first problem.
    void read(const YAML::Node& root, NetworkSpec& spec);

    /// Throws the error for `node` at `path`: "file:line: key: message".
    [[noreturn]] void fail(const YAML::Node& node, const std::string& path,
                           const std::string& message) const;

private:
    void checkKeys(const YAML::Node& map, const std::string& path,
                   std::initializer_list<std::string_view> allowed) const;
    YAML::Node require(const YAML::Node& map, const std::string& path, const char* key) const;
    std::string text(const YAML::Node& node, const std::string& path) const;
    double duration(const YAML::Node& node, const std::string& path) const;
    double bandwidth(const YAML::Node& node, const std::string& path) const;
    uint64_t bytes(const YAML::Node& node, const std::string& path) const;
    uint32_t count(const YAML::Node& node, const std::string& path, uint32_t min,
                   uint32_t max) const;
    double number(const YAML::Node& node, const std::string& path, double min, double max) const;

    void readLinks(const YAML::Node& node, NetworkSpec& spec);
    void readNetwork(const YAML::Node& node, const std::string& path, NetworkSpec& spec);
    void readProtocol(const YAML::Node& node, NetworkSpec& spec);
    void readCollectives(const YAML::Node& node, NetworkSpec& spec);
    void readPolicy(const YAML::Node& node, NetworkSpec& spec);
    void readStridedFaces(const YAML::Node& node, NetworkSpec& spec);
    void readMapping(const YAML::Node& root, NetworkSpec& spec);
    void readExplicit(const YAML::Node& node, const std::string& path, const NetworkSpec& spec,
                      NetworkDef& net) const;
    void checkLinkClass(const YAML::Node& node, const std::string& path,
                        const NetworkSpec& spec) const;
    void checkNetworkSize(const YAML::Node& node, const std::string& path, const NetworkDef& net,
                          uint32_t nodes) const;

    std::string source_;
    std::set<std::string> overridden_;
};

/// "a.b" + "c" -> "a.b.c".
std::string joinKey(const std::string& path, std::string_view key);

} // namespace rankscope::netsim
