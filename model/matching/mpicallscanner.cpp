#include "model/matching/mpicallscanner.h"

#include "model/trace/trace.h"

namespace rankscope {

MpiCallScanner::MpiCallScanner(const Trace& trace, RankId rank, CallSiteResolver* resolver)
    : trace_(trace), events_(trace.rankEvents(rank)), resolver_(resolver)
{
    stack_.reserve(64);
}

size_t MpiCallScanner::eventCount() const
{
    return events_.size();
}

bool MpiCallScanner::next(CallRecord& call, std::vector<CallPayload>* payload)
{
    const size_t n = events_.size();
    for (; pos_ < n; ++pos_) {
        const size_t i = pos_;
        const EventKind kind = events_.kind(i);
        if (kind == EventKind::Enter) {
            const RegionId region = events_.region(i);
            const uint32_t parentPath =
                stack_.empty() ? CallSiteResolver::kRootPath : stack_.back().path;
            if (callDepth_ != kNoCall) {
                // Inside an MPI call: nested regions (MPI or not) belong to that call.
                stack_.push_back({region, parentPath});
            } else if (trace_.region(region).isMpi()) {
                callDepth_ = stack_.size();
                stack_.push_back({region, parentPath});
                enterCall(i, region, payload);
            } else {
                const uint32_t path = resolver_ ? resolver_->childPath(parentPath, region)
                                                : CallSiteResolver::kRootPath;
                stack_.push_back({region, path});
            }
        } else if (kind == EventKind::Leave) {
            const RegionId region = events_.region(i);
            size_t k = stack_.size();
            while (k > 0 && stack_[k - 1].region != region)
                --k;
            if (k == 0) continue; // a Leave with nothing to close
            stack_.resize(k - 1);
            if (callDepth_ != kNoCall && stack_.size() <= callDepth_) {
                // Ended by its own Leave, or by the Leave of an enclosing region (broken nesting).
                current_.leaveEvent = uint32_t(i);
                current_.leaveTime = events_.time(i);
                current_.closed = stack_.size() == callDepth_;
                callDepth_ = kNoCall;
                call = current_;
                ++pos_;
                return true;
            }
        } else if (callDepth_ != kNoCall && payload && kind != EventKind::Misc &&
                   events_.ref(i) != kNoEventRef) {
            payload->push_back({uint32_t(i), kind, events_.ref(i)});
            ++current_.payloadCount;
        }
    }
    if (callDepth_ != kNoCall) {
        // The trace ended inside the call: it lasts until the location's last event.
        current_.leaveTime = events_.time(n - 1);
        current_.closed = false;
        callDepth_ = kNoCall;
        stack_.clear();
        call = current_;
        return true;
    }
    return false;
}

void MpiCallScanner::enterCall(size_t i, RegionId region, std::vector<CallPayload>* payload)
{
    current_ = CallRecord();
    current_.region = region;
    current_.enterEvent = uint32_t(i);
    current_.enterTime = events_.time(i);
    current_.firstPayload = payload ? uint32_t(payload->size()) : 0;
    if (resolver_) // the call's own frame carries the path of the user frames around it
        current_.callSite = resolver_->resolve(sourceLocationAt(i), stack_.back().path, region);
}

const SourceLocation* MpiCallScanner::sourceLocationAt(size_t i)
{
    // Events are visited in order, so a cursor replaces a binary search per call.
    const auto& locations = events_.sourceLocations();
    while (nextSource_ < locations.size() && locations[nextSource_].first < i)
        ++nextSource_;
    if (nextSource_ < locations.size() && locations[nextSource_].first == i)
        return &locations[nextSource_].second;
    return nullptr;
}

} // namespace rankscope
