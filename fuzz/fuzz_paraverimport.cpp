// Fuzzes the Paraver importer. An input is a .prv, optionally followed by the line
// "%%PCF%%" and the .pcf to put beside it; a .prv starting with gzip's magic bytes is written
// as run.prv.gz (so the gzip reading is fuzzed too). scripts/fuzz.sh makes seeds from the
// Paraver fixtures under tests/data/paraver.
//
// A TraceError is a fine answer; a crash, hang, leak, sanitizer report or any other exception
// is not. What imports is summarised, as `rankscope-cli info` does.

#include "fuzz/fuzzscratch.h"
#include "importers/paraver/paraverreader.h"
#include "model/profile/tracesummary.h"
#include "model/trace/traceerror.h"

#include <string>
#include <string_view>

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const fuzz::ScratchFolder folder;
    const std::string input = fuzz::text(data, size);
    constexpr std::string_view kMarker = "\n%%PCF%%\n";
    const size_t at = input.find(kMarker);
    const std::string_view prv = std::string_view(input).substr(0, at);
    const bool gz = prv.size() >= 2 && prv[0] == '\x1f' && prv[1] == '\x8b';
    const std::string path = folder.write(gz ? "run.prv.gz" : "run.prv", prv);
    if (at != std::string::npos) folder.write("run.pcf", input.substr(at + kMarker.size()));
    try {
        ParaverReadOptions options;
        options.threads = 1u + unsigned(size & 1); // odd lengths: the text cut on a second thread
        const Trace trace = readParaver(path, options);
        (void)summarizeTrace(trace);
    } catch (const TraceError&) {
        // bad input, said as such
    }
    return 0;
}
