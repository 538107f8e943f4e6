#include "whatif/scenario/specfinder.h"

#include "model/trace/traceerror.h"

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace rankscope::whatif {

namespace {

namespace fs = std::filesystem;

/// Folders that may hold the bundled network specs, nearest first: $RANKSCOPE_RESOURCES, then
/// relative to the executable: <prefix>/share/rankscope when installed
/// (<prefix>/bin/rankscope-cli), <build>/resources in a build tree (the configure step links it to
/// the source's resources/). The same places as the GUI's WhatIfController::resourceDir().
std::vector<fs::path> specFolders()
{
    std::vector<fs::path> out;
    if (const char* env = std::getenv("RANKSCOPE_RESOURCES"); env && *env)
        out.push_back(fs::path(env) / "networks");
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    const fs::path dir = ec ? fs::current_path(ec) : exe.parent_path();
    out.push_back(dir / ".." / "share" / "rankscope" / "networks");
    out.push_back(dir / "resources" / "networks");
    out.push_back(dir / ".." / "resources" / "networks");
    return out;
}

} // namespace

std::string findNetworkSpec(const std::string& network)
{
    std::error_code ec;
    if (fs::is_regular_file(network, ec)) return network;
    if (fs::exists(network, ec))
        throw TraceError("network spec '" + network +
                         "': not a regular file (a folder, FIFO, device or socket); a spec is a "
                         "YAML file or a bundled spec's name");
    const bool bare = network.find('/') == std::string::npos;
    std::string looked;
    if (bare) {
        const std::string file =
            fs::path(network).extension() == ".yaml" ? network : network + ".yaml";
        for (const fs::path& dir : specFolders()) {
            const fs::path candidate = dir / file;
            if (fs::is_regular_file(candidate, ec))
                return fs::weakly_canonical(candidate, ec).string();
            looked += (looked.empty() ? "" : ", ") + dir.lexically_normal().string();
        }
    }
    throw TraceError("network spec '" + network + "' not found" +
                     (bare ? " (no such file, nor a bundled spec of that name in " + looked + ")"
                           : " (no such file)"));
}

std::string bundledSpecName(const std::string& path)
{
    if (path.empty()) return {};
    std::error_code ec;
    const fs::path file = fs::weakly_canonical(fs::path(path), ec);
    if (ec || file.extension() != ".yaml") return {};
    for (const fs::path& dir : specFolders()) {
        const fs::path folder = fs::weakly_canonical(dir, ec);
        if (!ec && file.parent_path() == folder) return file.stem().string();
    }
    return {};
}

} // namespace rankscope::whatif
