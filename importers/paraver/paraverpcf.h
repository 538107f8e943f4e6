#pragma once
// The .pcf beside a .prv: the names of states, event types and event values.
//
// Format (BSC's Paraver configuration file, as Extrae writes it): blocks separated by blank
// lines. "STATES" is followed by "<value> <name>" lines; "EVENT_TYPE" by "<gradient> <type>
// <label>" lines, optionally followed by "VALUES" and "<value> <label>" lines that label the
// values of every type of the block. Other blocks (DEFAULT_OPTIONS, STATES_COLOR, GRADIENT_*)
// are read past.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rankscope::paraver {

struct Labels
{
    std::map<uint64_t, std::string> states;
    std::map<uint64_t, std::string> types;
    std::map<std::pair<uint64_t, int64_t>, std::string> values; ///< by (type, value)

    const std::string* value(uint64_t type, int64_t v) const
    {
        const auto it = values.find({type, v});
        return it == values.end() ? nullptr : &it->second;
    }
};

/// Reads the .pcf at `path`; throws TraceError naming the file and line of a malformed entry.
Labels readPcf(const std::string& path);

/// The node names of the .row at `path` (its "LEVEL NODE SIZE n" block: n names, node 1 first);
/// empty when it names no nodes. Throws TraceError naming the file and line of a bad block.
std::vector<std::string> readRowNodes(const std::string& path);

/// The .pcf and .row paths beside a trace ("run.prv" or "run.prv.gz": "run.pcf").
std::string besidePath(const std::string& prvPath, const std::string& extension);

} // namespace rankscope::paraver
