#pragma once
// Matched point-to-point messages of each rank sorted by send time (as sender) and by receive
// time (as receiver), so a frame finds the messages touching its window with two binary
// searches per displayed rank, and thins them by even sampling without visiting the others.

#include "model/trace/ids.h"

#include <cstdint>
#include <span>
#include <vector>

namespace rankscope {

class Trace;

class MessageIndex
{
public:
    struct Line
    {
        MessageId message;
        RankId sender;
        RankId receiver;
        int64_t sendTime = 0;
        int64_t recvTime = 0;
    };

    void build(const Trace& trace);
    void clear()
    {
        sends_.clear();
        recvs_.clear();
    }

    /// Messages sent or received by `ranks` in trace time [begin, end), at most `maxLines`
    /// spread evenly over all of them. Returns the number of candidates (before thinning).
    size_t collect(std::span<const RankId> ranks, int64_t begin, int64_t end, size_t maxLines,
                   std::vector<Line>& out) const;

    /// Send and receive time of a matched message.
    static Line line(const Trace& trace, MessageId id);

private:
    /// A message and its time at this end. Kept with the time (16 bytes, not the 4 of an id
    /// alone): looking times up through the trace during the binary searches made frames about
    /// a quarter slower (perf gate, frame cases).
    struct Entry
    {
        int64_t time;
        MessageId message;
    };
    const Trace* trace_ = nullptr;
    std::vector<std::vector<Entry>> sends_; ///< per sender rank, by send time
    std::vector<std::vector<Entry>> recvs_; ///< per receiver rank, by receive time
};

} // namespace rankscope
