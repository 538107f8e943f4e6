#include "model/trace/eventstream.h"

#include <algorithm>
#include <cassert>

namespace rankscope {

bool isPointToPoint(EventKind k)
{
    return k >= EventKind::MpiSend && k <= EventKind::MpiRequestCancelled;
}

void EventStream::reserve(size_t n)
{
    time_.reserve(n);
    packed_.reserve(n);
}

void EventStream::setRef(size_t i, uint32_t ref)
{
    assert(ref <= kNoEventRef);
    packed_[i] = (packed_[i] & ~kNoEventRef) | (ref & kNoEventRef);
}

void EventStream::setTimes(const std::vector<int64_t>& times)
{
    assert(times.size() == time_.size());
    TimeColumn column;
    column.reserve(times.size());
    for (int64_t t : times)
        column.push_back(t);
    column.shrinkToFit();
    time_ = std::move(column);
}

void EventStream::addSourceLocation(uint32_t eventIndex, SourceLocation loc)
{
    assert(sourceLocations_.empty() || sourceLocations_.back().first < eventIndex);
    sourceLocations_.emplace_back(eventIndex, loc);
}

const SourceLocation* EventStream::sourceLocation(size_t i) const
{
    auto it = std::lower_bound(sourceLocations_.begin(), sourceLocations_.end(), uint32_t(i),
                               [](const auto& e, uint32_t idx) { return e.first < idx; });
    if (it == sourceLocations_.end() || it->first != i) return nullptr;
    return &it->second;
}

void EventStream::shrinkToFit()
{
    time_.shrinkToFit();
    packed_.shrink_to_fit();
    sourceLocations_.shrink_to_fit();
}

size_t EventStream::memoryBytes() const
{
    return time_.memoryBytes() + packed_.capacity() * sizeof(uint32_t) +
           sourceLocations_.capacity() * sizeof(sourceLocations_[0]);
}

bool EventStream::operator==(const EventStream& o) const
{
    return packed_ == o.packed_ && time_ == o.time_ && sourceLocations_ == o.sourceLocations_;
}

} // namespace rankscope
