// Fuzzes the session file reader (Session::parse, what `rankscope --session` and the autosave
// recovery read). A TraceError is a fine answer; a crash, hang, leak, sanitizer report or any
// other exception is not. A session that reads is written back (toYaml) and read again.

#include "app/session.h"
#include "fuzz/fuzzscratch.h"
#include "model/trace/traceerror.h"

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string folder = "/fuzz/sessions";
    try {
        const Session s = Session::parse(fuzz::text(data, size), "fuzz.rsession", folder);
        (void)Session::parse(s.toYaml(folder), "fuzz.rsession (written back)", folder);
    } catch (const TraceError&) {
        // bad input, said as such
    }
    return 0;
}
