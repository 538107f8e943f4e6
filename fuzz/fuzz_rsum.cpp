// Fuzzes the result summary reader (.rsum, importers/rsum). An input is the file's bytes; the
// checked-in seeds in fuzz/corpus/rsum are summaries of checked-in traces.
//
// A TraceError is a fine answer; a crash, hang, leak, sanitizer report or any other exception
// is not. What reads is merged as the GUI's loader merges it.

#include "fuzz/fuzzscratch.h"
#include "importers/rsum/resultsummary.h"
#include "model/trace/traceerror.h"

#include <string>

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const fuzz::ScratchFolder folder;
    const std::string path = folder.write("input.rsum", fuzz::text(data, size));
    try {
        const ResultSummary s = readResultSummary(path);
        (void)summaryProfile(s);
        (void)summaryIntervals(s);
    } catch (const TraceError&) {
        // bad input, said as such
    }
    return 0;
}
