#include "whatif/extrap/synthrunblocks.h"

#include <algorithm>
#include <set>
#include <string>

namespace rankscope::extrap::synth {

namespace {

/// Longest block a run is looked for with (a block of a few MPI calls: post, send, wait...).
constexpr size_t kMaxBlock = 16;

/// The shape without its events' tags (0 where an event has none), and the tags.
StepShape untagged(StepShape shape, std::vector<int32_t>* tags)
{
    // The MPI call alone: the regions left and entered before the first copy of a run differ
    // from those before the others.
    shape.events.erase(shape.events.begin(), shape.events.begin() + shape.callBegin);
    shape.callBegin = 0;
    for (EventShape& e : shape.events) {
        if (tags) tags->push_back(e.tag);
        e.tag = 0;
    }
    return shape;
}

/// Per step of one scale: its shape key, the rules every partner-naming event's partners
/// follow on every rank of the role (texts, in order of preference; empty: none), the XOR
/// distance k when one fits, and the tags.
struct StepRules
{
    uint32_t shape = 0;
    std::vector<std::vector<std::string>> rules; ///< per event that names a partner
    std::vector<int64_t> xorK;                   ///< per such event: k of r XOR k, or 0
    std::vector<int32_t> tags;
};

std::vector<StepRules> rulesOf(const RunScale& in, const Placement& placement,
                               const SkeletonContext& ctx, StepTable& shapes)
{
    const ScaleSkeleton& sc = *in.scale;
    const uint32_t n = sc.ranks;
    const auto grid = placement.grid(n);
    const ProcessGrid* g = grid ? &*grid : nullptr;
    const std::vector<uint32_t>& ranks = *in.ranks;
    const std::vector<uint32_t>& steps = sc.perRank[ranks.front()].steps;
    std::vector<StepRules> out(steps.size());
    for (size_t j = 0; j < steps.size(); ++j) {
        const StepShape& shape = ctx.steps.shape(steps[j]);
        out[j].shape = shapes.intern(untagged(shape, &out[j].tags));
        for (uint32_t e = 0; e < shape.events.size(); ++e) {
            if (rankParams(shape.events[e]) == 0) continue;
            std::vector<RankRule> rules;
            bool first = true;
            for (const uint32_t r : ranks) {
                const EventParams p =
                    eventParams(*sc.trace, *in.members, RankId(r), sc.perRank[r].eventAt(j, e));
                if (p.partner == kNoPartner) {
                    rules.clear();
                    break;
                }
                if (first) {
                    rules = rulesFor(r, p.partner, n, g);
                    first = false;
                } else {
                    std::erase_if(rules, [&](const RankRule& rule) {
                        return rule.evaluate(r, n, g) != p.partner;
                    });
                }
                if (rules.empty()) break;
            }
            const auto x = std::find_if(rules.begin(), rules.end(),
                                        [](const RankRule& r) { return r.kind == RuleKind::Xor; });
            std::vector<std::string> texts;
            if (x != rules.end()) {
                texts.push_back("x"); // r XOR k, whatever k
            } else {
                for (const RankRule& rule : rules)
                    texts.push_back(rule.text());
            }
            out[j].rules.push_back(std::move(texts));
            out[j].xorK.push_back(x != rules.end() ? x->k : 0);
        }
    }
    return out;
}

bool holds(const std::vector<uint32_t>& outer, const std::vector<uint32_t>& inner)
{
    return outer.size() > inner.size() &&
           std::search(outer.begin(), outer.end(), inner.begin(), inner.end()) != outer.end();
}

/// Whether `inner`, a part of `outer`, runs 2 or more times back to back at some scale right
/// after the tokens of `outer` before it or right before those after it: `outer` is then an
/// outer loop whose inner run ran once where `outer` repeats. A block that merely holds a token
/// that repeats elsewhere (NPB BT's pipeline stage [send, receive, wait] holds the receive that
/// the face exchange posts six times in a row) is a block of its own.
bool runsWithin(const std::vector<uint32_t>& outer, const std::vector<uint32_t>& inner,
                const std::vector<Tokens>& tokens)
{
    const size_t p = inner.size();
    for (auto at = std::search(outer.begin(), outer.end(), inner.begin(), inner.end());
         at != outer.end(); at = std::search(at + 1, outer.end(), inner.begin(), inner.end())) {
        const size_t before = size_t(at - outer.begin()), after = outer.size() - before - p;
        for (const Tokens& scale : tokens) {
            const std::vector<uint32_t>& t = scale.token;
            for (size_t i = 0; i + 2 * p <= t.size(); ++i) {
                size_t c = 0;
                while (i + (c + 1) * p <= t.size() &&
                       std::equal(inner.begin(), inner.end(), t.begin() + ptrdiff_t(i + c * p)))
                    ++c;
                if (c < 2) continue;
                const bool led = before > 0 && i >= before &&
                                 std::equal(outer.begin(), at, t.begin() + ptrdiff_t(i - before));
                const size_t end = i + c * p;
                const bool followed =
                    after > 0 && end + after <= t.size() &&
                    std::equal(at + ptrdiff_t(p), outer.end(), t.begin() + ptrdiff_t(end));
                if (led || followed) return true;
                i = end - 1;
            }
        }
    }
    return false;
}

/// The blocks that repeat back to back in `t`, innermost first: for each block length p from
/// 1 up, every run of 2 or more copies of p tokens not inside a run found before.
std::vector<std::vector<uint32_t>> repeatingBlocks(const std::vector<uint32_t>& t)
{
    std::vector<bool> covered(t.size(), false);
    std::vector<std::vector<uint32_t>> found;
    const auto free = [&](size_t from, size_t to) {
        return std::none_of(covered.begin() + ptrdiff_t(from), covered.begin() + ptrdiff_t(to),
                            [](bool c) { return c; });
    };
    for (size_t p = 1; p <= kMaxBlock; ++p) {
        size_t i = 0;
        while (i + 2 * p <= t.size()) {
            size_t c = 1;
            while (i + (c + 1) * p <= t.size() && free(i + c * p, i + (c + 1) * p) &&
                   std::equal(t.begin() + ptrdiff_t(i), t.begin() + ptrdiff_t(i + p),
                              t.begin() + ptrdiff_t(i + c * p)))
                ++c;
            if (c < 2 || !free(i, i + p)) {
                ++i;
                continue;
            }
            std::fill(covered.begin() + ptrdiff_t(i), covered.begin() + ptrdiff_t(i + c * p), true);
            found.emplace_back(t.begin() + ptrdiff_t(i), t.begin() + ptrdiff_t(i + p));
            i += c * p;
        }
    }
    return found;
}

} // namespace

std::vector<Tokens> tokensOf(const std::vector<RunScale>& scales, const Placement& placement,
                             const SkeletonContext& ctx)
{
    StepTable shapes;
    std::vector<std::vector<StepRules>> steps;
    std::map<std::string, size_t> scalesOfRule; // at how many scales a rule fits some step
    for (const RunScale& in : scales) {
        steps.push_back(rulesOf(in, placement, ctx, shapes));
        std::set<std::string> here;
        for (const StepRules& s : steps.back())
            for (const auto& texts : s.rules)
                here.insert(texts.begin(), texts.end());
        for (const std::string& text : here)
            ++scalesOfRule[text];
    }
    std::map<std::string, uint32_t> ids;
    std::vector<Tokens> out;
    for (const std::vector<StepRules>& scale : steps) {
        Tokens t;
        for (size_t j = 0; j < scale.size(); ++j) {
            const StepRules& s = scale[j];
            std::string key = std::to_string(s.shape);
            int64_t stepXor = -1; // -1: no partner yet; 0: partners that are not all one XOR
            for (size_t e = 0; e < s.rules.size(); ++e) {
                const auto& texts = s.rules[e];
                // Partners that follow no rule never repeat as a token.
                const auto best = std::max_element(texts.begin(), texts.end(),
                                                   [&](const std::string& a, const std::string& b) {
                                                       return scalesOfRule[a] < scalesOfRule[b];
                                                   });
                key += "|" + (texts.empty() ? "?" + std::to_string(j) : *best);
                const int64_t k = s.xorK[e];
                stepXor = k != 0 && (stepXor == -1 || stepXor == k) ? k : 0;
            }
            t.token.push_back(ids.try_emplace(key, uint32_t(ids.size())).first->second);
            t.xorK.push_back(stepXor > 0 ? stepXor : 0);
            t.tags.push_back(s.tags);
        }
        out.push_back(std::move(t));
    }
    return out;
}

std::vector<std::vector<uint32_t>> innermostBlocks(const std::vector<Tokens>& tokens)
{
    std::vector<std::vector<uint32_t>> found;
    for (const Tokens& t : tokens)
        for (std::vector<uint32_t>& b : repeatingBlocks(t.token))
            if (std::find(found.begin(), found.end(), b) == found.end())
                found.push_back(std::move(b));
    std::vector<std::vector<uint32_t>> out;
    for (const std::vector<uint32_t>& b : found)
        if (std::none_of(found.begin(), found.end(), [&](const std::vector<uint32_t>& inner) {
                return holds(b, inner) && runsWithin(b, inner, tokens);
            }))
            out.push_back(b);
    return out;
}

/// `t` as elements, left to right (see the header).
std::vector<Element> collapse(const std::vector<uint32_t>& t,
                              const std::vector<std::vector<uint32_t>>& known,
                              std::map<std::vector<uint32_t>, uint32_t>& blocks)
{
    std::vector<Element> out;
    size_t i = 0;
    while (i < t.size()) {
        const std::vector<uint32_t>* best = nullptr;
        size_t bestC = 0;
        for (const std::vector<uint32_t>& b : known) {
            const size_t p = b.size();
            size_t c = 0;
            while (i + (c + 1) * p <= t.size() &&
                   std::equal(b.begin(), b.end(), t.begin() + ptrdiff_t(i + c * p)))
                ++c;
            if (c > 0 && (!best || c * p > bestC * best->size() ||
                          (c * p == bestC * best->size() && p < best->size())))
                best = &b, bestC = c;
        }
        std::vector<uint32_t> block = best ? *best : std::vector<uint32_t>{t[i]};
        const size_t length = block.size();
        const uint32_t id =
            blocks.try_emplace(std::move(block), uint32_t(blocks.size())).first->second;
        out.push_back({id, best ? uint64_t(bestC) : 1, i});
        i += best ? bestC * length : 1;
    }
    return out;
}

} // namespace rankscope::extrap::synth
