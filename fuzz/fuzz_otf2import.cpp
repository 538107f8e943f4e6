// Fuzzes the OTF2 importer with whole archives. An input is a small container of files:
//
//   [option byte] { "\xf0RSF" <file byte> <contents up to the next "\xf0RSF"> }...
//
// File byte 0 is the anchor (traces.otf2), 1 the global definitions (traces.def), 2 + 2k and
// 3 + 2k the local definitions and events of location k (traces/k.def, traces/k.evt). Bit 0 of
// the option byte reads with two threads, bit 1 with allowPartial (--allow-partial).
// scripts/fuzz.sh packs real traces this way as seeds.
//
// The archive is written to a fresh folder and imported; a TraceError is a fine answer, a
// crash, hang, leak, sanitizer report or any other exception is not. What imports is
// summarised, as `rankscope-cli info` does.

#include "fuzz/fuzzscratch.h"
#include "importers/otf2/otf2reader.h"
#include "model/profile/tracesummary.h"
#include "model/trace/traceerror.h"

#include <string>
#include <string_view>

using namespace rankscope;

namespace {

constexpr std::string_view kMarker("\xf0RSF", 4);

std::string fileName(unsigned char index)
{
    if (index == 0) return "traces.otf2";
    if (index == 1) return "traces.def";
    const unsigned location = (index - 2) / 2;
    return "traces/" + std::to_string(location) + (index % 2 == 0 ? ".def" : ".evt");
}

/// Writes the files of `input` into `folder`; returns the option byte (0 when there is none).
unsigned char unpack(std::string_view input, const fuzz::ScratchFolder& folder)
{
    size_t at = input.find(kMarker);
    const unsigned char options =
        at > 0 && !input.empty() ? static_cast<unsigned char>(input[0]) : 0;
    while (at != std::string_view::npos && at + kMarker.size() < input.size()) {
        const size_t begin = at + kMarker.size() + 1;
        const size_t next = input.find(kMarker, begin);
        const size_t end = next == std::string_view::npos ? input.size() : next;
        folder.write(fileName(static_cast<unsigned char>(input[begin - 1])),
                     input.substr(begin, end - begin));
        at = next;
    }
    return options;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const fuzz::ScratchFolder folder;
    const unsigned char optionBits =
        unpack(std::string_view(reinterpret_cast<const char*>(data), size), folder);
    Otf2ReadOptions options;
    options.threads = (optionBits & 1) ? 2 : 1;
    options.allowPartial = (optionBits & 2) != 0;
    try {
        const Trace trace = readOtf2(folder.path() + "/traces.otf2", options);
        (void)summarizeTrace(trace);
    } catch (const TraceError&) {
        // bad input, said as such
    }
    return 0;
}
