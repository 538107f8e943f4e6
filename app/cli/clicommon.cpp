#include "app/cli/clicommon.h"

#include "app/report/whatifjson.h"
#include "importers/tracefile.h"
#include "model/support/outputpath.h"
#include "model/trace/traceerror.h"
#include "whatif/netsim/units.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <thread>

namespace rankscope::cli {

void refuseOutputOverInputs(const std::string& what, const std::string& output,
                            const std::vector<std::string>& inputs, bool outputIsFolder)
{
    try {
        rankscope::refuseOutputOverInputs(what, output, inputs, outputIsFolder);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

void addTraceInput(CLI::App* cmd, std::string& trace, LoadOptions& load)
{
    cmd->add_option(
           "trace", trace,
           "OTF2 anchor file (traces.otf2) or its folder, a Paraver trace (.prv, .prv.gz), a "
           "Paje trace (.paje) or a SimGrid time-independent trace (.ti: its list file)")
        ->required();
    cmd->add_flag("--allow-partial", load.allowPartial,
                  "Keep what can be read from a damaged trace and say what is missing");
}

void addClockCorrection(CLI::App* cmd, LoadOptions& load)
{
    cmd->add_flag("--correct-clocks", load.correctClocks,
                  "Correct clock skew first (controlled logical clock): every message received "
                  "and every collective ended at least --min-latency after what it depends on");
    cmd->add_option("--min-latency", load.minLatency,
                    "Least send-to-receive time the clock correction enforces (100ns, 1us, or "
                    "nanoseconds)")
        ->capture_default_str();
}

void addOutputFormats(CLI::App* cmd, bool& json, bool* csv)
{
    CLI::Option* jsonFlag = cmd->add_flag("--json", json, "Print machine-readable JSON");
    if (csv)
        cmd->add_flag("--csv", *csv, "Print CSV, one row per line of the table")
            ->excludes(jsonFlag);
}

namespace {

std::vector<InputNotice>& notices()
{
    static std::vector<InputNotice> all;
    return all;
}

} // namespace

const std::vector<InputNotice>& inputNotices()
{
    return notices();
}

void noteInput(const std::string& path, const TraceDiagnostics& diagnostics, bool report)
{
    notices().push_back({path, diagnostics.partial, diagnostics.warnings});
    if (!report) return;
    if (diagnostics.partial)
        std::fprintf(stderr,
                     "%s: PARTIAL trace: parts of the input could not be read, and the "
                     "answer leaves them out\n",
                     path.c_str());
    constexpr size_t kShown = 20;
    const std::vector<std::string>& w = diagnostics.warnings;
    for (size_t i = 0; i < w.size() && i < kShown; ++i)
        std::fprintf(stderr, "warning: %s\n", w[i].c_str());
    if (w.size() > kShown)
        std::fprintf(stderr, "warning: ... and %zu more (rankscope-cli info --json %s lists all)\n",
                     w.size() - kShown, path.c_str());
}

bool anyInputPartial()
{
    return std::any_of(notices().begin(), notices().end(),
                       [](const InputNotice& n) { return n.partial; });
}

void markIfFromPartial(Trace& computed)
{
    for (const InputNotice& n : notices())
        if (n.partial)
            computed.markComputedFromPartial(
                "computed from " + n.path + ", a partial trace (" +
                std::to_string(n.warnings.size()) + " warning(s)" +
                (n.warnings.empty() ? std::string() : "; the first: " + n.warnings.front()) + ")");
}

Trace loadTrace(const std::string& path, const LoadOptions& options, ClockCorrection* correction)
{
    Otf2ReadOptions read;
    read.allowPartial = options.allowPartial;
    read.threads =
        options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    ClockCorrectionOptions clock;
    if (options.correctClocks) {
        const std::string& text = options.minLatency;
        std::optional<double> ns;
        if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos)
            ns = std::strtod(text.c_str(), nullptr);
        else
            ns = netsim::parseDuration(text);
        if (!ns || !std::isfinite(*ns) || *ns < 0 || *ns > 1e15)
            throw UsageError("--min-latency " + text +
                             ": expected a duration such as 100ns or 1us, or nanoseconds");
        clock.minLatencyNs = int64_t(std::llround(*ns));
    }
    Trace trace = readTraceFile(path, read);
    noteInput(path, trace.diagnostics(), options.reportProblems);
    if (!options.correctClocks) return trace;
    const auto start = std::chrono::steady_clock::now();
    const ClockCorrection c = correctClocks(trace, clock);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr,
                 "clock correction: %llu violation(s) before, %llu after; %llu of %llu events "
                 "moved, by %s on average, at most %s (%.3f s, %.1f M events/s)\n",
                 (unsigned long long)c.before.count(), (unsigned long long)c.after.count(),
                 (unsigned long long)c.eventsMoved, (unsigned long long)c.events,
                 durationText(c.meanShiftNs).c_str(), durationText(c.maxShiftNs).c_str(), seconds,
                 seconds > 0 ? double(c.events) / seconds / 1e6 : 0.0);
    if (correction) *correction = c;
    return trace;
}

CLI::Validator nonNegativeCount()
{
    return CLI::Validator(
        [](std::string& text) -> std::string {
            if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
                return "'" + text + "' is not a count (decimal digits, 0 or more)";
            return {};
        },
        "COUNT");
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

void printJson(const nlohmann::ordered_json& answer)
{
    nlohmann::ordered_json j = answer;
    if (j.is_object() && !notices().empty() && !j.contains("inputs")) addInputsJson(j, notices());
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
