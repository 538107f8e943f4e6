#pragma once
// The requests a location has posted and not yet completed: request id -> posting event index.
//
// A rank rarely has more than a few dozen requests in flight, so a small vector searched from
// the newest entry beats a node-based hash map (no allocation per request). Should a trace
// keep very many in flight, the table switches to a hash map so lookups stay O(1). Every
// location has one while its trace is built, so an unused table costs only two pointers' worth.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rankscope {

class OpenRequests
{
public:
    static constexpr uint32_t kNone = 0xFFFFFFFFu;

    void clear()
    {
        std::vector<std::pair<uint64_t, uint32_t>>().swap(small_);
        large_.reset();
    }
    /// Posts `request` as record `index`; a request id still open is replaced (ids are reused).
    void post(uint64_t request, uint32_t index)
    {
        if (large_) {
            (*large_)[request] = index;
            return;
        }
        for (auto& e : small_)
            if (e.first == request) {
                e.second = index;
                return;
            }
        small_.emplace_back(request, index);
        if (small_.size() > kSmallLimit) {
            large_ = std::make_unique<std::unordered_map<uint64_t, uint32_t>>(small_.begin(),
                                                                              small_.end());
            std::vector<std::pair<uint64_t, uint32_t>>().swap(small_);
        }
    }
    /// The record of an open request, or kNone; `remove` closes it.
    uint32_t find(uint64_t request, bool remove)
    {
        if (large_) {
            auto it = large_->find(request);
            if (it == large_->end()) return kNone;
            const uint32_t index = it->second;
            if (remove) large_->erase(it);
            return index;
        }
        for (size_t i = small_.size(); i-- > 0;) {
            if (small_[i].first != request) continue;
            const uint32_t index = small_[i].second;
            if (remove) {
                small_[i] = small_.back();
                small_.pop_back();
            }
            return index;
        }
        return kNone;
    }

private:
    static constexpr size_t kSmallLimit = 128;
    std::vector<std::pair<uint64_t, uint32_t>> small_;
    std::unique_ptr<std::unordered_map<uint64_t, uint32_t>> large_; ///< set once small_ overflowed
};

} // namespace rankscope
