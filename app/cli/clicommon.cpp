#include "app/cli/clicommon.h"

#include "importers/tracefile.h"
#include "model/trace/traceerror.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <thread>

namespace rankscope::cli {

void addTraceInput(CLI::App* cmd, std::string& trace, LoadOptions& load)
{
    cmd->add_option(
           "trace", trace,
           "OTF2 anchor file (traces.otf2) or its folder, or a Paraver trace (.prv, .prv.gz)")
        ->required();
    cmd->add_flag("--allow-partial", load.allowPartial,
                  "Keep what can be read from a damaged trace and say what is missing");
}

void addOutputFormats(CLI::App* cmd, bool& json, bool* csv)
{
    CLI::Option* jsonFlag = cmd->add_flag("--json", json, "Print machine-readable JSON");
    if (csv)
        cmd->add_flag("--csv", *csv, "Print CSV, one row per line of the table")
            ->excludes(jsonFlag);
}

Trace loadTrace(const std::string& path, const LoadOptions& options)
{
    Otf2ReadOptions read;
    read.allowPartial = options.allowPartial;
    read.threads =
        options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    return readTraceFile(path, read);
}

CLI::Validator finiteNumber()
{
    return CLI::Validator(
        [](std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (end != text.c_str() && !std::isfinite(v))
                return "'" + text + "' is not a finite number";
            return {};
        },
        "FINITE");
}

void removeOtf2Archive(const std::string& dir)
{
    namespace fs = std::filesystem;
    for (const char* name : {"traces.otf2", "traces.def", "traces"}) {
        std::error_code ec;
        fs::remove_all(fs::path(dir) / name, ec);
        if (ec)
            throw TraceError(dir + ": cannot remove '" + name + "' for --force (" + ec.message() +
                             ")");
    }
}

void printJson(const nlohmann::ordered_json& j)
{
    std::cout << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
}

std::string csvField(std::string_view s)
{
    if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

} // namespace rankscope::cli
