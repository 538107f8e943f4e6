#include "whatif/extrap/synthloop.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace rankscope::extrap::synth {

namespace {

// Enough candidate periods for any loop nest a trace shows; irregular sequences have many
// distinct distances, and the most frequent ones are where a loop would be.
constexpr size_t kMaxCandidates = 64;

std::vector<size_t> candidatePeriods(std::span<const uint32_t> s)
{
    std::unordered_map<uint32_t, size_t> last;
    std::map<size_t, size_t> frequency;
    for (size_t i = 0; i < s.size(); ++i) {
        const auto [it, added] = last.try_emplace(s[i], i);
        if (!added) {
            const size_t d = i - it->second;
            if (d * 2 <= s.size()) ++frequency[d];
            it->second = i;
        }
    }
    std::vector<std::pair<size_t, size_t>> byCount; // (count, period)
    for (const auto& [d, c] : frequency)
        byCount.emplace_back(c, d);
    std::sort(byCount.begin(), byCount.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    if (byCount.size() > kMaxCandidates) byCount.resize(kMaxCandidates);
    std::vector<size_t> periods;
    for (const auto& [c, d] : byCount)
        periods.push_back(d);
    std::sort(periods.begin(), periods.end());
    return periods;
}

} // namespace

std::pair<LoopForm, uint64_t> findLoop(std::span<const uint32_t> s)
{
    size_t bestCover = 0, bestStart = 0, bestPeriod = 0, bestCount = 0;
    for (const size_t p : candidatePeriods(s)) {
        // Runs of i with s[i] == s[i + p]: a run [a, b) repeats s[a, a + p) (b - a) / p + 1 times.
        size_t a = 0;
        for (size_t i = 0; i + p <= s.size(); ++i) {
            const bool same = i + p < s.size() && s[i] == s[i + p];
            if (same) continue;
            const size_t count = (i - a) / p + 1;
            if (count >= 2 && count * p > bestCover) {
                bestCover = count * p;
                bestStart = a;
                bestPeriod = p;
                bestCount = count;
            }
            a = i + 1;
        }
    }
    LoopForm f;
    if (bestCount < 2) {
        f.prefix.assign(s.begin(), s.end());
        return {f, 0};
    }
    f.prefix.assign(s.begin(), s.begin() + ptrdiff_t(bestStart));
    f.body.assign(s.begin() + ptrdiff_t(bestStart), s.begin() + ptrdiff_t(bestStart + bestPeriod));
    f.suffix.assign(s.begin() + ptrdiff_t(bestStart + bestPeriod * bestCount), s.end());
    return {f, bestCount};
}

std::optional<uint64_t> matchLoop(const LoopForm& form, std::span<const uint32_t> s)
{
    const size_t fixed = form.prefix.size() + form.suffix.size();
    if (s.size() < fixed) return std::nullopt;
    const size_t rest = s.size() - fixed;
    if (form.body.empty() ? rest != 0 : rest % form.body.size() != 0) return std::nullopt;
    if (!std::equal(form.prefix.begin(), form.prefix.end(), s.begin())) return std::nullopt;
    if (!std::equal(form.suffix.begin(), form.suffix.end(),
                    s.end() - ptrdiff_t(form.suffix.size())))
        return std::nullopt;
    if (form.body.empty()) return 0;
    const size_t count = rest / form.body.size();
    for (size_t i = 0; i < rest; ++i)
        if (s[form.prefix.size() + i] != form.body[i % form.body.size()]) return std::nullopt;
    return count;
}

} // namespace rankscope::extrap::synth
