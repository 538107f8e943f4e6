#pragma once
// Opens a trace in any importable format: a Paraver trace by its extension (.prv, .prv.gz), a
// Paje trace by .paje, a SimGrid time-independent trace by .ti (its list file), an OTF2 archive
// otherwise (its anchor file or folder). Every command and the GUI read traces through here.

#include "importers/otf2/otf2reader.h"

#include <string>

namespace rankscope {

/// Reads the trace at `path` (see above). `options` apply to either format where they mean
/// something (allowPartial and the memory check are OTF2's). Throws TraceError.
Trace readTraceFile(const std::string& path, const Otf2ReadOptions& options = {});

/// Whether `path` names a trace of one file (with files beside it) by its extension: Paraver,
/// Paje or a SimGrid TI list file. Any other file must be an OTF2 anchor.
bool isSingleFileTracePath(const std::string& path);

} // namespace rankscope
