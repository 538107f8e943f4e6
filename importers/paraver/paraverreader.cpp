#include "importers/paraver/paraverreader.h"

#include "importers/paraver/paraverimport_p.h"
#include "model/trace/partialmark.h"
#include "model/trace/traceerror.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace rankscope {

bool isParaverPath(const std::string& path)
{
    std::string lower = path;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    const auto endsWith = [&lower](std::string_view s) {
        return lower.size() >= s.size() && lower.compare(lower.size() - s.size(), s.size(), s) == 0;
    };
    return endsWith(".prv") || endsWith(".prv.gz");
}

Trace readParaver(const std::string& path, const ParaverReadOptions& options)
{
    paraver::ImportData data;
    const std::string pcf = paraver::besidePath(path, ".pcf");
    std::error_code ec;
    if (std::filesystem::is_regular_file(pcf, ec)) {
        data.labels = paraver::readPcf(pcf);
        data.haveLabels = true;
    } else {
        data.builder.addWarning(path + ": no " + std::filesystem::path(pcf).filename().string() +
                                " beside it: MPI calls are named by Extrae's numbering");
    }
    const std::string row = paraver::besidePath(path, ".row");
    if (std::filesystem::is_regular_file(row, ec)) data.nodeNames = paraver::readRowNodes(row);
    paraver::parseParaver(path, data, options.progress, std::max(1u, options.threads));
    paraver::buildEvents(data, std::max(1u, options.threads));
    TraceBuilder& b = data.builder;
    if (data.unmatchedExits > 0)
        b.addWarning(path + ": " + std::to_string(data.unmatchedExits) +
                     " event(s) leave a region that was not entered; skipped");
    if (data.unknownComms > 0)
        b.addWarning(path + ": " + std::to_string(data.unknownComms) +
                     " collective(s) name a communicator no \"c:\" record defines; taken as the "
                     "application's MPI_COMM_WORLD");
    if (data.haveLabels && data.labels.states.empty() && data.labels.types.empty() &&
        data.labels.values.empty())
        b.addWarning(pcf + ": names no state, event type or value (empty, or not a .pcf): "
                           "regions and MPI calls are named by number");
    if (data.unlabelledRegionValues > 0)
        b.addWarning(path + ": " + std::to_string(data.unlabelledRegionValues) +
                     " region(s) without a name in " +
                     (data.haveLabels ? std::filesystem::path(pcf).filename().string()
                                      : std::string("a .pcf")) +
                     "; shown as \"function <value>\"");
    if (data.unlabelledMpiValues > 0)
        b.addWarning(path + ": " + std::to_string(data.unlabelledMpiValues) +
                     " MPI event value(s) without a name in the .pcf or Extrae's numbering");
    if (!data.partialMark.empty()) {
        b.setPartial(true);
        b.addWarning(partialMarkWarning(path + ":" + std::to_string(data.partialMarkLine),
                                        data.partialMark));
    }
    Provenance provenance;
    provenance.source = path;
    b.setProvenance(provenance);
    Trace trace = b.finish(std::max(1u, options.threads));
    if (options.progress && !options.progress(1.0)) throw Cancelled();
    return trace;
}

} // namespace rankscope
