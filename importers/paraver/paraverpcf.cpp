#include "importers/paraver/paraverpcf.h"

#include "importers/paraver/paraverinput.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string_view>
#include <vector>

namespace rankscope::paraver {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

/// Reads a leading integer from `s` and drops it and the blanks after it.
template <class Int> bool leadingNumber(std::string_view& s, Int& v)
{
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end == s.data()) return false;
    s.remove_prefix(size_t(end - s.data()));
    s = trim(s);
    return true;
}

bool isKeyword(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isupper(static_cast<unsigned char>(c)) || c == '_';
    });
}

} // namespace

std::string besidePath(const std::string& prvPath, const std::string& extension)
{
    std::string base = prvPath;
    auto strip = [&base](std::string_view suffix) {
        if (base.size() < suffix.size()) return false;
        std::string tail = base.substr(base.size() - suffix.size());
        std::transform(tail.begin(), tail.end(), tail.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        if (tail != suffix) return false;
        base.resize(base.size() - suffix.size());
        return true;
    };
    if (!strip(".prv.gz")) strip(".prv");
    return base + extension;
}

Labels readPcf(const std::string& path)
{
    enum class Block
    {
        None,
        States,
        Types,
        Values,
        Other
    };
    LineReader in(path);
    Labels labels;
    Block block = Block::None;
    std::vector<uint64_t> blockTypes;
    std::string line;
    while (in.next(line)) {
        const std::string_view s = trim(line);
        if (s.empty()) {
            block = Block::None;
            continue;
        }
        if (isKeyword(s)) {
            if (s == "STATES") {
                block = Block::States;
            } else if (s == "EVENT_TYPE") {
                if (block != Block::Types) blockTypes.clear();
                block = Block::Types;
            } else if (s == "VALUES") {
                if (block != Block::Types) in.fail("VALUES without an EVENT_TYPE block");
                block = Block::Values;
            } else {
                block = Block::Other;
            }
            continue;
        }
        std::string_view rest = s;
        switch (block) {
        case Block::States: {
            uint64_t v = 0;
            if (!leadingNumber(rest, v)) in.fail("a state line without a number");
            labels.states[v] = std::string(rest);
            break;
        }
        case Block::Types: {
            uint64_t gradient = 0;
            uint64_t type = 0;
            if (!leadingNumber(rest, gradient) || !leadingNumber(rest, type))
                in.fail("an EVENT_TYPE line without \"<gradient> <type> <label>\"");
            labels.types[type] = std::string(rest);
            blockTypes.push_back(type);
            break;
        }
        case Block::Values: {
            int64_t v = 0;
            if (!leadingNumber(rest, v)) in.fail("a VALUES line without a number");
            for (const uint64_t type : blockTypes)
                labels.values[{type, v}] = std::string(rest);
            break;
        }
        default:
            break; // DEFAULT_OPTIONS, colours, gradients: not needed
        }
    }
    return labels;
}

std::vector<std::string> readRowNodes(const std::string& path)
{
    // "LEVEL <name> SIZE <n>", then n names, one a line (BSC's .row format, as Extrae writes it).
    LineReader in(path);
    std::vector<std::string> nodes;
    std::string line;
    uint64_t pending = 0;
    bool inNodes = false;
    while (in.next(line)) {
        const std::string_view s = trim(line);
        if (s.empty()) continue;
        if (pending == 0) {
            if (s.rfind("LEVEL ", 0) != 0) in.fail("expected \"LEVEL <name> SIZE <n>\"");
            std::string_view rest = trim(s.substr(6));
            const size_t blank = rest.find(' ');
            const std::string_view level = rest.substr(0, blank);
            rest = blank == std::string_view::npos ? std::string_view() : trim(rest.substr(blank));
            if (rest.rfind("SIZE", 0) != 0) in.fail("expected \"LEVEL <name> SIZE <n>\"");
            rest = trim(rest.substr(4));
            if (!leadingNumber(rest, pending) || !rest.empty() || pending > (1u << 18))
                in.fail("a LEVEL size that is not a number up to 262144");
            inNodes = level == "NODE";
            if (inNodes) nodes.clear();
            continue;
        }
        if (inNodes) nodes.emplace_back(s);
        --pending;
    }
    return nodes;
}

} // namespace rankscope::paraver
