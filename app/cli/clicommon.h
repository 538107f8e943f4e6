#pragma once
// Shared pieces of the command-line tool: exit codes, trace loading with clean errors, and
// human-readable formatting of times and sizes.

#include "model/matching/clockcorrection.h"
#include "model/support/textformat.h"
#include "model/trace/partialmark.h"
#include "model/trace/trace.h"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::cli {

/// Exit codes: 0 success, 1 bad input (unreadable trace, failed computation), 2 bad usage.
enum ExitCode : int
{
    kOk = 0,
    kBadInput = 1,
    kBadUsage = 2
};

/// Thrown for a usage mistake the argument parser cannot see (e.g. two exclusive formats).
class UsageError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

struct LoadOptions
{
    bool allowPartial = false;
    unsigned threads = 0;             ///< 0: as many as the machine has cores
    bool correctClocks = false;       ///< --correct-clocks
    std::string minLatency = "100ns"; ///< --min-latency
    /// Say on stderr that the trace is partial and what its warnings are (info prints them in
    /// its own report and sets this false).
    bool reportProblems = true;
};

/// What a command's answer rests on (model/trace/partialmark.h). loadTrace records every trace
/// it reads; printJson adds the list to the answer.
using InputNotice = TraceNotice;

/// The traces read so far by this process, in order.
const std::vector<InputNotice>& inputNotices();

/// The notice of `trace` read from `path`: recorded (inputNotices) and, if `report`, said on
/// stderr ("<path>: PARTIAL trace: ...", then each warning, at most 20, then how many more).
void noteInput(const std::string& path, const TraceDiagnostics& diagnostics, bool report);

/// Adds what every trace-reading command takes: the TRACE argument and --allow-partial.
void addTraceInput(CLI::App* cmd, std::string& trace, LoadOptions& load);
/// Adds --correct-clocks and --min-latency (model/matching/clockcorrection.h).
void addClockCorrection(CLI::App* cmd, LoadOptions& load);
/// Adds --json and, when `csv` is given, --csv (the two exclude each other).
void addOutputFormats(CLI::App* cmd, bool& json, bool* csv = nullptr);

/// Reads a trace (an OTF2 anchor file or its folder). Throws TraceError naming the file. With
/// correctClocks, corrects its clocks, says on stderr what moved and, when `correction` is
/// given, stores the report there.
Trace loadTrace(const std::string& path, const LoadOptions& options,
                ClockCorrection* correction = nullptr);

/// Refuses (UsageError, exit 2) an output that lies inside or over one of the traces the command
/// reads (model/support/outputpath.h); `what` names the option, e.g. "--links-csv".
void refuseOutputOverInputs(const std::string& what, const std::string& output,
                            const std::vector<std::string>& inputs, bool outputIsFolder = false);

/// One CSV field (RFC 4180): quoted when it holds a comma, a quote, a CR or a newline, with
/// quotes doubled. Every text field of a --csv output goes through it.
std::string csvField(std::string_view s);

/// A CLI11 check for a count of bytes or items: decimal digits only, so "-1" is refused instead
/// of wrapping to 2^64 - 1 in an unsigned option.
CLI::Validator nonNegativeCount();

/// A CLI11 check that refuses NaN and infinities ("nan", "inf"), which ranges let through.
CLI::Validator finiteNumber();

/// Whether a trace read so far is partial.
bool anyInputPartial();

/// When an input read so far is partial: marks `computed` (a replay or prediction of it)
/// partial with a warning naming that input, so that an output written from it says so.
void markIfFromPartial(Trace& computed);

/// Prints `j` indented, then a newline. An object answer gets the shared envelope of the
/// traces read (inputNotices): "inputs" (path, partial, warnings of each) and, unless the answer
/// has its own key of that name, "partial" (true when any input is partial). An answer that
/// has "inputs" already (a what-if answer: whatif::WhatIfResult::inputs) keeps its own. Text that
/// is not valid UTF-8 (OTF2 allows any bytes in names) is printed with U+FFFD in place of each
/// invalid byte, never a failure.
void printJson(const nlohmann::ordered_json& j);

} // namespace rankscope::cli
