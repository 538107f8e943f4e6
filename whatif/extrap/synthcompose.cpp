#include "whatif/extrap/synthcompose.h"

#include "whatif/extrap/synthalign.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <tuple>

namespace rankscope::extrap::synth {

namespace {

using Coords = ProcessGrid::Coords;

bool pointToPoint(EventKind k)
{
    switch (k) {
    case EventKind::MpiSend:
    case EventKind::MpiIsend:
    case EventKind::MpiIsendComplete:
    case EventKind::MpiIrecvRequest:
    case EventKind::MpiRecv:
    case EventKind::MpiIrecv:
    case EventKind::MpiRequestTest:
    case EventKind::MpiRequestCancelled:
        return true;
    default:
        return false;
    }
}

/// The message of event i, or nullptr.
const Message* messageOf(const Trace& t, const EventStream& ev, uint32_t i)
{
    if (!pointToPoint(ev.kind(i)) || ev.ref(i) >= t.messages().size()) return nullptr;
    return &t.message(MessageId(ev.ref(i)));
}

/// Alignment keys: per event its call path (the regions entered, by name, so inputs compare)
/// with the MPI call kind and tag or the collective operation, so that only events at the same
/// place in the program align.
std::vector<uint64_t> keysOf(const Trace& t, const EventStream& ev)
{
    const auto mix = [](uint64_t h, uint64_t v) {
        return (h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2))) * 0xff51afd7ed558ccdull;
    };
    std::vector<uint64_t> keys(ev.size());
    std::vector<uint64_t> path{0};
    for (uint32_t i = 0; i < ev.size(); ++i) {
        const EventKind k = ev.kind(i);
        if (k == EventKind::Enter) {
            const auto name = t.str(t.region(RegionId(ev.ref(i))).name);
            path.push_back(mix(path.back(), std::hash<std::string_view>{}(name)));
            keys[i] = mix(path.back(), uint64_t(k));
            continue;
        }
        if (k == EventKind::Leave) {
            keys[i] = mix(path.back(), uint64_t(k));
            if (path.size() > 1) path.pop_back();
            continue;
        }
        uint64_t value = 0;
        if (const Message* m = messageOf(t, ev, i))
            value = uint32_t(m->tag);
        else if (k == EventKind::MpiCollectiveEnd && ev.ref(i) < t.collectives().size())
            value = uint64_t(t.collective(CollectiveId(ev.ref(i))).op);
        keys[i] = mix(mix(path.back(), uint64_t(k)), value);
    }
    return keys;
}

uint32_t rankAt(const std::vector<uint32_t>& dims, const Coords& c)
{
    return uint32_t(ProcessGrid(dims).neighbour(0, c));
}

Coords modulo(Coords c, const std::vector<uint32_t>& dims)
{
    for (size_t d = 0; d < dims.size(); ++d)
        c[d] %= int64_t(dims[d]);
    return c;
}

const EventStream& streamOf(const GridInput& in, uint32_t rank)
{
    return in.trace->events(in.trace->rank(RankId(rank)).mainLocation);
}

/// The transposition of one rank's events between dimensions e and d: each event travelling
/// along one of them mapped to the event at the same occurrence along the other, with the
/// mapped tag, and the regions wrapping calls of one of the two dimensions only mapped with
/// them. `tags` maps tags of e to those of d and back.
struct Transposition
{
    std::vector<int64_t> to; ///< per event, its image (itself where nothing maps)
    std::map<int32_t, int32_t> tags;
    bool ok = true;
};

Transposition transposition(const GridInput& in, uint32_t rank, uint32_t e, uint32_t d,
                            const std::vector<uint64_t>& keys)
{
    Transposition out;
    const Trace& t = *in.trace;
    const EventStream& ev = streamOf(in, rank);
    out.to.resize(ev.size());
    std::iota(out.to.begin(), out.to.end(), int64_t(0));
    if (e == d) return out;
    std::map<int32_t, std::vector<uint32_t>> along[2]; // tag -> positions, for e and d
    for (uint32_t i = 0; i < ev.size(); ++i)
        if (const Message* m = messageOf(t, ev, i)) {
            const int dim = in.travelDim(ev.ref(i));
            if (dim == int(e)) along[0][m->tag].push_back(i);
            if (dim == int(d)) along[1][m->tag].push_back(i);
        }
    if (along[0].size() != along[1].size()) {
        out.ok = false;
        return out;
    }
    for (auto a = along[0].begin(), b = along[1].begin(); a != along[0].end(); ++a, ++b) {
        if (a->second.size() != b->second.size()) {
            out.ok = false;
            return out;
        }
        out.tags[a->first] = b->first;
        out.tags[b->first] = a->first;
        for (size_t k = 0; k < a->second.size(); ++k) {
            out.to[a->second[k]] = b->second[k];
            out.to[b->second[k]] = a->second[k];
        }
    }
    // Regions whose calls all travel along e (or all along d) map onto the region of the
    // image of their first call, element by element, when it has the same length and keys.
    std::vector<uint32_t> open, parent(ev.size(), UINT32_MAX), mask(ev.size(), 0);
    std::vector<uint32_t> first(ev.size(), UINT32_MAX), close(ev.size(), 0);
    for (uint32_t i = 0; i < ev.size(); ++i) {
        if (!open.empty()) parent[i] = open.back();
        if (ev.kind(i) == EventKind::Enter) {
            open.push_back(i);
        } else if (ev.kind(i) == EventKind::Leave && !open.empty()) {
            const uint32_t s = open.back();
            open.pop_back();
            close[s] = i;
            if (!open.empty()) {
                mask[open.back()] |= mask[s];
                if (first[open.back()] == UINT32_MAX) first[open.back()] = first[s];
            }
        } else if (messageOf(t, ev, i) && !open.empty()) {
            const int dim = in.travelDim(ev.ref(i));
            mask[open.back()] |= dim < 0 ? 0x80u : (1u << dim);
            if (first[open.back()] == UINT32_MAX) first[open.back()] = i;
        }
    }
    for (uint32_t s = 0; s < ev.size(); ++s) {
        if (ev.kind(s) != EventKind::Enter || close[s] <= s) continue;
        if (mask[s] != (1u << e) && mask[s] != (1u << d)) continue;
        const int64_t image = out.to[first[s]];
        uint32_t q = parent[uint32_t(image)];
        const uint32_t len = close[s] - s;
        while (q != UINT32_MAX && !(keys[q] == keys[s] && close[q] - q == len))
            q = parent[q];
        if (q == UINT32_MAX) continue;
        for (uint32_t k = 0; k <= len; ++k)
            if (!messageOf(t, ev, s + k) && keys[s + k] == keys[q + k]) out.to[s + k] = q + k;
    }
    return out;
}

/// The position from `gap` on, past the base's own inserted calls (not kept from the aligned
/// rank) of dimensions the program visits no later than `visit`: whole regions at a time, each
/// taken as travelling along the dimension of its first message.
size_t skipEarlier(const GridInput& in, const EventStream& ev, const std::vector<bool>& kept,
                   size_t gap, const std::vector<int>& order, int visit)
{
    while (gap < ev.size() && !kept[gap] && ev.kind(uint32_t(gap)) != EventKind::Leave) {
        size_t end = gap + 1;
        int dim = -1;
        if (messageOf(*in.trace, ev, uint32_t(gap))) dim = in.travelDim(ev.ref(uint32_t(gap)));
        if (ev.kind(uint32_t(gap)) == EventKind::Enter) {
            int depth = 1;
            for (; end < ev.size() && depth > 0; ++end) {
                if (kept[end]) return gap;
                const EventKind k = ev.kind(uint32_t(end));
                depth += k == EventKind::Enter ? 1 : k == EventKind::Leave ? -1 : 0;
                if (dim < 0 && messageOf(*in.trace, ev, uint32_t(end)))
                    dim = in.travelDim(ev.ref(uint32_t(end)));
            }
            if (depth > 0) return gap;
        }
        if (dim >= 0 && order[size_t(dim)] > visit) break;
        gap = end;
    }
    return gap;
}

} // namespace

std::vector<GrownDim> grownDimensions(const std::vector<GridInput>& inputs, size_t base,
                                      const std::vector<uint32_t>& target)
{
    std::vector<GrownDim> out;
    const std::vector<uint32_t>& s = inputs[base].dims;
    for (uint32_t d = 0; d < target.size(); ++d) {
        if (target[d] <= s[d]) continue;
        bool found = false;
        for (size_t b = inputs.size(); b-- > 0 && !found;)
            for (size_t a = b; a-- > 0 && !found;) {
                const auto& da = inputs[a].dims;
                const auto& db = inputs[b].dims;
                if (da.size() != db.size()) continue;
                for (uint32_t e = 0; e < da.size() && !found; ++e) {
                    bool rest = da[e] == s[d] && db[e] == target[d];
                    for (size_t f = 0; f < da.size() && rest; ++f)
                        rest = f == e || da[f] == db[f];
                    if (rest) {
                        out.push_back({d, a, b, e});
                        found = true;
                    }
                }
            }
    }
    return out;
}

uint32_t baseRankOf(const GridInput& base, const ProcessGrid& target, uint32_t rank)
{
    return rankAt(base.dims, modulo(target.coords(rank), base.dims));
}

std::vector<DraftEvent> composeRank(const std::vector<GridInput>& inputs, size_t base,
                                    const std::vector<GrownDim>& grown, const SizeRule& sizes,
                                    const ProcessGrid& target, uint32_t rank, std::string& why,
                                    ComposeCache* cache)
{
    if (cache) {
        // The input ranks this rank is made of: the base rank and, per grown dimension, the
        // ranks its edit comes from.
        const Coords tc = target.coords(rank);
        const GridInput& S = inputs[base];
        std::vector<uint32_t> key{rankAt(S.dims, modulo(tc, S.dims))};
        for (const GrownDim& gd : grown) {
            const GridInput& B = inputs[gd.large];
            Coords c = modulo(tc, B.dims);
            c[gd.donor] = tc[gd.dim];
            if (gd.dim != gd.donor) c[gd.dim] = tc[gd.donor] % int64_t(B.dims[gd.dim]);
            key.push_back(rankAt(B.dims, c));
        }
        const auto it = cache->find(key);
        if (it != cache->end()) return it->second;
        std::vector<DraftEvent> out = composeRank(inputs, base, grown, sizes, target, rank, why);
        if (why.empty()) cache->emplace(std::move(key), out);
        return out;
    }
    const GridInput& S = inputs[base];
    const Coords tc = target.coords(rank);
    const Coords bc = modulo(tc, S.dims);
    const uint32_t b = rankAt(S.dims, bc);
    const EventStream& bev = streamOf(S, b);
    const LocationId bloc = S.trace->rank(RankId(b)).mainLocation;
    std::vector<DraftEvent> out;

    std::vector<DraftEvent> events(bev.size());
    for (uint32_t i = 0; i < bev.size(); ++i) {
        DraftEvent& x = events[i];
        x.input = uint16_t(base);
        x.location = bloc.value;
        x.event = i;
        if (const Message* m = messageOf(*S.trace, bev, i)) {
            x.tag = m->tag;
            x.offset = S.offsets[bev.ref(i)];
            const int dim = S.travelDim(bev.ref(i));
            x.bytesFactor =
                sizes.factor(S.sites[bev.ref(i)], S.dims, dim, dim, S.levels[bev.ref(i)]);
        }
    }
    if (grown.empty()) return events;

    const std::vector<int> order = dimensionOrder(S);
    const std::vector<uint64_t> bkeys = keysOf(*S.trace, bev);
    std::vector<bool> deleted(bev.size(), false);
    struct Insertion
    {
        size_t gap;
        int order;
        size_t grownIndex;
        std::vector<DraftEvent> events;
    };
    std::vector<Insertion> insertions;

    for (size_t g = 0; g < grown.size(); ++g) {
        const GrownDim& gd = grown[g];
        const GridInput& A = inputs[gd.small];
        const GridInput& B = inputs[gd.large];
        const uint32_t d = gd.dim, e = gd.donor;
        // B's rank holding the target's coordinate along d in dimension e (and, when the
        // dimensions differ, the target's coordinate along e in dimension d).
        Coords c = modulo(tc, B.dims);
        c[e] = tc[d];
        if (d != e) c[d] = tc[e] % int64_t(B.dims[d]);
        const uint32_t bp = rankAt(B.dims, c);
        const uint32_t ap = rankAt(A.dims, modulo(c, A.dims));
        const uint32_t a = rankAt(A.dims, modulo(bc, A.dims));
        const EventStream& apev = streamOf(A, ap);
        const EventStream& bpev = streamOf(B, bp);
        const std::vector<uint64_t> apkeys = keysOf(*A.trace, apev);
        const std::vector<uint64_t> bpkeys = keysOf(*B.trace, bpev);
        const std::vector<int64_t> edit = alignSequences(apkeys, bpkeys);
        std::vector<int64_t> toA;
        if (ap == a) {
            toA.resize(apkeys.size());
            std::iota(toA.begin(), toA.end(), int64_t(0));
        } else {
            toA = alignSequences(apkeys, keysOf(*A.trace, streamOf(A, a)));
        }
        const std::vector<int64_t> toB = alignSequences(keysOf(*A.trace, streamOf(A, a)), bkeys);
        std::vector<bool> bKept(bev.size(), false);
        for (const int64_t k : toB)
            if (k >= 0) bKept[size_t(k)] = true;
        const auto inBase = [&](int64_t i) -> int64_t {
            if (i < 0 || toA[size_t(i)] < 0) return -1;
            return toB[size_t(toA[size_t(i)])];
        };
        const Transposition pi = transposition(A, ap, e, d, apkeys);
        if (!pi.ok) {
            why = "the calls along dimensions " + std::to_string(e) + " and " + std::to_string(d) +
                  " of the " + std::to_string(A.trace->rankCount()) +
                  "-rank run do not correspond one to one";
            return out;
        }
        // Deleted calls and changed offsets.
        for (uint32_t i = 0; i < apkeys.size(); ++i) {
            const Message* m = messageOf(*A.trace, apev, i);
            if (edit[i] >= 0 && !m) continue;
            if (edit[i] >= 0) {
                const Message* n = messageOf(*B.trace, bpev, uint32_t(edit[i]));
                const int64_t before = A.offsets[apev.ref(i)][e];
                const int64_t after = n ? B.offsets[bpev.ref(uint32_t(edit[i]))][e] : before;
                if (before == after) continue;
                if (const int64_t k = inBase(pi.to[i]); k >= 0) events[size_t(k)].offset[d] = after;
                continue;
            }
            // A call the base rank does not have is gone already (the base input's own
            // dimensions delete it too) or is a routine called a data-dependent number of
            // times; whether the result is consistent is checked once all ranks are composed.
            if (const int64_t k = inBase(pi.to[i]); k >= 0) deleted[size_t(k)] = true;
        }
        // Inserted calls, in runs between kept ones.
        std::vector<int64_t> fromA(bpkeys.size(), -1);
        for (uint32_t i = 0; i < edit.size(); ++i)
            if (edit[i] >= 0) fromA[size_t(edit[i])] = i;
        size_t j = 0;
        int64_t lastA = -1;
        while (j < bpkeys.size()) {
            if (fromA[j] >= 0) {
                lastA = fromA[j++];
                continue;
            }
            Insertion ins;
            ins.order = order[d];
            ins.grownIndex = g;
            for (; j < bpkeys.size() && fromA[j] < 0; ++j) {
                DraftEvent x;
                x.input = uint16_t(gd.large);
                x.copy = uint8_t(1 + g);
                x.location = B.trace->rank(RankId(bp)).mainLocation.value;
                x.event = uint32_t(j);
                if (const Message* m = messageOf(*B.trace, bpev, uint32_t(j))) {
                    const uint32_t id = bpev.ref(uint32_t(j));
                    const int from = B.travelDim(id);
                    int to = from;
                    x.offset = B.offsets[id];
                    x.tag = m->tag;
                    if (d != e) {
                        std::swap(x.offset[d], x.offset[e]);
                        to = from == int(e) ? int(d) : from == int(d) ? int(e) : from;
                        if (to != from) {
                            const auto it = pi.tags.find(m->tag);
                            if (it != pi.tags.end()) x.tag = it->second;
                        }
                    }
                    x.bytesFactor = sizes.factor(B.sites[id], B.dims, from, to, B.levels[id]);
                }
                ins.events.push_back(x);
            }
            // The gap: after the base image of the last kept call before the run, before the
            // base's own inserted calls of dimensions the program visits later.
            int64_t prev = -1;
            for (int64_t i = lastA; i >= 0 && prev < 0; --i)
                prev = inBase(i);
            ins.gap = skipEarlier(S, bev, bKept, size_t(prev + 1), order, order[d]);
            insertions.push_back(std::move(ins));
        }
    }

    std::stable_sort(insertions.begin(), insertions.end(), [](const auto& x, const auto& y) {
        return std::tie(x.gap, x.order, x.grownIndex) < std::tie(y.gap, y.order, y.grownIndex);
    });
    out.reserve(events.size());
    size_t next = 0;
    for (size_t k = 0; k <= events.size(); ++k) {
        for (; next < insertions.size() && insertions[next].gap == k; ++next)
            out.insert(out.end(), insertions[next].events.begin(), insertions[next].events.end());
        if (k < events.size() && !deleted[k]) out.push_back(events[k]);
    }
    // Regions must still nest.
    std::vector<uint64_t> open;
    for (const DraftEvent& x : out) {
        const Trace& t = *inputs[x.input].trace;
        const EventStream& ev = t.events(LocationId(x.location));
        const EventKind k = ev.kind(x.event);
        if (k != EventKind::Enter && k != EventKind::Leave) continue;
        const std::string_view name = t.str(t.region(RegionId(ev.ref(x.event))).name);
        const uint64_t h = std::hash<std::string_view>{}(name);
        if (k == EventKind::Enter) {
            open.push_back(h);
        } else if (open.empty() || open.back() != h) {
            why = "the composed calls of rank " + std::to_string(rank) + " leave region '" +
                  std::string(name) + "' out of order";
            out.clear();
            return out;
        } else {
            open.pop_back();
        }
    }
    return out;
}

} // namespace rankscope::extrap::synth
