#pragma once
// Trace synthesis: the loop in a rank's step sequence (ALGORITHMS.md §5). A rank's steps are
// read as prefix + body^count + suffix; the body and its count are what changes with scale
// (the count follows the count model of §3.4), prefix and suffix stay.
//
// The body is the tandem repeat covering the most steps: candidate periods are the distances
// between consecutive occurrences of each step (a body of length p puts every one of its steps
// p apart), each checked in one pass, so the search costs O(length x distinct distances) rather
// than the O(length^2) of trying every period.

#include <cstdint>
#include <optional>
#include <span>
#include <tuple>
#include <vector>

namespace rankscope::extrap::synth {

struct LoopForm
{
    std::vector<uint32_t> prefix;
    std::vector<uint32_t> body; ///< empty: the sequence has no loop
    std::vector<uint32_t> suffix;

    size_t length(uint64_t count) const
    {
        return prefix.size() + body.size() * count + suffix.size();
    }
    bool operator==(const LoopForm& o) const
    {
        return std::tie(prefix, body, suffix) == std::tie(o.prefix, o.body, o.suffix);
    }
};

/// The loop form of `steps` and its count (count 0 and an empty body when nothing repeats).
std::pair<LoopForm, uint64_t> findLoop(std::span<const uint32_t> steps);

/// The count k with steps == prefix + body^k + suffix, if there is one.
std::optional<uint64_t> matchLoop(const LoopForm& form, std::span<const uint32_t> steps);

} // namespace rankscope::extrap::synth
