#include "app/cli/simgridengine.h"

#include "importers/simgrid/simgridengine.h"

#include <cstdio>

namespace rankscope::cli {

int runSimGridEngine(const Trace& trace, const SimGridEngineRequest& request)
{
    bench::SimGridEngineRequest engine;
    engine.spec = request.spec;
    engine.options = request.options;
    engine.source = request.tracePath;
    engine.workDir = request.workDir;
    bench::SimGridEngineResult r;
    try {
        r = bench::runSimGridEngine(trace, engine);
    } catch (const bench::SimGridUnavailable& e) {
        std::fprintf(stderr, "rankscope-cli: error: --engine simgrid: %s\n", e.what());
        return kBadInput;
    }
    const Trace& predicted = *r.simgridTrace;
    const bench::SimGridExport& e = r.exported;
    const bool kept = !r.pajeFile.empty();
    if (!r.placementNote.empty()) std::fprintf(stderr, "note: %s\n", r.placementNote.c_str());
    if (!request.json) {
        std::printf("rankscope (%s model): predicted run time %s, wall-clock %.3f s\n",
                    r.model.c_str(), durationText(r.rankscopeNs).c_str(), r.rankscopeWallSeconds);
        std::printf("simgrid (smpirun -replay): predicted run time %s, wall-clock %.3f s "
                    "(smpirun %.3f s, TI export %.3f s, Paje import %.3f s)\n",
                    durationText(r.simgridNs).c_str(), r.simgridWallSeconds(), r.smpirunSeconds,
                    r.exportSeconds, r.importSeconds);
        std::printf("difference: simgrid %+.2f %% against rankscope (%s)\n", r.differencePercent,
                    durationText(r.simgridNs - r.rankscopeNs).c_str());
        std::printf("exported %u ranks, %llu TI actions (%llu messages left out); SimGrid's "
                    "trace: %zu messages, %zu collectives%s\n",
                    e.ranks, (unsigned long long)e.actions(), (unsigned long long)e.skippedMessages,
                    predicted.messages().size(), predicted.collectives().size(),
                    kept ? (", in " + r.pajeFile).c_str() : "");
        return kOk;
    }
    nlohmann::ordered_json j;
    j["rankscope"] = {{"model", r.model},
                      {"predicted_runtime_ns", r.rankscopeNs},
                      {"wall_seconds", r.rankscopeWallSeconds}};
    j["simgrid"] = {
        {"predicted_runtime_ns", r.simgridNs},     {"reported_seconds", r.simgridReportedSeconds},
        {"wall_seconds", r.simgridWallSeconds()},  {"smpirun_seconds", r.smpirunSeconds},
        {"export_seconds", r.exportSeconds},       {"import_seconds", r.importSeconds},
        {"messages", predicted.messages().size()}, {"collectives", predicted.collectives().size()}};
    if (kept) j["simgrid"]["paje"] = r.pajeFile;
    j["difference_percent"] = r.differencePercent;
    j["exported"] = {
        {"ranks", e.ranks}, {"actions", e.actions()}, {"skipped_messages", e.skippedMessages}};
    printJson(j);
    return kOk;
}

} // namespace rankscope::cli
