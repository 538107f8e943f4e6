#include "whatif/netsim/networkspec.h"

#include "model/support/boundedread.h"
#include "model/trace/traceerror.h"
#include "whatif/netsim/specreader.h"
#include "whatif/netsim/strictyaml.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace rankscope::netsim {

namespace {

/// Sets `o.key` in `root` to the YAML value `o.value`. Every key on the way but the last must
/// exist, so a typo in the path is reported instead of creating an unused key.
void applyOverride(YAML::Node& root, const SpecOverride& o, const std::string& source)
{
    YAML::Node cur;
    cur.reset(root);
    std::string walked;
    std::istringstream parts(o.key);
    std::string part;
    std::vector<std::string> keys;
    while (std::getline(parts, part, '.'))
        keys.push_back(part);
    if (keys.empty() || o.key.empty())
        throw TraceError(source + ": --set: expected KEY=VALUE with a key such as "
                                  "links.wan.latency");
    for (size_t i = 0; i < keys.size(); ++i) {
        const std::string& k = keys[i];
        const bool last = i + 1 == keys.size();
        walked = joinKey(walked, k);
        YAML::Node next;
        if (cur.IsSequence()) {
            char* end = nullptr;
            const unsigned long idx = std::strtoul(k.c_str(), &end, 10);
            if (k.empty() || *end != '\0' || idx >= cur.size())
                throw TraceError(source + ": --set " + o.key + ": '" + walked +
                                 "' is not an element of the list");
            next.reset(cur[idx]);
        } else if (cur.IsMap()) {
            if (!cur[k] && !last)
                throw TraceError(source + ": --set " + o.key + ": no key '" + walked +
                                 "' in the spec");
            next.reset(cur[k]);
        } else {
            throw TraceError(source + ": --set " + o.key + ": '" + walked +
                             "' is inside a single value");
        }
        cur.reset(next);
    }
    YAML::Node value;
    try {
        value = YAML::Load(o.value);
    } catch (const YAML::Exception&) {
        value = YAML::Node(o.value);
    }
    checkStrictYaml(value, source + ": --set " + o.key);
    cur = value;
}

void collectScalars(const YAML::Node& node, const std::string& path,
                    std::vector<std::pair<std::string, std::string>>& out)
{
    if (node.IsScalar()) {
        out.emplace_back(path, node.Scalar());
    } else if (node.IsMap()) {
        for (const auto& kv : node)
            collectScalars(kv.second, joinKey(path, kv.first.as<std::string>()), out);
    } else if (node.IsSequence()) {
        for (size_t i = 0; i < node.size(); ++i)
            collectScalars(node[i], joinKey(path, std::to_string(i)), out);
    }
}

/// A spec nests a few levels (networks.NAME.policy...); far deeper nesting is not a spec, and
/// yaml-cpp's recursion would only say "bad file" about it.
constexpr int kMaxNesting = 64;

YAML::Node parseYaml(const std::string& text, const std::string& source)
{
    // Say what is wrong in terms of the file before the parser does in its own terms.
    if (const size_t nul = text.find('\0'); nul != std::string::npos)
        throw TraceError(
            source + ":" +
            std::to_string(1 + std::count(text.begin(), text.begin() + std::ptrdiff_t(nul), '\n')) +
            ": a NUL byte at offset " + std::to_string(nul) +
            ": a network spec is a YAML text file");
    int depth = 0, deepest = 0;
    size_t line = 1;
    for (char c : text) {
        if (c == '\n') ++line;
        if (c == '[' || c == '{') deepest = std::max(deepest, ++depth);
        if ((c == ']' || c == '}') && depth > 0) --depth;
        if (deepest > kMaxNesting)
            throw TraceError(source + ":" + std::to_string(line) + ": nested more than " +
                             std::to_string(kMaxNesting) + " levels deep: not a network spec");
    }
    return loadStrictYaml(text, source);
}

} // namespace

NetworkSpec NetworkSpec::fromFile(const std::string& path, const std::vector<SpecOverride>& set)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw TraceError(path + ": is a folder, not a network spec file (a YAML file, or a "
                                "bundled spec's name)");
    return fromString(readSmallTextFile(path, "network spec"), path, set);
}

NetworkSpec NetworkSpec::fromString(const std::string& text, const std::string& source,
                                    const std::vector<SpecOverride>& set)
{
    YAML::Node root = parseYaml(text, source);
    std::set<std::string> overridden;
    for (const SpecOverride& o : set) {
        applyOverride(root, o, source);
        overridden.insert(o.key);
    }
    // A value set where the spec's aliases repeat it is repeated as often.
    if (!set.empty()) checkStrictYaml(root, source);
    NetworkSpec spec;
    spec.source = source;
    spec.yamlText = text;
    spec.overrides = set;
    try {
        SpecReader(source, overridden).read(root, spec);
    } catch (const YAML::Exception& e) {
        throw TraceError(source + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
    }
    return spec;
}

NetworkSpec NetworkSpec::withOverrides(const std::vector<SpecOverride>& set) const
{
    std::vector<SpecOverride> all = overrides;
    all.insert(all.end(), set.begin(), set.end());
    return fromString(yamlText, source, all);
}

std::string NetworkSpec::effectiveYaml() const
{
    YAML::Node root = parseYaml(yamlText, source);
    for (const SpecOverride& o : overrides)
        applyOverride(root, o, source);
    YAML::Emitter out;
    out << root;
    return std::string(out.c_str()) + "\n";
}

std::vector<std::pair<std::string, std::string>> NetworkSpec::overridableKeys() const
{
    YAML::Node root = parseYaml(yamlText, source);
    for (const SpecOverride& o : overrides)
        applyOverride(root, o, source);
    std::vector<std::pair<std::string, std::string>> out;
    collectScalars(root, "", out);
    return out;
}

const LinkClass* NetworkSpec::link(const std::string& linkName) const
{
    for (const LinkClass& c : links)
        if (c.name == linkName) return &c;
    return nullptr;
}

int NetworkSpec::networkIndex(const std::string& networkName) const
{
    for (size_t i = 0; i < networks.size(); ++i)
        if (networks[i].name == networkName) return int(i);
    return -1;
}

std::string NetworkSpec::collectiveAlgorithm(const std::string& op) const
{
    for (const auto& [o, a] : collectives)
        if (o == op) return a;
    return {};
}

SpecOverride parseOverride(const std::string& text)
{
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw TraceError("--set " + text + ": expected KEY=VALUE, e.g. links.wan.latency=5ms");
    return SpecOverride{text.substr(0, eq), text.substr(eq + 1)};
}

} // namespace rankscope::netsim
