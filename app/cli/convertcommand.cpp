#include "app/cli/convertcommand.h"

#include "importers/chrome/chromeexport.h"
#include "importers/otf2/otf2writer.h"
#include "importers/paje/pajeexport.h"
#include "importers/paraver/paraverexport.h"
#include "importers/paraver/paraverreader.h"
#include "importers/simgrid/simgridexport.h"
#include "importers/simgrid/tireader.h"
#include "model/trace/partialmark.h"
#include "model/trace/traceerror.h"
#include "whatif/netsim/actionbuilder.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string_view>

namespace rankscope::cli {

namespace {

enum class Format
{
    Otf2,
    Chrome,
    Paje,
    Paraver,
    Ti
};

/// Whether `path` ends in `suffix` (".json"), whatever the case.
bool endsWith(const std::string& path, std::string_view suffix)
{
    if (path.size() < suffix.size()) return false;
    std::string tail = path.substr(path.size() - suffix.size());
    std::transform(tail.begin(), tail.end(), tail.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return tail == suffix;
}

} // namespace

CLI::App* ConvertCommand::add(CLI::App& parent)
{
    CLI::App* cmd =
        parent.add_subcommand("convert", "Convert a trace to an OTF2 archive, Chrome trace-event "
                                         "JSON, a Paje, a Paraver or a SimGrid "
                                         "time-independent trace");
    addTraceInput(cmd, input_, load_);
    addClockCorrection(cmd, load_);
    cmd->add_option("-o,--output", output_,
                    "Where to write: a folder for OTF2, a file for Chrome JSON (.json picks it), "
                    "Paje (.paje picks it), Paraver (.prv or .prv.gz picks it; the .pcf and "
                    ".row are written beside it) or SimGrid TI (.ti picks it: the list file, "
                    "with a file per rank beside it)")
        ->required();
    cmd->add_option("--to", to_,
                    "Output format: otf2 (default), chrome (trace-event JSON for the Perfetto UI "
                    "and chrome://tracing), paje (the Paje text trace of SimGrid, for PajeNG "
                    "and ViTE), prv (Paraver, for Paraver and Dimemas) or ti (SimGrid's "
                    "time-independent trace, for smpirun -replay); without it, an output ending "
                    "in .json is chrome, in .paje paje, in .prv or .prv.gz prv, in .ti ti");
    return cmd;
}

int ConvertCommand::run() const
{
    Format format = endsWith(output_, ".json")   ? Format::Chrome
                    : endsWith(output_, ".paje") ? Format::Paje
                    : isParaverPath(output_)     ? Format::Paraver
                    : isTiPath(output_)          ? Format::Ti
                                                 : Format::Otf2;
    if (to_ == "otf2")
        format = Format::Otf2;
    else if (to_ == "chrome")
        format = Format::Chrome;
    else if (to_ == "paje")
        format = Format::Paje;
    else if (to_ == "prv" || to_ == "paraver")
        format = Format::Paraver;
    else if (to_ == "ti")
        format = Format::Ti;
    else if (!to_.empty())
        throw UsageError("convert --to: unknown format \"" + to_ +
                         "\" (otf2, chrome, paje, prv or ti)");

    refuseOutputOverInputs("convert -o", output_, {input_}, format == Format::Otf2);
    const Trace trace = loadTrace(input_, load_);
    if (format == Format::Ti) {
        // The actions Rankscope's replay runs (computes are the gaps between MPI calls).
        bench::SimGridExport e;
        try {
            e = bench::writeTiTrace(netsim::buildActions(trace, 1.0), output_,
                                    partialMark(trace.diagnostics()));
        } catch (const TraceError&) {
            throw; // names the output
        } catch (const std::runtime_error& error) {
            throw TraceError(input_ + ": " + error.what());
        }
        std::fprintf(stderr,
                     "wrote %u ranks, %llu TI actions (%llu computes, %llu isends, %llu irecvs, "
                     "%llu waits, %llu collectives) to %s; %llu messages left out (without a "
                     "partner, or a rank's to itself)\n",
                     e.ranks, (unsigned long long)e.actions(), (unsigned long long)e.computes,
                     (unsigned long long)e.isends, (unsigned long long)e.irecvs,
                     (unsigned long long)e.waits, (unsigned long long)e.collectives,
                     e.listFile.c_str(), (unsigned long long)e.skippedMessages);
        return kOk;
    }
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
    if (format == Format::Paje) {
        const PajeExportReport r = writePajeTraceFile(trace, output_);
        std::fprintf(stderr,
                     "wrote %llu states and %llu message links of %zu ranks to %s (Paje trace, "
                     "%s)\n",
                     (unsigned long long)r.states, (unsigned long long)r.links, trace.rankCount(),
                     output_.c_str(), bytesText(r.bytes).c_str());
        return kOk;
    }
    if (format == Format::Paraver) {
        const ParaverExportReport r = writeParaverTrace(trace, output_);
        std::fprintf(stderr,
                     "wrote %llu event, %llu state and %llu communication records of %zu ranks "
                     "to %s (Paraver trace, %s; labels in %s, names in %s)\n",
                     (unsigned long long)r.eventRecords, (unsigned long long)r.stateRecords,
                     (unsigned long long)r.communications, trace.rankCount(), output_.c_str(),
                     bytesText(r.bytes).c_str(), r.pcfPath.c_str(), r.rowPath.c_str());
        if (r.unmatchedMessages + r.skippedEvents + r.skippedLocations > 0)
            std::fprintf(stderr,
                         "not written: %llu unmatched messages, %llu events Paraver has no "
                         "record for (request completions, tests, misc), %llu device or "
                         "empty locations\n",
                         (unsigned long long)r.unmatchedMessages,
                         (unsigned long long)r.skippedEvents,
                         (unsigned long long)r.skippedLocations);
        return kOk;
    }
    writeOtf2(trace, output_);
    std::fprintf(stderr, "wrote %llu events of %zu ranks to %s\n",
                 (unsigned long long)trace.eventCount(), trace.rankCount(), output_.c_str());
    return kOk;
}

} // namespace rankscope::cli
