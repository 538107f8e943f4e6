#include "views/timeline/stackcheckpoints.h"

#include "model/trace/trace.h"

namespace rankscope {

void StackCheckpoints::apply(const EventStream& events, size_t i, Stack& stack)
{
    const EventKind kind = events.kind(i);
    if (kind == EventKind::Enter) {
        stack.push_back({events.region(i), uint32_t(i)});
    } else if (kind == EventKind::Leave) {
        const RegionId region = events.region(i);
        size_t k = stack.size();
        while (k > 0 && stack[k - 1].region != region)
            --k;
        if (k > 0) stack.resize(k - 1);
    }
}

void StackCheckpoints::build(const Trace& trace)
{
    ranks_.assign(trace.rankCount(), {});
    Stack stack;
    for (uint32_t r = 0; r < trace.rankCount(); ++r) {
        RankCheckpoints& rc = ranks_[r];
        const EventStream& events = trace.rankEvents(RankId(r));
        rc.events = &events;
        rc.offsets.reserve(events.size() / kStride + 2);
        stack.clear();
        for (size_t i = 0; i < events.size(); ++i) {
            if (i % kStride == 0) {
                rc.offsets.push_back(uint32_t(rc.frames.size()));
                rc.frames.insert(rc.frames.end(), stack.begin(), stack.end());
            }
            apply(events, i, stack);
        }
        rc.offsets.push_back(uint32_t(rc.frames.size()));
        rc.offsets.shrink_to_fit();
        rc.frames.shrink_to_fit();
    }
}

void StackCheckpoints::stackAt(RankId rank, size_t index, Stack& out) const
{
    out.clear();
    if (!rank.valid() || rank.value >= ranks_.size()) return;
    const RankCheckpoints& rc = ranks_[rank.value];
    if (rc.offsets.size() < 2) return;
    const size_t checkpoint = std::min(index / kStride, rc.offsets.size() - 2);
    out.assign(rc.frames.begin() + rc.offsets[checkpoint],
               rc.frames.begin() + rc.offsets[checkpoint + 1]);
    const size_t end = std::min(index, rc.events->size());
    for (size_t i = checkpoint * kStride; i < end; ++i)
        apply(*rc.events, i, out);
}

} // namespace rankscope
