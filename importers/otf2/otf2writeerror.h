#pragma once
// Turns OTF2 error codes of the writer into TraceError messages that name the archive.

#include "model/trace/traceerror.h"

#include <otf2/OTF2_ErrorCodes.h>
#include <string>
#include <string_view>

namespace rankscope {

inline void checkOtf2Write(OTF2_ErrorCode code, const std::string& path, std::string_view what)
{
    if (code != OTF2_SUCCESS)
        throw TraceError(path + ": cannot write OTF2 archive (" + std::string(what) + ": " +
                         OTF2_Error_GetName(code) + ", " + OTF2_Error_GetDescription(code) + ")");
}

} // namespace rankscope
