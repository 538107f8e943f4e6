#include "importers/tracefile.h"

#include "importers/paje/pajereader.h"
#include "importers/paraver/paraverreader.h"
#include "importers/rsum/resultsummary.h"
#include "importers/simgrid/tireader.h"
#include "model/trace/traceerror.h"

namespace rankscope {

Trace readTraceFile(const std::string& path, const Otf2ReadOptions& options)
{
    if (isResultSummaryPath(path))
        throw TraceError(path +
                         ": a result summary holds no events, only results; "
                         "`rankscope-cli summarize " +
                         path + " --json` prints them and the GUI opens it");
    if (isParaverPath(path)) {
        ParaverReadOptions paraver;
        paraver.progress = options.progress;
        paraver.threads = options.threads;
        return readParaver(path, paraver);
    }
    if (isPajePath(path)) {
        PajeReadOptions paje;
        paje.progress = options.progress;
        paje.threads = options.threads;
        return readPaje(path, paje);
    }
    if (isTiPath(path)) return readTi(path);
    return readOtf2(path, options);
}

bool isSingleFileTracePath(const std::string& path)
{
    return isParaverPath(path) || isPajePath(path) || isTiPath(path) || isResultSummaryPath(path);
}

} // namespace rankscope
