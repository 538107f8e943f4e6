#include "app/cli/convertcommand.h"

#include "importers/otf2/otf2writer.h"

#include <cstdio>

namespace rankscope::cli {

CLI::App* ConvertCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand("convert", "Convert a trace (OTF2 to OTF2 for now)");
    addTraceInput(cmd, input_, load_);
    cmd->add_option("-o,--output", output_, "Folder to write the OTF2 archive into")->required();
    return cmd;
}

int ConvertCommand::run() const
{
    const Trace trace = loadTrace(input_, load_);
    writeOtf2(trace, output_);
    std::fprintf(stderr, "wrote %llu events of %zu ranks to %s\n",
                 (unsigned long long)trace.eventCount(), trace.rankCount(), output_.c_str());
    return kOk;
}

} // namespace rankscope::cli
