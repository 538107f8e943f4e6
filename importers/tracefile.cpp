#include "importers/tracefile.h"

#include "importers/paraver/paraverreader.h"

namespace rankscope {

Trace readTraceFile(const std::string& path, const Otf2ReadOptions& options)
{
    if (!isParaverPath(path)) return readOtf2(path, options);
    ParaverReadOptions paraver;
    paraver.progress = options.progress;
    paraver.threads = options.threads;
    return readParaver(path, paraver);
}

} // namespace rankscope
