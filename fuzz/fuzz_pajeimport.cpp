// Fuzzes the Paje importer: an input is a .paje file. scripts/fuzz.sh makes seeds from the
// SimGrid traces under tests/data/paje and from Rankscope's Paje export of the demo trace.
//
// A TraceError is a fine answer; a crash, hang, leak, sanitizer report or any other exception
// is not. What imports is summarised, as `rankscope-cli info` does. Inputs of odd length are
// read on two threads (the text cut on a second thread, importers/linepipeline.h).

#include "fuzz/fuzzscratch.h"
#include "importers/paje/pajereader.h"
#include "model/profile/tracesummary.h"
#include "model/trace/traceerror.h"

#include <string>

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const fuzz::ScratchFolder folder;
    const std::string path = folder.write("run.paje", fuzz::text(data, size));
    try {
        const Trace trace = readPaje(path, PajeReadOptions{{}, 1u + unsigned(size & 1)});
        (void)summarizeTrace(trace);
    } catch (const TraceError&) {
        // bad input, said as such
    }
    return 0;
}
