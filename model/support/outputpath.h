#pragma once
// An output is never an input: whether a path a command is about to write lies inside, or is, a
// trace the same command reads. A trace is what its reader opens: for a folder, everything in it;
// for an OTF2 anchor X.otf2, the archive X.otf2, X.def and the folder X/; for a Paraver X.prv (or
// X.prv.gz), also X.pcf and X.row; for any other file, the file itself. Paths are compared after
// resolving symbolic links, "." and "..", so another spelling of the same place is caught.

#include <optional>
#include <string>
#include <vector>

namespace rankscope {

/// When writing `output` would write inside or over the trace `input`, the part of the trace it
/// would hit (as a path); otherwise nothing. `outputIsFolder`: the output is an OTF2 archive
/// folder, whose traces.otf2, traces.def and traces/ are written, and which must not hold the
/// input either.
std::optional<std::string> outputHitsInput(const std::string& output, const std::string& input,
                                           bool outputIsFolder = false);

/// Throws std::invalid_argument "<what> <output>: <why>; choose a path outside the traces this
/// command reads" when `output` hits any of `inputs` (outputHitsInput).
void refuseOutputOverInputs(const std::string& what, const std::string& output,
                            const std::vector<std::string>& inputs, bool outputIsFolder = false);

} // namespace rankscope
