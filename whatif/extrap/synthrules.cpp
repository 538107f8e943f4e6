#include "whatif/extrap/synthrules.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace rankscope::extrap::synth {

namespace {

// Grid position of one coordinate: at the low edge, inside, at the high edge, or alone.
enum Position : uint32_t
{
    Low = 0,
    Inside = 1,
    High = 2,
    Alone = 3
};

uint32_t positionOf(int64_t c, uint32_t size)
{
    if (size == 1) return Alone;
    if (c == 0) return Low;
    return c + 1 == int64_t(size) ? High : Inside;
}

std::string signedText(int64_t k)
{
    return (k >= 0 ? "+" : "") + std::to_string(k);
}

} // namespace

std::vector<Placement> Placement::candidates()
{
    return {Placement(PlacementKind::Uniform), Placement(PlacementKind::Parity),
            Placement(PlacementKind::Ends)};
}

std::vector<uint32_t> Placement::dims(uint32_t n) const
{
    if (gridDims() == 0) return {};
    const std::vector<uint32_t> made = ProcessGrid::dimsCreate(n, uint32_t(gridDims()));
    std::vector<uint32_t> out;
    for (size_t d = 0; d < made.size(); ++d)
        out.push_back(made[order_[d] < made.size() ? order_[d] : d]);
    return out;
}

std::optional<ProcessGrid> Placement::grid(uint32_t n) const
{
    if (gridDims() == 0) return std::nullopt;
    return ProcessGrid(dims(n), periodic_);
}

uint32_t Placement::classOf(uint32_t r, uint32_t n, const ProcessGrid* grid) const
{
    if (rootApart_ && r == 0) return kRootClass;
    switch (kind_) {
    case PlacementKind::Uniform:
        return 0;
    case PlacementKind::Parity:
        return r % 2;
    case PlacementKind::Ends:
        if (n == 1) return 3;
        return r == 0 ? 0 : r + 1 == n ? 2 : 1;
    case PlacementKind::Grid2:
    case PlacementKind::Grid3: {
        const ProcessGrid::Coords c = grid->coords(r);
        uint32_t cls = 0;
        for (size_t d = grid->dims().size(); d-- > 0;) {
            const uint32_t size = grid->dims()[d];
            cls = cls * 4 + (grid->periodic(d) && size > 1 ? Inside : positionOf(c[d], size));
        }
        return cls;
    }
    }
    return 0;
}

std::string Placement::className(uint32_t cls) const
{
    if (cls == kRootClass) return "rank 0";
    switch (kind_) {
    case PlacementKind::Uniform:
        return "all ranks";
    case PlacementKind::Parity:
        return cls == 0 ? "even ranks" : "odd ranks";
    case PlacementKind::Ends: {
        static const char* names[] = {"first rank", "middle ranks", "last rank", "only rank"};
        return names[cls & 3];
    }
    case PlacementKind::Grid2:
    case PlacementKind::Grid3: {
        static const char* names[] = {"low", "inner", "high", "single"};
        std::string s = "grid ";
        for (int d = 0; d < gridDims(); ++d) {
            s += (d ? "/" : "") + std::string(names[cls & 3]);
            cls >>= 2;
        }
        return s;
    }
    }
    return {};
}

std::string Placement::describe(uint32_t n) const
{
    std::string s = describeRanks(n);
    return rootApart_ ? s + ", rank 0 apart" : s;
}

std::string Placement::describeRanks(uint32_t n) const
{
    switch (kind_) {
    case PlacementKind::Uniform:
        return "one role for all ranks";
    case PlacementKind::Parity:
        return "roles by rank parity";
    case PlacementKind::Ends:
        return "roles for the first, middle and last ranks";
    case PlacementKind::Grid2:
    case PlacementKind::Grid3: {
        std::string s = std::to_string(gridDims()) + "-D grid ";
        const auto d = dims(n);
        for (size_t i = 0; i < d.size(); ++i)
            s += (i ? " x " : "") + std::to_string(d[i]);
        if (periodic_ != 0) {
            s += ", periodic in dimension";
            std::string which;
            for (size_t i = 0; i < d.size(); ++i)
                if ((periodic_ >> i) & 1u)
                    which += (which.empty() ? " " : ", ") + std::to_string(i + 1);
            s += (periodic_ & (periodic_ - 1)) ? "s" + which : which;
        }
        return s;
    }
    }
    return {};
}

std::optional<uint32_t> RankRule::evaluate(uint32_t r, uint32_t n, const ProcessGrid* grid) const
{
    int64_t p = -1;
    switch (kind) {
    case RuleKind::Constant:
        p = k;
        break;
    case RuleKind::FromEnd:
        p = int64_t(n) - k;
        break;
    case RuleKind::Offset:
        p = int64_t(r) + k;
        break;
    case RuleKind::Modulo:
        p = ((int64_t(r) + k) % int64_t(n) + int64_t(n)) % int64_t(n);
        break;
    case RuleKind::Grid:
        if (!grid) return std::nullopt;
        p = grid->neighbour(r, offset);
        break;
    case RuleKind::Xor:
        p = int64_t(uint64_t(r) ^ uint64_t(k));
        break;
    case RuleKind::Transpose: {
        const auto t = transposeOf(r, n);
        if (!t) return std::nullopt;
        p = *t;
        break;
    }
    }
    if (p < 0 || p >= int64_t(n)) return std::nullopt;
    return uint32_t(p);
}

std::string RankRule::text() const
{
    switch (kind) {
    case RuleKind::Constant:
        return std::to_string(k);
    case RuleKind::FromEnd:
        return "n-" + std::to_string(k);
    case RuleKind::Offset:
        return "r" + signedText(k);
    case RuleKind::Modulo:
        return "(r" + signedText(k) + ") mod n";
    case RuleKind::Xor:
        return "r xor " + std::to_string(k);
    case RuleKind::Transpose:
        return "transpose(r)";
    case RuleKind::Grid: {
        std::string s = "grid(";
        for (size_t d = 0; d < offset.size(); ++d)
            s += (d ? "," : "") + signedText(offset[d]);
        return s + ")";
    }
    }
    return {};
}

std::vector<RankRule> rulesFor(uint32_t r, uint32_t p, uint32_t n, const ProcessGrid* grid)
{
    std::vector<RankRule> rules;
    const int64_t d = int64_t(p) - int64_t(r);
    if (grid) {
        const ProcessGrid::Coords a = grid->coords(r), b = grid->coords(p);
        // In a periodic dimension the neighbour may be reached either way round.
        std::vector<ProcessGrid::Coords> offsets{{0, 0, 0}};
        for (size_t i = 0; i < grid->dims().size(); ++i) {
            const int64_t diff = b[i] - a[i], size = grid->dims()[i];
            std::vector<int64_t> ways{diff};
            if (grid->periodic(i) && diff != 0)
                ways.push_back(diff > 0 ? diff - size : diff + size);
            std::vector<ProcessGrid::Coords> next;
            for (const ProcessGrid::Coords& o : offsets)
                for (const int64_t w : ways) {
                    ProcessGrid::Coords c = o;
                    c[i] = w;
                    next.push_back(c);
                }
            offsets = std::move(next);
        }
        // The shorter way round first.
        std::stable_sort(offsets.begin(), offsets.end(), [](const auto& x, const auto& y) {
            return std::abs(x[0]) + std::abs(x[1]) + std::abs(x[2]) <
                   std::abs(y[0]) + std::abs(y[1]) + std::abs(y[2]);
        });
        for (const ProcessGrid::Coords& o : offsets)
            rules.push_back({RuleKind::Grid, 0, o});
    }
    rules.push_back({RuleKind::Offset, d, {}});
    rules.push_back({RuleKind::Modulo, d, {}});
    if (d != 0) rules.push_back({RuleKind::Modulo, d > 0 ? d - int64_t(n) : d + int64_t(n), {}});
    const uint32_t x = r ^ p;
    if (x != 0 && (x & (x - 1)) == 0) rules.push_back({RuleKind::Xor, int64_t(x), {}});
    if (transposeOf(r, n) == p && r != p) rules.push_back({RuleKind::Transpose, 0, {}});
    rules.push_back({RuleKind::Constant, int64_t(p), {}});
    rules.push_back({RuleKind::FromEnd, int64_t(n) - int64_t(p), {}});
    if (transposeOf(r, n) == p && r == p) rules.push_back({RuleKind::Transpose, 0, {}});
    return rules;
}

std::optional<uint32_t> transposeOf(uint32_t r, uint32_t n)
{
    if (r >= n) return std::nullopt;
    for (uint32_t c = 1; c <= n; ++c) {
        if (n % c != 0) continue;
        const uint32_t sq = n / c;
        auto a = uint32_t(std::llround(std::sqrt(double(sq))));
        while (uint64_t(a) * a > sq)
            --a;
        while (uint64_t(a + 1) * (a + 1) <= sq)
            ++a;
        if (uint64_t(a) * a != sq) continue;
        if (a < 2) return std::nullopt;
        const uint32_t q = r / c, b = r % c, i = q / a, j = q % a;
        return (j * a + i) * c + b;
    }
    return std::nullopt;
}

} // namespace rankscope::extrap::synth
