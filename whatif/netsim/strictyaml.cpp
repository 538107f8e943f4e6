#include "whatif/netsim/strictyaml.h"

#include "model/trace/traceerror.h"

#include <map>
#include <vector>

namespace rankscope::netsim {

namespace {

std::string lineOf(const YAML::Node& n)
{
    return std::to_string(n.Mark().line + 1);
}

/// The key as the file spells it: a scalar's text, anything else in flow style.
std::string keyText(const YAML::Node& key)
{
    if (key.IsScalar()) return key.Scalar();
    YAML::Emitter e;
    e << YAML::Flow << key;
    return e.c_str();
}

/// `namedList`: the node is a list whose entries' `name:` values must differ (scenarios: a
/// session or scenario file runs and shows them by name; bookmarks may share a name).
void checkNode(const YAML::Node& node, const std::string& source, const std::string& path,
               bool namedList = false)
{
    if (node.IsMap()) {
        std::map<std::string, YAML::Node> seen;
        for (const auto& entry : node) {
            const std::string key = keyText(entry.first);
            const auto [it, fresh] = seen.emplace(key, entry.first);
            if (!fresh)
                throw TraceError(source + ":" + lineOf(entry.first) + ": " + path + key +
                                 ": duplicate key (first given on line " + lineOf(it->second) +
                                 ")");
            checkNode(entry.second, source, path + key + ".", key == "scenarios");
        }
    } else if (node.IsSequence()) {
        std::map<std::string, YAML::Node> names;
        size_t index = 0;
        for (const YAML::Node& item : node) {
            if (namedList && item.IsMap() && item["name"] && item["name"].IsScalar()) {
                const std::string name = item["name"].Scalar();
                const auto [it, fresh] = names.emplace(name, item);
                if (!fresh)
                    throw TraceError(
                        source + ":" + lineOf(item) + ": " +
                        (path.empty() ? std::string() : path.substr(0, path.size() - 1) + ": ") +
                        "two entries are named '" + name + "' (the first at line " +
                        lineOf(it->second) + "); names must differ");
            }
            checkNode(item, source, path + "[" + std::to_string(index++) + "].");
        }
    }
}

} // namespace

YAML::Node loadStrictYaml(const std::string& text, const std::string& source)
{
    std::vector<YAML::Node> documents;
    try {
        documents = YAML::LoadAll(text);
    } catch (const YAML::ParserException& e) {
        throw TraceError(source + ":" + std::to_string(e.mark.line + 1) +
                         ": not valid YAML: " + e.msg);
    } catch (const YAML::Exception& e) {
        throw TraceError(source + ": not valid YAML: " + e.msg);
    }
    if (documents.size() > 1)
        throw TraceError(source + ":" +
                         (documents[1].Mark().line >= 0 ? lineOf(documents[1]) : std::string("?")) +
                         ": a second YAML document: the file must hold exactly one");
    if (documents.empty()) return YAML::Node();
    checkNode(documents.front(), source, "");
    return documents.front();
}

} // namespace rankscope::netsim
