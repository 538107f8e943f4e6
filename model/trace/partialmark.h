#pragma once
// The mark an output carries when it was written from a partial trace (one read with
// --allow-partial that lost parts of its input): every writer puts it into its format's own
// metadata, and every reader that finds it marks the trace it builds partial, so an answer
// drawn from a converted copy is flagged as the original's would be.

#include "model/trace/tracediagnostics.h"

#include <string>
#include <string_view>
#include <vector>

namespace rankscope {

/// What an answer rests on: a trace it read, whether that trace is partial, and its warnings
/// (the "inputs" of every --json answer).
struct TraceNotice
{
    std::string path;
    bool partial = false;
    std::vector<std::string> warnings;
};

/// What every mark begins with; in a comment line it follows "# ".
inline constexpr std::string_view kPartialMarkPrefix = "rankscope: written from a partial trace";

/// "" for a trace that is not partial; else one line (no newline) that begins with
/// kPartialMarkPrefix and says how many warnings the trace had and the first of them.
std::string partialMark(const TraceDiagnostics& diagnostics);

/// Whether `text` (a metadata value, or a comment line's text after its "#") is such a mark.
bool isPartialMark(std::string_view text);

/// The warning a reader adds for a mark found in `where` (a file, with its line if any).
std::string partialMarkWarning(const std::string& where, std::string_view mark);

} // namespace rankscope
