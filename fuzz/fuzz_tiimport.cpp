// Fuzzes the SimGrid time-independent trace importer. An input is the action text of the
// trace: one file read by every rank (its lines say whose action they are), or, when it holds
// lines "%%RANK%%", one file per rank split there; the list file naming them is written here.
// scripts/fuzz.sh makes seeds from tests/data/ti.
//
// A TraceError is a fine answer; a crash, hang, leak, sanitizer report or any other exception
// is not. What imports is summarised, as `rankscope-cli info` does.

#include "fuzz/fuzzscratch.h"
#include "importers/simgrid/tireader.h"
#include "model/profile/tracesummary.h"
#include "model/trace/traceerror.h"

#include <string>

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const fuzz::ScratchFolder folder;
    const std::string text = fuzz::text(data, size);
    const std::string marker = "%%RANK%%\n";
    std::string list;
    size_t begin = 0;
    for (int r = 0; r < 4096; ++r) {
        const size_t end = text.find(marker, begin);
        const std::string name = "rank-" + std::to_string(r) + ".txt";
        folder.write(name, text.substr(begin, end == std::string::npos ? end : end - begin));
        list += name + "\n";
        if (end == std::string::npos) break;
        begin = end + marker.size();
    }
    const std::string path = folder.write("run.ti", list);
    try {
        const Trace trace = readTi(path);
        (void)summarizeTrace(trace);
    } catch (const TraceError&) {
        // bad input, said as such
    }
    return 0;
}
