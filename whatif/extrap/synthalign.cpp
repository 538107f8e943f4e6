#include "whatif/extrap/synthalign.h"

#include <dtl/dtl.hpp>

namespace rankscope::extrap::synth {

std::vector<int64_t> alignSequences(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b)
{
    std::vector<int64_t> out(a.size(), -1);
    // A common prefix and suffix are kept as they are; dtl sees the middle only.
    size_t head = 0;
    while (head < a.size() && head < b.size() && a[head] == b[head]) {
        out[head] = int64_t(head);
        ++head;
    }
    size_t tail = 0;
    while (tail < a.size() - head && tail < b.size() - head &&
           a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) {
        out[a.size() - 1 - tail] = int64_t(b.size() - 1 - tail);
        ++tail;
    }
    if (head + tail == a.size() || head + tail == b.size()) return out;
    const std::vector<uint64_t> ma(a.begin() + int64_t(head), a.end() - int64_t(tail));
    const std::vector<uint64_t> mb(b.begin() + int64_t(head), b.end() - int64_t(tail));
    dtl::Diff<uint64_t, std::vector<uint64_t>> diff(ma, mb);
    diff.onHuge();
    diff.compose();
    // dtl numbers elements from 1.
    for (const auto& [element, info] : diff.getSes().getSequence())
        if (info.type == dtl::SES_COMMON)
            out[head + size_t(info.beforeIdx - 1)] = int64_t(head) + info.afterIdx - 1;
    return out;
}

} // namespace rankscope::extrap::synth
