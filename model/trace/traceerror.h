#pragma once
// The exception types of the core: TraceError for bad or inconsistent input (the message names
// the place), and Cancelled, a TraceError whose message is "cancelled", for work whose progress
// callback asked it to stop. Callers that tell the two apart catch Cancelled first; nothing
// compares messages.

#include <stdexcept>
#include <string>

namespace rankscope {

class TraceError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// The work stopped because its progress callback returned false.
class Cancelled : public TraceError
{
public:
    Cancelled() : TraceError("cancelled") {}
};

} // namespace rankscope
