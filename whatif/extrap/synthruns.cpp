#include "whatif/extrap/synthruns.h"

#include "whatif/extrap/synthloop.h"
#include "whatif/extrap/synthrunblocks.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>

namespace rankscope::extrap::synth {

namespace {

std::optional<uint64_t> log2Exact(uint32_t n)
{
    if (n == 0 || !std::has_single_bit(n)) return std::nullopt;
    return uint64_t(std::countr_zero(n));
}

std::optional<uint64_t> sqrtExact(uint32_t n)
{
    const auto s = uint64_t(std::llround(std::sqrt(double(n))));
    if (n == 0 || s * s != n) return std::nullopt;
    return s;
}

/// One scale read as elements in a loop form: prefix, one body iteration, suffix.
struct ScaleRuns
{
    std::vector<Element> elements;      ///< all of them, in order
    std::vector<uint32_t> blocksOfForm; ///< prefix + body + suffix, block ids
    size_t prefix = 0, body = 0;        ///< elements in the prefix and the body
    uint64_t count = 0;                 ///< body iterations
    std::vector<uint64_t> lengths;      ///< per form element: its repeat count
    /// per form element: every instance (index into elements) in order.
    std::vector<std::vector<size_t>> instances;
};

ScaleRuns formOf(std::vector<Element> elements)
{
    ScaleRuns s;
    std::map<std::pair<uint32_t, uint64_t>, uint32_t> ids;
    std::vector<uint32_t> seq;
    for (const Element& e : elements)
        seq.push_back(ids.try_emplace({e.block, e.count}, uint32_t(ids.size())).first->second);
    const auto [form, count] = findLoop(seq);
    s.prefix = form.prefix.size();
    s.body = form.body.size();
    s.count = count;
    const size_t formSize = form.prefix.size() + form.body.size() + form.suffix.size();
    s.instances.assign(formSize, {});
    for (size_t i = 0; i < elements.size(); ++i) {
        size_t q = 0;
        if (i < s.prefix)
            q = i;
        else if (i - s.prefix < s.body * count)
            q = s.prefix + (i - s.prefix) % s.body;
        else
            q = s.prefix + s.body + (i - s.prefix - s.body * count);
        s.instances[q].push_back(i);
    }
    for (size_t q = 0; q < formSize; ++q) {
        const Element& e = elements[s.instances[q].front()];
        s.blocksOfForm.push_back(e.block);
        s.lengths.push_back(e.count);
    }
    s.elements = std::move(elements);
    return s;
}

/// How one form element repeats at the target.
struct ElementRule
{
    bool varies = false;
    const ScaleFunction* f = nullptr;
    uint64_t c = 0;       ///< length c x f(n)
    bool xorRun = false;  ///< copies exchange with r XOR k, read as chunks of f(n)
    std::vector<int> dir; ///< per chunk: +1 ascending, -1 descending, 0 not yet known
    std::vector<int64_t> base;
    uint64_t constant = 0; ///< the length when it does not vary
    /// Per chunk and message of the block: the tag of copy j is a, a + j (+1) or
    /// a + f - 1 - j (-1); dir 0 also while only copies of one chunk length 1 were seen.
    struct TagRule
    {
        int32_t a = 0;
        int dir = 0;
        bool seen = false, varies = false;
    };
    std::vector<std::vector<TagRule>> tags;
};

/// Reads the tags of an instance's copies as chunks of `length` (see TagRule).
bool readTags(const Element& e, size_t blockLength, uint64_t length, const Tokens& t,
              ElementRule& rule)
{
    const uint64_t chunks = e.count / length;
    std::vector<std::vector<int32_t>> copies; // per copy: the tags of its messages
    for (uint64_t c = 0; c < e.count; ++c) {
        std::vector<int32_t> tags;
        for (size_t b = 0; b < blockLength; ++b) {
            const auto& own = t.tags[e.first + c * blockLength + b];
            tags.insert(tags.end(), own.begin(), own.end());
        }
        copies.push_back(std::move(tags));
    }
    const size_t messages = copies.front().size();
    if (rule.tags.empty()) rule.tags.assign(chunks, std::vector<ElementRule::TagRule>(messages));
    if (rule.tags.size() != chunks || rule.tags.front().size() != messages) return false;
    for (uint64_t s = 0; s < chunks; ++s)
        for (size_t m = 0; m < messages; ++m) {
            const auto tag = [&](uint64_t j) { return copies[s * length + j][m]; };
            bool same = true, up = true, down = true;
            for (uint64_t j = 0; j < length; ++j) {
                same = same && tag(j) == tag(0);
                up = up && tag(j) == tag(0) + int32_t(j);
                down = down && tag(j) == tag(length - 1) + int32_t(length - 1 - j);
            }
            ElementRule::TagRule& r = rule.tags[s][m];
            const int32_t a = up || same ? tag(0) : tag(length - 1);
            if (r.seen && r.a != a) return false;
            r.a = a;
            r.seen = true;
            if (length == 1) continue;
            const int dir = same ? 0 : up ? +1 : down ? -1 : 2;
            if (dir == 2) return false;
            if (r.varies && r.dir != dir) return false;
            if (dir == 0 && r.varies) return false;
            if (dir != 0) r.dir = dir, r.varies = true;
        }
    return true;
}

/// The XOR distance of each copy of an instance (0 when its steps disagree or have none).
std::vector<int64_t> copyXors(const Element& e, size_t blockLength, const Tokens& t)
{
    std::vector<int64_t> out;
    for (uint64_t c = 0; c < e.count; ++c) {
        int64_t k = -1;
        for (size_t b = 0; b < blockLength; ++b) {
            const int64_t x = t.xorK[e.first + c * blockLength + b];
            if (x == 0) continue;
            k = k == -1 || k == x ? x : 0;
        }
        out.push_back(k > 0 ? k : 0);
    }
    return out;
}

/// Reads copies as chunks of L with k = base 2^j or base 2^(L-1-j); false when they are not.
bool readChunks(const std::vector<int64_t>& ks, uint64_t length, ElementRule& rule)
{
    const uint64_t chunks = ks.size() / length;
    if (rule.dir.empty()) rule.dir.assign(chunks, 0), rule.base.assign(chunks, 0);
    if (rule.dir.size() != chunks) return false;
    for (uint64_t s = 0; s < chunks; ++s) {
        const int64_t* k = ks.data() + s * length;
        const auto fits = [&](int d) {
            for (uint64_t j = 0; j < length; ++j) {
                const uint64_t exponent = d > 0 ? j : length - 1 - j;
                if (exponent >= 62 || k[j] != (k[d > 0 ? 0 : length - 1] << exponent)) return false;
            }
            return k[0] > 0;
        };
        const int64_t base = std::min(k[0], k[length - 1]);
        if (rule.base[s] != 0 && rule.base[s] != base) return false;
        rule.base[s] = base;
        if (length == 1) continue; // either direction
        const int d = fits(+1) ? +1 : fits(-1) ? -1 : 0;
        if (d == 0 || (rule.dir[s] != 0 && rule.dir[s] != d)) return false;
        rule.dir[s] = d;
    }
    return true;
}

std::string siteOf(const SkeletonContext& ctx, uint32_t step)
{
    const uint32_t site = ctx.steps.shape(step).callSite;
    return site == kNoSymbol ? std::string("(after the last MPI call)")
                             : std::string(ctx.symbols.name(CallSiteId(site)));
}

} // namespace

const std::vector<ScaleFunction>& scaleFunctions()
{
    static const std::vector<ScaleFunction> functions{
        {"log2 n", [](uint32_t n) { return log2Exact(n); }},
        {"ceil(log2 n / 2)",
         [](uint32_t n) -> std::optional<uint64_t> {
             const auto l = log2Exact(n);
             return l ? std::optional<uint64_t>((*l + 1) / 2) : std::nullopt;
         }},
        {"floor(log2 n / 2)",
         [](uint32_t n) -> std::optional<uint64_t> {
             const auto l = log2Exact(n);
             return l ? std::optional<uint64_t>(*l / 2) : std::nullopt;
         }},
        {"n", [](uint32_t n) -> std::optional<uint64_t> { return n; }},
        {"n - 1", [](uint32_t n) -> std::optional<uint64_t> { return n - 1; }},
        {"n / 2",
         [](uint32_t n) -> std::optional<uint64_t> {
             return n % 2 == 0 ? std::optional<uint64_t>(n / 2) : std::nullopt;
         }},
        // A square process grid's side (NPB BT and SP: one cell per diagonal stage).
        {"sqrt n", [](uint32_t n) { return sqrtExact(n); }},
        {"sqrt n - 1",
         [](uint32_t n) -> std::optional<uint64_t> {
             const auto s = sqrtExact(n);
             return s && *s > 1 ? std::optional<uint64_t>(*s - 1) : std::nullopt;
         }},
    };
    return functions;
}

std::optional<RunForm> fitRuns(const std::vector<RunScale>& scales, const Placement& placement,
                               SkeletonContext& ctx, uint32_t target, size_t inputCount,
                               std::string& why)
{
    std::map<std::vector<uint32_t>, uint32_t> blocks;
    const std::vector<Tokens> tokens = tokensOf(scales, placement, ctx);
    std::vector<ScaleRuns> runs;
    const std::vector<std::vector<uint32_t>> known = innermostBlocks(tokens);
    for (const Tokens& t : tokens)
        runs.push_back(formOf(collapse(t.token, known, blocks)));
    std::vector<std::vector<uint32_t>> blockTokens(blocks.size());
    for (const auto& [b, id] : blocks)
        blockTokens[id] = b;
    // The token's step: the first step of a scale that shows the token.
    std::map<uint32_t, uint32_t> stepOfToken;
    for (size_t k = 0; k < scales.size(); ++k) {
        const auto& steps = scales[k].scale->perRank[scales[k].ranks->front()].steps;
        for (size_t j = 0; j < steps.size(); ++j)
            stepOfToken.try_emplace(tokens[k].token[j], steps[j]);
    }
    const ScaleRuns& ref = runs.back();
    for (size_t k = 0; k < runs.size(); ++k) {
        if (runs[k].blocksOfForm != ref.blocksOfForm || runs[k].prefix != ref.prefix ||
            runs[k].body != ref.body) {
            why = "the blocks of MPI calls differ between " + scales[k].scale->label + " and " +
                  scales.back().scale->label + ", not only in how often they repeat";
            return std::nullopt;
        }
    }
    const size_t formSize = ref.blocksOfForm.size();
    std::vector<ElementRule> rules(formSize);
    for (size_t q = 0; q < formSize; ++q) {
        ElementRule& rule = rules[q];
        const size_t blockLength = blockTokens[ref.blocksOfForm[q]].size();
        const uint32_t firstStep = stepOfToken.at(blockTokens[ref.blocksOfForm[q]].front());
        bool same = true;
        for (const ScaleRuns& s : runs)
            same = same && s.lengths[q] == ref.lengths[q];
        if (same) {
            rule.constant = ref.lengths[q];
            continue;
        }
        rule.varies = true;
        for (const ScaleFunction& f : scaleFunctions()) {
            ElementRule trial;
            trial.varies = true;
            trial.f = &f;
            bool ok = true;
            bool anyXor = false;
            for (size_t k = 0; ok && k < runs.size(); ++k) {
                const auto v = f.value(scales[k].scale->ranks);
                const uint64_t m = runs[k].lengths[q];
                ok = v && *v > 0 && m % *v == 0 && (trial.c == 0 || trial.c == m / *v);
                if (!ok) break;
                trial.c = m / *v;
                for (const size_t inst : runs[k].instances[q]) {
                    const std::vector<int64_t> ks =
                        copyXors(runs[k].elements[inst], blockLength, tokens[k]);
                    const bool xors =
                        std::all_of(ks.begin(), ks.end(), [](int64_t x) { return x > 0; });
                    anyXor = anyXor || xors;
                    ok = ok && (!xors || readChunks(ks, *v, trial));
                    ok = ok && readTags(runs[k].elements[inst], blockLength, xors ? *v : m,
                                        tokens[k], trial);
                    // A run of copies with partners that are not all XOR: every copy alike.
                    ok = ok && (xors || std::all_of(ks.begin(), ks.end(),
                                                    [](int64_t x) { return x == 0; }));
                }
            }
            if (!ok || !f.value(target)) continue;
            trial.xorRun = anyXor;
            rule = std::move(trial);
            break;
        }
        if (!rule.f) {
            std::string lengths, ranks;
            for (size_t k = 0; k < runs.size(); ++k) {
                lengths += (k ? ", " : "") + std::to_string(runs[k].lengths[q]);
                ranks += (k ? ", " : "") + std::to_string(scales[k].scale->ranks);
            }
            std::string names;
            for (const ScaleFunction& f : scaleFunctions())
                names += std::string(names.empty() ? "" : ", ") + f.name;
            why = "a run at " + siteOf(ctx, firstStep) + " repeats " + lengths + " times at " +
                  ranks + " ranks, by no rule c x f(n) with f among " + names;
            return std::nullopt;
        }
        if (rule.xorRun && std::find(rule.dir.begin(), rule.dir.end(), 0) != rule.dir.end()) {
            why = "a run at " + siteOf(ctx, firstStep) +
                  " exchanges with r XOR k in an order no input scale shows";
            return std::nullopt;
        }
    }

    // Written out at the target.
    RunForm out;
    std::vector<size_t> startAt(formSize + 1, 0); // first target position of each element
    std::vector<uint64_t> lengthAt(formSize, 0);
    std::vector<uint64_t> unitAt(formSize, 1); // f(target) for runs
    for (size_t q = 0; q < formSize; ++q) {
        const ElementRule& rule = rules[q];
        const std::vector<uint32_t>& block = blockTokens[ref.blocksOfForm[q]];
        if (rule.varies) {
            unitAt[q] = *rule.f->value(target);
            lengthAt[q] = rule.c * unitAt[q];
        } else {
            lengthAt[q] = rule.constant;
        }
        std::vector<uint32_t>& part = q < ref.prefix              ? out.form.prefix
                                      : q < ref.prefix + ref.body ? out.form.body
                                                                  : out.form.suffix;
        const size_t before = out.alias.size();
        startAt[q] = before;
        for (uint64_t c = 0; c < lengthAt[q]; ++c) {
            // The copy whose sizes, rules and gaps this one takes: itself where the inputs show
            // it; the chunk's end every scale shows for XOR runs; the first copy otherwise.
            uint64_t rep = c;
            int64_t k = 0;
            if (rule.varies && rule.xorRun) {
                const uint64_t L = unitAt[q], s = c / L, j = c % L;
                const bool up = rule.dir[s] >= 0;
                rep = s * L + (up ? 0 : L - 1);
                k = rule.base[s] << (up ? j : L - 1 - j);
            } else if (rule.varies) {
                rep = 0;
            }
            // The steps: as the largest input runs them where the length does not vary; else
            // its first copy with the tags the chunk's rule gives.
            // Copy c is written as copy c of the largest scale running the run at least twice
            // (its last copy beyond that): the first copy may differ in the regions before it.
            size_t from = runs.size() - 1;
            if (rule.varies)
                while (from > 0 && runs[from].lengths[q] < 2)
                    --from;
            const ScaleRuns& tmpl = runs[from];
            const Element& e = tmpl.elements[tmpl.instances[q].front()];
            const std::vector<uint32_t>& refSteps =
                scales[from].scale->perRank[scales[from].ranks->front()].steps;
            const uint64_t chunkLength = rule.xorRun ? unitAt[q] : lengthAt[q];
            const uint64_t chunk = rule.varies ? c / chunkLength : 0, j = c % chunkLength;
            // The template's copy at the same place in the same chunk: its first and last copy
            // for the first and last (the regions entered or left around a chunk), else the
            // copy j or the last copy before the chunk's end.
            uint64_t copyFrom = std::min<uint64_t>(c, e.count - 1);
            if (rule.varies && rule.xorRun) {
                const uint64_t had = e.count / rule.c; // the template's chunk length
                copyFrom =
                    chunk * had + (j + 1 == chunkLength ? had - 1 : std::min<uint64_t>(j, had - 1));
            } else if (rule.varies && c + 1 == lengthAt[q]) {
                copyFrom = e.count - 1;
            }
            size_t message = 0;
            for (size_t b = 0; b < block.size(); ++b) {
                const uint32_t refStep = refSteps[e.first + copyFrom * block.size() + b];
                uint32_t step = refStep;
                if (rule.varies) {
                    StepShape shape = ctx.steps.shape(refStep);
                    // Tags were read from the MPI call's events only (untagged).
                    for (size_t ei = shape.callBegin; ei < shape.events.size(); ++ei) {
                        EventShape& ev = shape.events[ei];
                        const ElementRule::TagRule& t = rule.tags[chunk].at(message++);
                        ev.tag = t.a + (t.dir > 0   ? int32_t(j)
                                        : t.dir < 0 ? int32_t(chunkLength - 1 - j)
                                                    : 0);
                    }
                    step = ctx.steps.intern(std::move(shape));
                }
                part.push_back(step);
                out.alias.push_back(uint32_t(before + rep * block.size() + b));
                out.xorAt.push_back(k);
            }
        }
    }
    startAt[formSize] = out.alias.size();

    // Each input scale's positions in the target form.
    out.inputForms.assign(inputCount, {});
    out.counts.assign(inputCount, 0);
    for (size_t k = 0; k < scales.size(); ++k) {
        const ScaleRuns& s = runs[k];
        const uint32_t n = scales[k].scale->ranks;
        ScaleForm sf;
        for (size_t q = 0; q < formSize; ++q) {
            const ElementRule& rule = rules[q];
            const size_t blockLength = blockTokens[ref.blocksOfForm[q]].size();
            const uint64_t m = s.lengths[q];
            const uint64_t L = rule.varies ? *rule.f->value(n) : 1;
            for (uint64_t c = 0; c < m; ++c) {
                uint64_t to = c;
                if (rule.varies && rule.xorRun) {
                    const uint64_t chunk = c / L, j = c % L;
                    to = chunk * unitAt[q] + (rule.dir[chunk] >= 0 ? j : j + unitAt[q] - L);
                }
                for (size_t b = 0; b < blockLength; ++b)
                    sf.toFull.push_back(uint32_t(startAt[q] + to * blockLength + b));
            }
            if (q + 1 == s.prefix) sf.prefix = sf.toFull.size();
            if (q + 1 == s.prefix + s.body) sf.body = sf.toFull.size() - sf.prefix;
        }
        out.inputForms[scales[k].index] = std::move(sf);
        out.counts[scales[k].index] = s.count;
    }
    std::vector<std::pair<std::string, size_t>> notes; // and how many runs follow each
    for (size_t q = 0; q < formSize; ++q) {
        const ElementRule& rule = rules[q];
        if (!rule.varies) continue;
        const uint32_t step = stepOfToken.at(blockTokens[ref.blocksOfForm[q]].front());
        std::string text = "a run at " + siteOf(ctx, step) + " repeats " +
                           (rule.c == 1 ? std::string() : std::to_string(rule.c) + " x ") +
                           rule.f->name + " times (" + std::to_string(lengthAt[q]) + " at " +
                           std::to_string(target) + " ranks)";
        if (rule.xorRun) text += ", with partners r XOR 2^j";
        if (rule.xorRun) {
            const auto f = size_t(rule.f - scaleFunctions().data());
            if (std::find(out.xorRunFunctions.begin(), out.xorRunFunctions.end(), f) ==
                out.xorRunFunctions.end())
                out.xorRunFunctions.push_back(f);
        }
        // One note per rule: a loop body holds the same run many times.
        const auto same = std::find_if(notes.begin(), notes.end(),
                                       [&](const auto& n) { return n.first == text; });
        if (same == notes.end())
            notes.emplace_back(std::move(text), 1);
        else
            ++same->second;
    }
    for (auto& [text, many] : notes)
        out.notes.push_back(many == 1 ? std::move(text)
                                      : std::move(text) + " (" + std::to_string(many) + " runs)");
    return out;
}

} // namespace rankscope::extrap::synth
