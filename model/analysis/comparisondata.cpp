#include "model/analysis/comparisondata.h"

#include "model/analysis/runcomparison.h"
#include "model/deltas/deltascanner.h"
#include "model/matching/mpicallscanner.h"
#include "model/trace/callsiteresolver.h"
#include "model/trace/mpilifecycle.h"
#include "model/trace/trace.h"
#include "model/waits/waitstates.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>

namespace rankscope {

namespace {

/// A cell's reservoir may hold this many samples while its rank is scanned, whatever the budget.
constexpr size_t kMaxScanSamples = size_t(1) << 16;

/// splitmix64: small, fast and the same on every platform (std:: engines' distributions are not).
struct Random
{
    uint64_t state;
    uint64_t next()
    {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, n) (the modulo bias is below 2^-40 for the n used here).
    uint64_t below(uint64_t n) { return next() % n; }
};

uint64_t fnv1a(const std::string& s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char c : s)
        h = (h ^ c) * 0x100000001b3ull;
    return h;
}

/// The delta times of one interval on the rank being scanned.
struct RankCell
{
    uint32_t interval = 0; // run-local interval index
    uint64_t count = 0;
    double total = 0;
    double min = 0;
    double max = 0;
    std::vector<double> reservoir;
    Random random{0};

    void add(double x, size_t cap)
    {
        min = count == 0 ? x : std::min(min, x);
        max = count == 0 ? x : std::max(max, x);
        total += x;
        // Algorithm R: after t samples each one is in the reservoir with probability cap / t.
        if (reservoir.size() < cap) {
            reservoir.push_back(x);
        } else {
            const uint64_t j = random.below(count + 1);
            if (j < cap) reservoir[size_t(j)] = x;
        }
        ++count;
    }
    /// Keeps a uniform random subset of `keep` reservoir samples (a uniform subset of a uniform
    /// subset is uniform): a partial Fisher-Yates shuffle.
    void shrink(size_t keep)
    {
        if (reservoir.size() <= keep) return;
        for (size_t i = 0; i < keep; ++i)
            std::swap(reservoir[i], reservoir[i + size_t(random.below(reservoir.size() - i))]);
        reservoir.resize(keep);
    }
};

/// One run's walk: run-local interval indices, remapped to the union when both are done.
struct RunScan
{
    std::vector<std::string> names;                  // run-local index -> printed name
    std::unordered_map<std::string, uint32_t> index; // printed name -> run-local index
    ComparisonData::RunDeltas deltas;                // cells by run-local index
};

class Walker
{
public:
    Walker(const ProgressCallback& progress, uint64_t total) : reporter_(progress, total) {}

    /// False when cancelled.
    bool scan(const Trace& trace, size_t budget, RunScan& out)
    {
        const MpiLifecycle lifecycle = MpiLifecycle::of(trace);
        const size_t ranks = std::max<size_t>(1, trace.rankCount());
        const size_t perRank = std::max<size_t>(1, budget / ranks);
        const size_t scanCap =
            std::clamp(perRank, ComparisonData::kMinSamplesPerCell, kMaxScanSamples);
        for (uint32_t r = 0; r < trace.rankCount(); ++r) {
            if (!deltas(trace, RankId(r), lifecycle, perRank, scanCap, out)) return false;
        }
        return true;
    }
    bool finish() { return reporter_.report(done_); }

private:
    bool deltas(const Trace& trace, RankId rank, const MpiLifecycle& lifecycle, size_t perRank,
                size_t scanCap, RunScan& out)
    {
        CallSiteTable sites;
        CallSiteResolver resolver(trace, sites);
        DeltaScanner scanner(trace, rank, resolver, lifecycle);
        // Call-site ids are local to this rank: one hash lookup per delta, a name per new pair.
        std::unordered_map<uint64_t, uint32_t> local;
        std::vector<RankCell> cells;
        DeltaTime delta;
        while (scanner.next(delta)) {
            const uint64_t key = uint64_t(delta.from.value) << 32 | delta.to.value;
            auto it = local.find(key);
            if (it == local.end()) {
                std::string name(sites.name(delta.from));
                name += " - ";
                name += sites.name(delta.to);
                const auto [named, added] = out.index.try_emplace(name, uint32_t(out.names.size()));
                if (added) {
                    out.names.push_back(name);
                    out.deltas.cells.emplace_back();
                }
                RankCell cell;
                cell.interval = named->second;
                cell.random.state = fnv1a(name) ^ (uint64_t(rank.value) * 0x9E3779B97F4A7C15ull);
                it = local.emplace(key, uint32_t(cells.size())).first;
                cells.push_back(std::move(cell));
            }
            const double x = double(delta.delta());
            cells[it->second].add(x, scanCap);
            ++out.deltas.count;
            if (!reporter_.update(done_ + scanner.position())) return false;
        }
        done_ += scanner.eventCount();
        // The rank's share of the budget, split equally among its intervals.
        const size_t keep =
            std::min(scanCap, std::max(ComparisonData::kMinSamplesPerCell,
                                       perRank / std::max<size_t>(1, cells.size())));
        for (RankCell& c : cells) {
            c.shrink(keep);
            ComparisonData::Cell cell{
                rank.value,        c.count, c.total, c.min, c.max, out.deltas.samples.size(),
                c.reservoir.size()};
            out.deltas.samples.insert(out.deltas.samples.end(), c.reservoir.begin(),
                                      c.reservoir.end());
            out.deltas.cells[c.interval].push_back(cell); // ranks ascend: scanned in order
        }
        return true;
    }

    ProgressReporter reporter_;
    uint64_t done_ = 0;
};

uint64_t eventTotal(const Trace& trace)
{
    uint64_t total = 0;
    for (uint32_t r = 0; r < trace.rankCount(); ++r)
        total += trace.rankEvents(RankId(r)).size();
    return total;
}

/// Moves `scan`'s cells to the indices of `names` (the sorted union of both runs).
ComparisonData::RunDeltas remap(RunScan& scan, const std::map<std::string, uint32_t>& names)
{
    ComparisonData::RunDeltas out;
    out.cells.resize(names.size());
    out.samples = std::move(scan.deltas.samples);
    out.count = scan.deltas.count;
    for (size_t i = 0; i < scan.names.size(); ++i)
        out.cells[names.at(scan.names[i])] = std::move(scan.deltas.cells[i]);
    return out;
}

void selectCells(const ComparisonData::RunDeltas& run, int interval, int rank,
                 std::vector<const ComparisonData::Cell*>& out)
{
    const auto take = [&](const std::vector<ComparisonData::Cell>& cells) {
        if (rank < 0) {
            for (const ComparisonData::Cell& c : cells)
                out.push_back(&c);
            return;
        }
        const auto it =
            std::lower_bound(cells.begin(), cells.end(), uint32_t(rank),
                             [](const ComparisonData::Cell& c, uint32_t r) { return c.rank < r; });
        if (it != cells.end() && it->rank == uint32_t(rank)) out.push_back(&*it);
    };
    if (interval < 0) {
        for (const auto& cells : run.cells)
            take(cells);
    } else if (size_t(interval) < run.cells.size()) {
        take(run.cells[size_t(interval)]);
    }
}

/// The §2 histogram of cells some of which were sampled: each kept sample weighs
/// count / kept of its cell; count, mean, min and max are exact.
Histogram weightedHistogram(const ComparisonData::RunDeltas& run,
                            const std::vector<const ComparisonData::Cell*>& cells, int bins)
{
    Histogram h;
    double total = 0;
    bool first = true;
    for (const ComparisonData::Cell* c : cells) {
        if (c->count == 0) continue;
        h.count += c->count;
        total += c->totalNs;
        h.min = first ? c->minNs : std::min(h.min, c->minNs);
        h.max = first ? c->maxNs : std::max(h.max, c->maxNs);
        first = false;
    }
    if (h.count == 0) return h;
    h.mean = total / double(h.count);
    const double width = (h.max - h.min) / double(bins);
    h.bins.resize(size_t(bins));
    for (int k = 0; k < bins; ++k) {
        h.bins[size_t(k)].lower = h.min + width * k;
        h.bins[size_t(k)].upper = k + 1 == bins ? h.max : h.min + width * (k + 1);
    }
    std::vector<double> weight(size_t(bins), 0.0);
    std::vector<double> sums(size_t(bins), 0.0);
    double allWeight = 0;
    for (const ComparisonData::Cell* c : cells) {
        if (c->kept == 0) continue;
        const double w = double(c->count) / double(c->kept);
        for (size_t i = c->first; i < c->first + c->kept; ++i) {
            const double x = run.samples[i];
            size_t k = width > 0 ? size_t(std::max(0.0, (x - h.min) / width)) : 0;
            k = std::min(k, size_t(bins - 1));
            weight[k] += w;
            sums[k] += w * x;
            allWeight += w;
        }
    }
    for (size_t k = 0; k < h.bins.size(); ++k) {
        HistogramBin& b = h.bins[k];
        b.count = uint64_t(std::llround(weight[k]));
        b.frequency = allWeight > 0 ? weight[k] / allWeight : 0;
        b.mean = weight[k] > 0 ? sums[k] / weight[k] : (b.lower + b.upper) / 2;
    }
    fillQuantilesFromBins(h);
    return h;
}

} // namespace

std::optional<double> ComparisonData::Quantity::percent() const
{
    if (measuredNs == 0) return std::nullopt;
    return 100.0 * (predictedNs - measuredNs) / measuredNs;
}

std::shared_ptr<const ComparisonData>
buildComparisonData(const Trace& measured, const WaitStateAnalysis& measuredWaits,
                    const Trace& predicted, const WaitStateAnalysis& predictedWaits,
                    const ProgressCallback& progress, size_t sampleBudget)
{
    auto data = std::make_shared<ComparisonData>();
    data->measuredRanks = uint32_t(measured.rankCount());
    data->predictedRanks = uint32_t(predicted.rankCount());
    // One pass per rank for the delta times (the summary rows walk the traces again, without
    // progress: a pass over the MPI calls and one over the delta times of each).
    Walker walker(progress, eventTotal(measured) + eventTotal(predicted));
    RunScan m;
    RunScan p;
    data->cancelled = !walker.scan(measured, sampleBudget, m) ||
                      !walker.scan(predicted, sampleBudget, p) || !walker.finish();

    std::map<std::string, uint32_t> names;
    for (const RunScan* s : {&m, &p})
        for (const std::string& n : s->names)
            names.emplace(n, 0);
    uint32_t i = 0;
    for (auto& [name, index] : names) {
        index = i++;
        data->intervals.push_back(name);
    }
    data->measuredDeltas = remap(m, names);
    data->predictedDeltas = remap(p, names);

    // The rows are the core's (model/analysis/runcomparison.h), so `rankscope-cli compare` prints
    // the same figures: run time over the span from the end of MPI_Init to the end of MPI_Finalize.
    const std::vector<ComparisonRow> rows =
        comparisonRows(runFigures(measured, measuredWaits), runFigures(predicted, predictedWaits));
    for (const ComparisonRow& row : rows) {
        data->summary.push_back({row.name, row.a, row.b});
        static constexpr std::string_view kWait = "Wait: ";
        if (row.key.rfind("wait_", 0) == 0)
            data->waitTotals.push_back(
                {row.name.starts_with(kWait) ? row.name.substr(kWait.size()) : row.name,
                 {row.a, row.b}});
    }
    data->cancelled = data->cancelled || measuredWaits.cancelled || predictedWaits.cancelled;
    return data;
}

std::optional<Histogram> deltaHistogram(const ComparisonData::RunDeltas& run, uint32_t rankCount,
                                        int interval, int rank, int bins)
{
    if (rank >= 0 && uint32_t(rank) >= rankCount) return std::nullopt;
    bins = std::clamp(bins, 1, kMaxHistogramBins);
    std::vector<const ComparisonData::Cell*> cells;
    selectCells(run, interval, rank, cells);
    const bool whole = std::all_of(cells.begin(), cells.end(),
                                   [](const ComparisonData::Cell* c) { return c->whole(); });
    if (!whole) return weightedHistogram(run, cells, bins);
    std::vector<double> samples;
    size_t n = 0;
    for (const ComparisonData::Cell* c : cells)
        n += c->kept;
    samples.reserve(n);
    for (const ComparisonData::Cell* c : cells)
        samples.insert(samples.end(), run.samples.begin() + ptrdiff_t(c->first),
                       run.samples.begin() + ptrdiff_t(c->first + c->kept));
    return makeHistogram(samples, bins);
}

std::pair<std::optional<Histogram>, std::optional<Histogram>>
deltaHistograms(const ComparisonData& data, int interval, int rank, int bins)
{
    return {deltaHistogram(data.measuredDeltas, data.measuredRanks, interval, rank, bins),
            deltaHistogram(data.predictedDeltas, data.predictedRanks, interval, rank, bins)};
}

} // namespace rankscope
