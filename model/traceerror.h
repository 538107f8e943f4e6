#pragma once
// The one exception type of the core: bad or inconsistent input. The message names the place.

#include <stdexcept>
#include <string>

namespace rankscope {

class TraceError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

} // namespace rankscope
