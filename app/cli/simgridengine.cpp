#include "app/cli/simgridengine.h"

#include "importers/paje/pajereader.h"
#include "importers/simgrid/simgridexport.h"
#include "model/trace/traceerror.h"
#include "whatif/netsim/actionbuilder.h"
#include "whatif/netsim/traceplacement.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace rankscope::cli {

namespace fs = std::filesystem;

namespace {

double since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The last `lines` lines of `text`.
std::string tail(const std::string& text, int lines)
{
    size_t at = text.size();
    while (lines-- > 0 && at > 0)
        at = text.rfind('\n', at - 1) == std::string::npos ? 0 : text.rfind('\n', at - 1);
    return text.substr(at);
}

} // namespace

int runSimGridEngine(const Trace& trace, const SimGridEngineRequest& request)
{
    const std::string smpirun = bench::findOnPath("smpirun");
    if (smpirun.empty()) {
        std::fprintf(stderr,
                     "rankscope-cli: error: --engine simgrid needs SimGrid's smpirun, which is not "
                     "on PATH; install it with `apt-get install libsimgrid-dev` (Debian and "
                     "Ubuntu) or from https://simgrid.org\n");
        return kBadInput;
    }
    // Both engines replay the same action program on the same placement of ranks.
    std::string placementNote;
    const netsim::NetworkSpec spec = netsim::placedAsRecorded(request.spec, trace, &placementNote);
    const netsim::ActionProgram program = netsim::buildActions(trace, request.options.cpuFactor);

    auto t0 = std::chrono::steady_clock::now();
    const netsim::SimulationResult own = netsim::simulateProgram(program, spec, request.options);
    const double ownWall = since(t0);

    const bool temporary = request.workDir.empty();
    const std::string dir =
        temporary
            ? (fs::temp_directory_path() / ("rankscope-simgrid-" + std::to_string(::getpid())))
                  .string()
            : request.workDir;
    struct Cleanup
    {
        bool on;
        std::string dir;
        ~Cleanup()
        {
            std::error_code ec;
            if (on) fs::remove_all(dir, ec);
        }
    } cleanup{temporary, dir};
    t0 = std::chrono::steady_clock::now();
    bench::SimGridExport e;
    try {
        e = bench::exportSimGridTrace(program, spec, dir);
    } catch (const std::runtime_error& error) {
        throw TraceError(request.tracePath + ": " + error.what());
    }
    const double exportWall = since(t0);
    std::vector<std::string> cfg = bench::simgridOptions(spec, e.ranks);
    const std::string paje = e.dir + "/simgrid.paje";
    for (const std::string& o : bench::simgridTracingOptions(paje))
        cfg.push_back(o);
    const bench::SimGridRun run = bench::runSimGridReplay(smpirun, e, cfg);
    if (run.exitCode != 0 || run.simulatedSeconds < 0)
        throw TraceError("smpirun failed (exit code " + std::to_string(run.exitCode) +
                         ") on the export in " + e.dir + ":\n" + tail(run.output, 12));
    t0 = std::chrono::steady_clock::now();
    const Trace predicted = readPaje(paje);
    const double importWall = since(t0);

    const int64_t simgridNs = predicted.endTime() - std::min<int64_t>(0, predicted.beginTime());
    const int64_t ownNs = own.predictedRuntimeNs;
    const double difference = ownNs > 0 ? 100.0 * double(simgridNs - ownNs) / double(ownNs) : 0;
    if (!placementNote.empty()) std::fprintf(stderr, "note: %s\n", placementNote.c_str());
    if (!request.json) {
        std::printf("rankscope (%s model): predicted run time %s, wall-clock %.3f s\n",
                    own.model.c_str(), durationText(ownNs).c_str(), ownWall);
        std::printf("simgrid (smpirun -replay): predicted run time %s, wall-clock %.3f s "
                    "(smpirun %.3f s, TI export %.3f s, Paje import %.3f s)\n",
                    durationText(simgridNs).c_str(), run.wallSeconds + exportWall + importWall,
                    run.wallSeconds, exportWall, importWall);
        std::printf("difference: simgrid %+.2f %% against rankscope (%s)\n", difference,
                    durationText(simgridNs - ownNs).c_str());
        std::printf("exported %u ranks, %llu TI actions (%llu messages left out); SimGrid's "
                    "trace: %zu messages, %zu collectives%s\n",
                    e.ranks, (unsigned long long)e.actions(), (unsigned long long)e.skippedMessages,
                    predicted.messages().size(), predicted.collectives().size(),
                    temporary ? "" : (", in " + paje).c_str());
        return kOk;
    }
    nlohmann::ordered_json j;
    j["rankscope"] = {
        {"model", own.model}, {"predicted_runtime_ns", ownNs}, {"wall_seconds", ownWall}};
    j["simgrid"] = {{"predicted_runtime_ns", simgridNs},
                    {"reported_seconds", run.simulatedSeconds},
                    {"wall_seconds", run.wallSeconds + exportWall + importWall},
                    {"smpirun_seconds", run.wallSeconds},
                    {"export_seconds", exportWall},
                    {"import_seconds", importWall},
                    {"messages", predicted.messages().size()},
                    {"collectives", predicted.collectives().size()}};
    if (!temporary) j["simgrid"]["paje"] = paje;
    j["difference_percent"] = difference;
    j["exported"] = {
        {"ranks", e.ranks}, {"actions", e.actions()}, {"skipped_messages", e.skippedMessages}};
    printJson(j);
    return kOk;
}

} // namespace rankscope::cli
