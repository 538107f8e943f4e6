// Fuzzes scenario files (whatif::readScenarioFile, what `rankscope-cli scenario run` reads):
// the input is written to a file in a fresh folder and read. A TraceError is a fine answer; a
// crash, hang, leak, sanitizer report or any other exception is not. Each scenario read is
// checked (validate), described, expanded into its sweep points and written back as YAML.

#include "fuzz/fuzzscratch.h"
#include "model/trace/traceerror.h"
#include "whatif/scenario/scenario.h"
#include "whatif/scenario/scenariorun.h"

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const fuzz::ScratchFolder folder;
    const std::string path = folder.write("scenario.yaml", fuzz::text(data, size));
    try {
        for (const whatif::Scenario& s : whatif::readScenarioFile(path)) {
            (void)whatif::validate(s);
            (void)whatif::describe(s);
            (void)whatif::scenarioFromYaml(whatif::toYaml(s), "written back");
            for (const std::string& v : s.sweepValues)
                (void)whatif::withParam(s, s.sweepParam, v);
        }
    } catch (const TraceError&) {
        // bad input, said as such
    }
    return 0;
}
