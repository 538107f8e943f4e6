#pragma once
// A bookmark: a named time range of one trace (displayed trace time, ns), as the user saved it
// from the timeline's visible range. Plain C++: session files (app/session.h) store them per
// trace, trace tabs (app/tracedocument.h) hold them while the trace is open.

#include <string>

namespace rankscope {

struct Bookmark
{
    std::string name;
    double begin = 0; ///< ns
    double end = 0;   ///< ns, after begin
    bool operator==(const Bookmark&) const = default;
};

} // namespace rankscope
