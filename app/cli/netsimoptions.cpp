#include "app/cli/netsimoptions.h"

#include "app/cli/clicommon.h"
#include "model/trace/traceerror.h"
#include "whatif/scenario/specfinder.h"

#include <cstdlib>
#include <filesystem>

namespace rankscope::cli {

std::string findNetworkSpec(const std::string& network)
{
    return whatif::findNetworkSpec(network);
}

netsim::NetworkSpec loadNetworkSpec(const std::string& path, const std::vector<std::string>& set)
{
    std::vector<netsim::SpecOverride> overrides;
    for (const std::string& s : set) {
        if (s.find('=') == std::string::npos || s.front() == '=')
            throw UsageError("--set " + s + ": expected KEY=VALUE, e.g. links.wan.latency=5ms");
        overrides.push_back(netsim::parseOverride(s));
    }
    return netsim::NetworkSpec::fromFile(findNetworkSpec(path), overrides);
}

std::vector<std::pair<std::string, std::string>>
parseCollectiveChoices(const std::vector<std::string>& choices)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const std::string& c : choices) {
        const size_t eq = c.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == c.size())
            throw UsageError("--collective " + c + ": expected OP=ALGORITHM, e.g. bcast=binomial");
        out.emplace_back(c.substr(0, eq), c.substr(eq + 1));
    }
    return out;
}

} // namespace rankscope::cli
