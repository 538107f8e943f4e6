#pragma once
// Turns OTF2 error codes into readable text for TraceError messages.
//
// OTF2 reports errors through a process-wide callback that by default prints to stderr. The
// reader installs a callback once that keeps the last message of the calling thread instead, so
// the message can be put into the TraceError (which names our file and location) and nothing
// is printed behind the user's back.

#include <otf2/OTF2_ErrorCodes.h>
#include <string>

namespace rankscope::otf2read {

/// Installs the capturing error callback (idempotent, thread-safe).
void installErrorCapture();
/// Forgets the last captured message of this thread.
void clearCapturedError();
/// "description of the code (OTF2's own message)" for an error returned by an OTF2 call.
std::string errorText(OTF2_ErrorCode code);
/// OTF2's last message on this thread (empty if none since clearCapturedError), for calls
/// that fail by returning null rather than an error code.
std::string capturedError();
/// The first message of an error (not a warning) OTF2 reported on this thread since
/// clearCapturedError: the writer's check for failures OTF2 only reports this way (a buffered
/// write that fails at close, say, returns success).
std::string firstCapturedFailure();

} // namespace rankscope::otf2read
