#include "importers/otf2/otf2readerror.h"

#include <cstdarg>
#include <cstdio>
#include <mutex>

namespace rankscope::otf2read {

namespace {

thread_local std::string lastMessage;

OTF2_ErrorCode captureError(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code,
                            const char* format, va_list args)
{
    char buffer[512];
    if (format) {
        std::vsnprintf(buffer, sizeof buffer, format, args);
        lastMessage = buffer;
    } else {
        lastMessage.clear();
    }
    return code;
}

} // namespace

void installErrorCapture()
{
    static std::once_flag once;
    std::call_once(once, [] { OTF2_Error_RegisterCallback(captureError, nullptr); });
}

void clearCapturedError()
{
    lastMessage.clear();
}

std::string errorText(OTF2_ErrorCode code)
{
    std::string text = OTF2_Error_GetDescription(code);
    if (!lastMessage.empty() && lastMessage != text) text += " (" + lastMessage + ")";
    return text;
}

std::string capturedError()
{
    return lastMessage;
}

} // namespace rankscope::otf2read
