#include "importers/simgrid/simgridengine.h"

#include "importers/paje/pajereader.h"
#include "model/trace/traceerror.h"
#include "whatif/netsim/actionbuilder.h"
#include "whatif/netsim/traceplacement.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <unistd.h>

namespace rankscope::bench {

namespace fs = std::filesystem;

namespace {

// Shares of the progress bar: Rankscope's replay, the export, smpirun (silent while it runs),
// the import of SimGrid's trace.
constexpr double kOwnShare = 0.3;
constexpr double kExportShare = 0.35;
constexpr double kSmpirunShare = 0.9;

double since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The last `lines` lines of `text`.
std::string tail(const std::string& text, int lines)
{
    size_t at = text.size();
    if (at > 0 && text.back() == '\n') --at;
    while (lines-- > 0 && at > 0) {
        const size_t nl = text.rfind('\n', at - 1);
        at = nl == std::string::npos ? 0 : nl;
    }
    std::string t = text.substr(at);
    while (!t.empty() && t.front() == '\n')
        t.erase(0, 1);
    return t;
}

/// A folder of its own for each run (runs of one process may overlap: a superseded GUI job).
std::string temporaryDir()
{
    static std::atomic<unsigned> next{0};
    return (fs::temp_directory_path() / ("rankscope-simgrid-" + std::to_string(::getpid()) + "-" +
                                         std::to_string(next.fetch_add(1))))
        .string();
}

} // namespace

SimGridUnavailable::SimGridUnavailable()
    : std::runtime_error("SimGrid's smpirun is not on PATH; install it with `apt-get install "
                         "libsimgrid-dev` (Debian and Ubuntu) or from https://simgrid.org")
{
}

std::string findSmpirun()
{
    return findOnPath("smpirun");
}

SimGridEngineResult runSimGridEngine(const Trace& trace, const SimGridEngineRequest& request)
{
    const std::string smpirun = request.smpirun.empty() ? findSmpirun() : request.smpirun;
    if (smpirun.empty()) throw SimGridUnavailable();
    const auto stop = [&request] { return request.cancelled && request.cancelled(); };
    const auto report = [&request](double f) {
        if (request.progress) request.progress(f);
    };
    SimGridEngineResult out;
    // Both engines replay the same action program on the same placement of ranks.
    const netsim::NetworkSpec spec =
        netsim::placedAsRecorded(request.spec, trace, &out.placementNote);
    const netsim::ActionProgram program = netsim::buildActions(trace, request.options.cpuFactor);
    if (stop()) throw Cancelled();

    netsim::SimulationOptions options = request.options;
    options.buildTrace = false;
    options.progress = [&](double f) {
        report(f * kOwnShare);
        return !stop();
    };
    auto t0 = std::chrono::steady_clock::now();
    const netsim::SimulationResult own = netsim::simulateProgram(program, spec, options);
    out.rankscopeWallSeconds = since(t0);
    if (own.cancelled || stop()) throw Cancelled();
    out.model = own.model;
    out.rankscopeNs = own.predictedRuntimeNs;

    const bool temporary = request.workDir.empty();
    const std::string dir = temporary ? temporaryDir() : request.workDir;
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
    try {
        out.exported = exportSimGridTrace(program, spec, dir);
    } catch (const std::runtime_error& error) {
        throw TraceError(request.source + ": " + error.what());
    }
    out.exportSeconds = since(t0);
    report(kExportShare);
    std::vector<std::string> cfg = simgridOptions(spec, out.exported.ranks);
    const std::string paje = out.exported.dir + "/simgrid.paje";
    for (const std::string& o : simgridTracingOptions(paje))
        cfg.push_back(o);
    const SimGridRun run = runSimGridReplay(smpirun, out.exported, cfg, stop);
    if (run.cancelled) throw Cancelled();
    out.smpirunSeconds = run.wallSeconds;
    out.simgridReportedSeconds = run.simulatedSeconds;
    if (run.exitCode != 0 || run.simulatedSeconds < 0) {
        std::string what = "smpirun failed (exit code " + std::to_string(run.exitCode) + ")";
        what += temporary ? " on the export of " + request.source
                          : " on the export in " + out.exported.dir;
        const std::string printed = tail(run.output, 12);
        throw TraceError(what + (printed.empty() ? ", printing nothing" : ":\n" + printed));
    }
    report(kSmpirunShare);

    t0 = std::chrono::steady_clock::now();
    PajeReadOptions read;
    read.progress = [&](double f) {
        report(kSmpirunShare + f * (1 - kSmpirunShare));
        return !stop();
    };
    out.simgridTrace = std::make_shared<Trace>(readPaje(paje, read));
    out.importSeconds = since(t0);
    const Trace& predicted = *out.simgridTrace;
    out.simgridNs = predicted.endTime() - std::min<int64_t>(0, predicted.beginTime());
    out.differencePercent = out.rankscopeNs > 0 ? 100.0 * double(out.simgridNs - out.rankscopeNs) /
                                                      double(out.rankscopeNs)
                                                : 0;
    // What the GUI and the reports say about where it came from.
    Provenance p = predicted.provenance();
    p.kind = "simulated";
    p.source = request.source;
    p.parameters = "SimGrid smpirun -replay on " + request.spec.name;
    out.simgridTrace->setProvenance(p);
    if (temporary) { // removed on return: no paths to hand out
        out.exported.dir.clear();
        out.exported.listFile.clear();
        out.exported.platformFile.clear();
        out.exported.hostFile.clear();
    } else {
        out.pajeFile = paje;
    }
    report(1.0);
    return out;
}

} // namespace rankscope::bench
