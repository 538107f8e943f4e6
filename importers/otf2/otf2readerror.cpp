#include "importers/otf2/otf2readerror.h"

#include <cstdarg>
#include <cstdio>
#include <mutex>

namespace rankscope::otf2read {

namespace {

thread_local std::string lastMessage;
thread_local std::string firstFailure; // the first message of an error (not a warning)

OTF2_ErrorCode captureError(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code,
                            const char* format, va_list args)
{
    char buffer[512];
    if (format) {
        std::vsnprintf(buffer, sizeof buffer, format, args);
        lastMessage = buffer;
        if (firstFailure.empty() && code != OTF2_WARNING && code != OTF2_DEPRECATED &&
            code != OTF2_SUCCESS)
            firstFailure = lastMessage;
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
    firstFailure.clear();
}

std::string firstCapturedFailure()
{
    return firstFailure;
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
