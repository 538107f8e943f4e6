#include "app/cli/convertcommand.h"

#include "importers/chrome/chromeexport.h"
#include "importers/otf2/otf2writer.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace rankscope::cli {

namespace {

enum class Format
{
    Otf2,
    Chrome
};

bool endsWithJson(const std::string& path)
{
    if (path.size() < 5) return false;
    std::string tail = path.substr(path.size() - 5);
    std::transform(tail.begin(), tail.end(), tail.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return tail == ".json";
}

} // namespace

CLI::App* ConvertCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "convert", "Convert a trace to an OTF2 archive or to Chrome trace-event JSON");
    addTraceInput(cmd, input_, load_);
    cmd->add_option("-o,--output", output_,
                    "Where to write: a folder for OTF2, a file for Chrome JSON (.json picks it)")
        ->required();
    cmd->add_option("--to", to_,
                    "Output format: otf2 (default) or chrome (trace-event JSON for the Perfetto "
                    "UI and chrome://tracing); without it, an output ending in .json is chrome");
    return cmd;
}

int ConvertCommand::run() const
{
    Format format = endsWithJson(output_) ? Format::Chrome : Format::Otf2;
    if (to_ == "otf2")
        format = Format::Otf2;
    else if (to_ == "chrome")
        format = Format::Chrome;
    else if (!to_.empty())
        throw UsageError("convert --to: unknown format \"" + to_ + "\" (otf2 or chrome)");

    const Trace trace = loadTrace(input_, load_);
    if (format == Format::Chrome) {
        const ChromeExportReport r = writeChromeTraceFile(trace, output_);
        std::fprintf(stderr,
                     "wrote %llu region events, %llu wait states and %llu message flows of %zu "
                     "ranks to %s (Chrome trace-event JSON, %s)\n",
                     (unsigned long long)r.regionEvents, (unsigned long long)r.waitEvents,
                     (unsigned long long)r.flows, trace.rankCount(), output_.c_str(),
                     bytesText(r.bytes).c_str());
        return kOk;
    }
    writeOtf2(trace, output_);
    std::fprintf(stderr, "wrote %llu events of %zu ranks to %s\n",
                 (unsigned long long)trace.eventCount(), trace.rankCount(), output_.c_str());
    return kOk;
}

} // namespace rankscope::cli
