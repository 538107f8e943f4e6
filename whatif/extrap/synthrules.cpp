#include "whatif/extrap/synthrules.h"

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
            Placement(PlacementKind::Ends), Placement(PlacementKind::Grid2),
            Placement(PlacementKind::Grid3)};
}

std::optional<ProcessGrid> Placement::grid(uint32_t n) const
{
    if (gridDims() == 0) return std::nullopt;
    return ProcessGrid(ProcessGrid::dimsCreate(n, uint32_t(gridDims())));
}

uint32_t Placement::classOf(uint32_t r, uint32_t n, const ProcessGrid* grid) const
{
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
        for (size_t d = grid->dims().size(); d-- > 0;)
            cls = cls * 4 + positionOf(c[d], grid->dims()[d]);
        return cls;
    }
    }
    return 0;
}

std::string Placement::className(uint32_t cls) const
{
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
        const auto dims = ProcessGrid::dimsCreate(n, uint32_t(gridDims()));
        for (size_t d = 0; d < dims.size(); ++d)
            s += (d ? " x " : "") + std::to_string(dims[d]);
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
        rules.push_back({RuleKind::Grid, 0, {b[0] - a[0], b[1] - a[1], b[2] - a[2]}});
    }
    rules.push_back({RuleKind::Offset, d, {}});
    rules.push_back({RuleKind::Modulo, d, {}});
    if (d != 0) rules.push_back({RuleKind::Modulo, d > 0 ? d - int64_t(n) : d + int64_t(n), {}});
    rules.push_back({RuleKind::Constant, int64_t(p), {}});
    rules.push_back({RuleKind::FromEnd, int64_t(n) - int64_t(p), {}});
    return rules;
}

} // namespace rankscope::extrap::synth
