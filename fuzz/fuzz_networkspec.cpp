// Fuzzes the network spec reader (NetworkSpec::fromString). The input is the YAML text; after
// a byte 0x01, the rest is one `--set KEY=VALUE` override applied to it. A TraceError is a fine
// answer; a crash, hang, leak, sanitizer report or any other exception is not. A spec that
// reads is printed back (effectiveYaml) and listed (overridableKeys), as the what-if panel does.

#include "fuzz/fuzzscratch.h"
#include "model/trace/traceerror.h"
#include "whatif/netsim/networkspec.h"

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string text = fuzz::text(data, size);
    std::vector<netsim::SpecOverride> set;
    try {
        if (const size_t split = text.find('\x01'); split != std::string::npos) {
            set.push_back(netsim::parseOverride(text.substr(split + 1)));
            text.resize(split);
        }
        const netsim::NetworkSpec spec = netsim::NetworkSpec::fromString(text, "fuzz.yaml", set);
        (void)spec.effectiveYaml();
        (void)spec.overridableKeys();
    } catch (const TraceError&) {
        // bad input, said as such
    }
    return 0;
}
