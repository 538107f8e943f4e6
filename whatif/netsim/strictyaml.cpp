#include "whatif/netsim/strictyaml.h"

#include "model/trace/traceerror.h"

#include <map>
#include <sstream>
#include <vector>
#include <yaml-cpp/eventhandler.h>

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

/// Walks a parsed document once. yaml-cpp shares an aliased node (`*name`) with its anchor, so a
/// plain walk visits it again at each alias: ten nested levels of ten aliases make a 700-byte file
/// of 10^10 nodes, and a walk that never ends (the spec reader, the GUI's key list and the
/// emitter walk the same tree). So each map and list is checked once, and the number of nodes the
/// aliases expand to is counted against a limit, from sizes remembered per shared node.
class Checker
{
public:
    /// Far above any spec, scenario file or session (the largest bundled one has a few hundred),
    /// far below what takes long to walk.
    static constexpr size_t kMaxExpandedNodes = 1'000'000;
    /// Maps and lists inside each other at most (the deepest file in the repository nests 5).
    static constexpr size_t kMaxDepth = 64;

    explicit Checker(const std::string& source) : source_(source) {}

    /// Nodes below and including `node`, with every alias expanded.
    size_t check(const YAML::Node& node, const std::string& path, bool namedList = false)
    {
        if (!node.IsMap() && !node.IsSequence()) return 1;
        // A node's identity: its place in the text, then yaml-cpp's own test (Node::is) among
        // the nodes that start there (an alias starts where its anchor's node does).
        std::vector<Seen>& here = seen_[node.Mark().pos];
        for (const Seen& s : here)
            if (s.node.is(node) && (s.namedList || !namedList)) return s.expanded;
        // An alias inside the node its anchor names (`a: &a [*a]`) makes the tree a cycle that
        // every later walk would follow forever; nesting deeper than any Rankscope file is
        // refused before it can exhaust the stack.
        for (const YAML::Node& open : open_)
            if (open.is(node))
                throw TraceError(
                    source_ + ":" + lineOf(node) + ": " +
                    (path.empty() ? std::string("the document") : path.substr(0, path.size() - 1)) +
                    ": an alias (*name) refers to a node that holds it (a cycle)");
        if (open_.size() >= kMaxDepth)
            throw TraceError(source_ + ":" + lineOf(node) + ": nested more than " +
                             std::to_string(kMaxDepth) +
                             " levels deep; a Rankscope file "
                             "nests a few");
        open_.push_back(node);
        size_t expanded = 1;
        if (node.IsMap()) {
            std::map<std::string, YAML::Node> keys;
            for (const auto& entry : node) {
                const std::string key = keyText(entry.first);
                const auto [it, fresh] = keys.emplace(key, entry.first);
                if (!fresh)
                    throw TraceError(source_ + ":" + lineOf(entry.first) + ": " + path + key +
                                     ": duplicate key (first given on line " + lineOf(it->second) +
                                     ")");
                expanded += check(entry.first, path) +
                            check(entry.second, path + key + ".", key == "scenarios");
            }
        } else {
            std::map<std::string, YAML::Node> names;
            size_t index = 0;
            for (const YAML::Node& item : node) {
                if (namedList && item.IsMap() && item["name"] && item["name"].IsScalar()) {
                    const std::string name = item["name"].Scalar();
                    const auto [it, fresh] = names.emplace(name, item);
                    if (!fresh)
                        throw TraceError(source_ + ":" + lineOf(item) + ": " +
                                         (path.empty() ? std::string()
                                                       : path.substr(0, path.size() - 1) + ": ") +
                                         "two entries are named '" + name +
                                         "' (the first at line " + lineOf(it->second) +
                                         "); names must differ");
                }
                expanded += check(item, path + "[" + std::to_string(index++) + "].");
            }
        }
        if (expanded > kMaxExpandedNodes)
            throw TraceError(
                source_ + ":" + lineOf(node) + ": " +
                (path.empty() ? std::string("the document") : path.substr(0, path.size() - 1)) +
                ": its aliases (*name) expand to more than " + std::to_string(kMaxExpandedNodes) +
                " values; a Rankscope file holds far fewer");
        open_.pop_back();
        seen_[node.Mark().pos].push_back({node, expanded, namedList});
        return expanded;
    }

private:
    struct Seen
    {
        YAML::Node node;
        size_t expanded;
        bool namedList;
    };

    const std::string& source_;
    std::map<int, std::vector<Seen>> seen_;
    std::vector<YAML::Node> open_; ///< the maps and lists being checked, outermost first
};

/// Records where each document starts; ignores the rest.
struct DocumentStarts : YAML::EventHandler
{
    std::vector<YAML::Mark> marks;
    void OnDocumentStart(const YAML::Mark& mark) override { marks.push_back(mark); }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  const std::string&) override
    {
    }
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override
    {
    }
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override
    {
    }
    void OnMapEnd() override {}
};

} // namespace

YAML::Node loadStrictYaml(const std::string& text, const std::string& source)
{
    // Documents are counted from the parser's events, at most two of them: yaml-cpp 0.7's
    // LoadAll never returns on some damaged texts (a stray ',' or '}' at the top makes its
    // parser yield the same empty document at the same place forever; the fuzzer found it).
    // A document that starts where the previous one did is that loop: the text cannot be read.
    YAML::Node root;
    try {
        std::istringstream in(text);
        YAML::Parser parser(in);
        DocumentStarts starts;
        for (int i = 0; i < 2 && parser.HandleNextDocument(starts); ++i) {
        }
        if (starts.marks.size() > 1) {
            const YAML::Mark& second = starts.marks[1];
            const std::string line = std::to_string(second.line + 1);
            if (second.pos == starts.marks[0].pos)
                throw TraceError(source + ":" + line +
                                 ": not valid YAML: the reader cannot get past this point");
            throw TraceError(source + ":" + line +
                             ": a second YAML document: the file must hold exactly one");
        }
        if (starts.marks.empty()) return YAML::Node();
        root = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
        throw TraceError(source + ":" + std::to_string(e.mark.line + 1) +
                         ": not valid YAML: " + e.msg);
    } catch (const YAML::Exception& e) {
        throw TraceError(source + ": not valid YAML: " + e.msg);
    }
    checkStrictYaml(root, source);
    return root;
}

void checkStrictYaml(const YAML::Node& root, const std::string& source)
{
    Checker(source).check(root, "");
}

} // namespace rankscope::netsim
