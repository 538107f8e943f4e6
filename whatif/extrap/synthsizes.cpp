#include "whatif/extrap/synthsizes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <tuple>

namespace rankscope::extrap::synth {

int GridInput::travelDim(uint32_t message) const
{
    int dim = -1;
    for (size_t d = 0; d < dims.size(); ++d)
        if (offsets[message][d] != 0) {
            if (dim >= 0) return -1;
            dim = int(d);
        }
    return dim;
}

std::vector<int> dimensionOrder(const GridInput& in)
{
    std::vector<int> order(ProcessGrid::kMaxDims, int(ProcessGrid::kMaxDims));
    int next = 0;
    const Trace& t = *in.trace;
    const EventStream& ev = t.events(t.rank(RankId(0)).mainLocation);
    for (uint32_t i = 0; i < ev.size() && next < int(in.dims.size()); ++i)
        if (isPointToPoint(ev.kind(i)) && ev.ref(i) < t.messages().size()) {
            const int dim = in.travelDim(ev.ref(i));
            if (dim >= 0 && order[size_t(dim)] == int(ProcessGrid::kMaxDims))
                order[size_t(dim)] = next++;
        }
    return order;
}

double SizeRule::factor(const std::string& site, const std::vector<uint32_t>& from, int fromDim,
                        int toDim, uint8_t level) const
{
    const auto face =
        std::lower_bound(faceSites.begin(), faceSites.end(), site,
                         [](const Face& f, const std::string& s) { return f.site < s; });
    if (fromDim >= 0 && toDim >= 0 && face != faceSites.end() && face->site == site) {
        const auto ghost = [&](const std::vector<double>& g) {
            return g.empty() ? 0.0 : g[std::min<size_t>(level, g.size() - 1)];
        };
        const auto extent = [&](uint32_t ranks, size_t f, int travel) {
            const bool before = order[f] < order[size_t(travel)];
            return 1.0 / double(ranks) + ghost(before ? face->ghostBefore : face->ghostAfter);
        };
        double r = 1.0;
        for (size_t k = 0; k < from.size(); ++k) {
            if (int(k) != fromDim) r /= extent(from[k], k, fromDim);
            if (int(k) != toDim) r *= extent(targetDims[k], k, toDim);
        }
        return r;
    }
    const auto it =
        std::lower_bound(powerLaw.begin(), powerLaw.end(), site,
                         [](const auto& p, const std::string& s) { return p.first < s; });
    if (it == powerLaw.end() || it->first != site) return 1.0;
    const double n = std::accumulate(from.begin(), from.end(), 1.0, std::multiplies<>());
    const double m =
        std::accumulate(targetDims.begin(), targetDims.end(), 1.0, std::multiplies<>());
    return std::pow(m / n, it->second);
}

namespace {

using SizedLevels = std::map<std::tuple<std::string, int, uint8_t>, uint64_t>;

/// A site that only one input shows (an exchange a program runs from some scale on: NPB MG's
/// comm3_ex, which hands a coarse level's data to ranks that hold none of it) has no pair of
/// inputs to learn its ghost shares from, and the other sites' shares cannot be taken as they
/// are: they depend on the order the program visits the dimensions, which such an exchange does
/// not follow. It is taken as a whole face (ghost cells on every side, as comm3_ex's give3_ex
/// sends whole planes) of the level whose face, sent by a face-rule site along the same
/// dimension at that input, is the largest not above its own size (a message of k planes or
/// fields of a level is k faces of it), with that level's ghost share: the larger of the two
/// the site learned (the other may be unobservable in the inputs). A site with no such face
/// keeps its size.
void borrowGhostShares(const std::vector<SizedLevels>& sized, std::vector<SizeRule::Face>& faces)
{
    std::map<std::string, std::vector<size_t>> seenAt;
    for (size_t k = 0; k < sized.size(); ++k)
        for (const auto& entry : sized[k]) {
            auto& at = seenAt[std::get<0>(entry.first)];
            if (at.empty() || at.back() != k) at.push_back(k);
        }
    std::map<std::string, const SizeRule::Face*> faceOf;
    for (const SizeRule::Face& f : faces)
        faceOf[f.site] = &f;
    std::vector<SizeRule::Face> borrowed;
    for (const auto& [site, at] : seenAt) {
        if (at.size() != 1 || faceOf.count(site) != 0) continue;
        const SizedLevels& in = sized[at.front()];
        std::vector<double> share; // per level of the site, -1 where no face was found
        for (const auto& [key, bytes] : in) {
            const auto& [s, q, level] = key;
            if (s != site || q < 0) continue;
            const SizeRule::Face* donor = nullptr;
            uint8_t donorLevel = 0;
            uint64_t best = 0;
            for (const auto& [dkey, dbytes] : in) {
                const auto& [ds, dq, dl] = dkey;
                const auto f = faceOf.find(ds);
                if (dq != q || dbytes > bytes || dbytes <= best || f == faceOf.end()) continue;
                donor = f->second;
                donorLevel = dl;
                best = dbytes;
            }
            if (donor == nullptr) continue;
            const auto learned = [&](const std::vector<double>& g) {
                return g.empty() ? 0.0 : g[std::min<size_t>(donorLevel, g.size() - 1)];
            };
            if (share.size() <= level) share.resize(level + 1, -1.0);
            share[level] =
                std::max({share[level], learned(donor->ghostBefore), learned(donor->ghostAfter)});
        }
        if (share.empty()) continue;
        for (size_t l = 0; l < share.size(); ++l)
            if (share[l] < 0) share[l] = l > 0 ? share[l - 1] : 0.0;
        borrowed.push_back(SizeRule::Face{site, share, share});
    }
    faces.insert(faces.end(), borrowed.begin(), borrowed.end());
    std::sort(faces.begin(), faces.end(),
              [](const SizeRule::Face& a, const SizeRule::Face& b) { return a.site < b.site; });
}

} // namespace

SizeRule sizeRule(const std::vector<GridInput>& inputs, const std::vector<uint32_t>& target)
{
    SizeRule out;
    out.targetDims = target;
    out.order = dimensionOrder(inputs.back());
    // Power law of the mean size in the rank count (log-log least squares over the inputs).
    std::map<std::string, std::vector<std::pair<double, double>>> points;
    for (size_t k = 0; k < inputs.size(); ++k) {
        const Trace& t = *inputs[k].trace;
        std::map<std::string, std::pair<double, uint64_t>> sum;
        for (uint32_t i = 0; i < t.messages().size(); ++i) {
            const std::string& site = inputs[k].sites[i];
            auto& s = sum[site];
            s.first += double(t.messages()[i].bytes);
            ++s.second;
        }
        for (const auto& [site, s] : sum)
            if (s.first > 0)
                points[site].push_back(
                    {std::log(double(t.rankCount())), std::log(s.first / double(s.second))});
    }
    for (const auto& [site, p] : points) {
        double b = 0;
        if (p.size() >= 2) {
            double mx = 0, my = 0, sxy = 0, sxx = 0;
            for (const auto& [x, y] : p) {
                mx += x / double(p.size());
                my += y / double(p.size());
            }
            for (const auto& [x, y] : p) {
                sxy += (x - mx) * (y - my);
                sxx += (x - mx) * (x - mx);
            }
            b = sxx > 0 ? std::clamp(sxy / sxx, -3.0, 3.0) : 0.0;
        }
        out.powerLaw.emplace_back(site, b);
    }
    // Size per call site, travel dimension and level at each input.
    std::vector<SizedLevels> sized(inputs.size());
    for (size_t k = 0; k < inputs.size(); ++k)
        for (uint32_t i = 0; i < inputs[k].trace->messages().size(); ++i) {
            auto& v = sized[k][{inputs[k].sites[i], inputs[k].travelDim(i), inputs[k].levels[i]}];
            v = std::max(v, inputs[k].trace->messages()[i].bytes);
        }
    // Ghost shares from pairs of inputs differing in one dimension f: a size along q changes by
    // r = (1/p + g) / (1/p' + g) when f goes from p to p' ranks.
    std::map<std::pair<std::string, uint8_t>, std::array<std::vector<double>, 2>> ghosts;
    for (size_t a = 0; a < inputs.size(); ++a)
        for (size_t b = a + 1; b < inputs.size(); ++b) {
            const auto& da = inputs[a].dims;
            const auto& db = inputs[b].dims;
            if (da.size() != db.size()) continue;
            int f = -1, differing = 0;
            for (size_t k = 0; k < da.size(); ++k)
                if (da[k] != db[k]) {
                    f = int(k);
                    ++differing;
                }
            if (differing != 1) continue;
            for (const auto& [key, big] : sized[b]) {
                const auto& [site, q, level] = key;
                const auto it = sized[a].find(key);
                if (q < 0 || q == f || it == sized[a].end() || big == 0) continue;
                const double r = double(it->second) / double(big);
                const double pa = 1.0 / double(da[size_t(f)]), pb = 1.0 / double(db[size_t(f)]);
                if (std::abs(r - 1.0) < 1e-9) continue;
                const double g = (pa - r * pb) / (r - 1.0);
                const bool before = out.order[size_t(f)] < out.order[size_t(q)];
                ghosts[{site, level}][before ? 0 : 1].push_back(std::max(0.0, g));
            }
        }
    const auto median = [](std::vector<double> v) {
        if (v.empty()) return 0.0;
        std::nth_element(v.begin(), v.begin() + int64_t(v.size() / 2), v.end());
        return v[v.size() / 2];
    };
    std::map<std::string, SizeRule::Face> faces;
    for (const auto& [key, g] : ghosts) {
        SizeRule::Face& face = faces[key.first];
        face.site = key.first;
        for (int side = 0; side < 2; ++side) {
            std::vector<double>& v = side == 0 ? face.ghostBefore : face.ghostAfter;
            if (v.size() <= key.second) v.resize(key.second + 1, -1.0);
            v[key.second] = median(g[size_t(side)]);
        }
    }
    for (auto& [site, face] : faces)
        for (std::vector<double>* v : {&face.ghostBefore, &face.ghostAfter})
            for (size_t l = 0; l < v->size(); ++l)
                if ((*v)[l] < 0) (*v)[l] = l > 0 ? (*v)[l - 1] : 0.0;
    // A site follows the face rule when it predicts the largest input's sizes from the second
    // largest input's within 5 % along every travel dimension both show (the largest size: the
    // finest level of a multigrid, whose coarse levels can merge sizes).
    if (inputs.size() >= 2) {
        const GridInput& p = inputs[inputs.size() - 2];
        const GridInput& s = inputs.back();
        std::map<std::string, int> verdict; // 1 fits so far, -1 does not
        for (const auto& [key, big] : sized.back()) {
            const auto& [site, q, level] = key;
            const auto it = sized[inputs.size() - 2].find(key);
            if (q < 0 || level > 0 || it == sized[inputs.size() - 2].end() ||
                p.dims.size() != s.dims.size())
                continue;
            SizeRule one;
            one.targetDims = s.dims;
            one.order = out.order;
            const auto f = faces.find(site);
            one.faceSites.push_back(f == faces.end() ? SizeRule::Face{site, {}, {}} : f->second);
            const double expect = double(it->second) * one.factor(site, p.dims, q, q, level);
            const bool fits = std::abs(expect - double(big)) <= 0.05 * double(big);
            int& v = verdict[site];
            v = (v == -1 || !fits) ? -1 : 1;
        }
        for (const auto& [site, v] : verdict)
            if (v == 1) {
                const auto f = faces.find(site);
                out.faceSites.push_back(f == faces.end() ? SizeRule::Face{site, {}, {}}
                                                         : f->second);
            }
    }
    borrowGhostShares(sized, out.faceSites);
    return out;
}

std::vector<uint8_t> sizeLevels(const GridInput& in)
{
    const auto& msgs = in.trace->messages();
    std::map<std::pair<std::string, int>, std::vector<uint64_t>> sizes;
    for (uint32_t i = 0; i < msgs.size(); ++i)
        sizes[{in.sites[i], in.travelDim(i)}].push_back(msgs[i].bytes);
    for (auto& [key, v] : sizes) {
        std::sort(v.begin(), v.end(), std::greater<>());
        v.erase(std::unique(v.begin(), v.end()), v.end());
    }
    std::vector<uint8_t> out(msgs.size());
    for (uint32_t i = 0; i < msgs.size(); ++i) {
        const auto& v = sizes[{in.sites[i], in.travelDim(i)}];
        const auto at = std::lower_bound(v.begin(), v.end(), msgs[i].bytes, std::greater<>());
        out[i] = uint8_t(std::min<int64_t>(15, at - v.begin()));
    }
    return out;
}

} // namespace rankscope::extrap::synth
