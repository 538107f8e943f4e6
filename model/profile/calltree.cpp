#include "model/profile/calltree.h"

#include "model/trace/trace.h"

#include <algorithm>
#include <unordered_map>

// Design note: one forward pass per rank with a stack of open instances. Nodes are shared by all
// ranks and found by (parent node, region) in a hash map, with the last child each node
// resolved to tried first (loops re-enter the same callee). A rank's figures are summed in a
// flat array and copied into the nodes' per-rank columns when the rank is done, so the hot loop
// touches one small array. Memory: nodes x ranks x 24 bytes plus the stack.

namespace rankscope {

namespace {

struct Frame
{
    uint32_t node;
    int64_t enter;
    int64_t childTime; // time in child instances
};

struct RankFigures
{
    uint64_t visits = 0;
    int64_t inclusive = 0;
    int64_t exclusive = 0;
};

class TreeBuilder
{
public:
    TreeBuilder(const Trace& trace, CallTree& tree) : trace_(trace), tree_(tree) {}

    /// One rank's pass; false when `reporter` cancels (`done` events were read before).
    bool addRank(RankId rank, ProgressReporter& reporter, uint64_t done)
    {
        const EventStream& events = trace_.rankEvents(rank);
        const size_t n = events.size();
        figures_.assign(tree_.nodes.size(), RankFigures());
        stack_.clear();
        for (size_t i = 0; i < n; ++i) {
            const EventKind kind = events.kind(i);
            if (kind == EventKind::Enter) {
                const uint32_t parent = stack_.empty() ? kNoCallNode : stack_.back().node;
                const uint32_t node = child(parent, events.region(i));
                stack_.push_back({node, events.time(i), 0});
                ++figures_[node].visits;
            } else if (kind == EventKind::Leave) {
                const RegionId region = events.region(i);
                size_t k = stack_.size();
                while (k > 0 && tree_.nodes[stack_[k - 1].node].region != region)
                    --k;
                const int64_t t = events.time(i);
                while (k > 0 && stack_.size() >= k)
                    closeTop(t);
            }
            if (!reporter.update(done + i)) return false;
        }
        while (!stack_.empty())
            closeTop(events.time(n - 1));
        for (size_t node = 0; node < tree_.nodes.size(); ++node) {
            CallTreeNode& out = tree_.nodes[node];
            const RankFigures& f = figures_[node];
            out.visitsByRank[rank.value] = f.visits;
            out.inclusiveByRank[rank.value] = f.inclusive;
            out.exclusiveByRank[rank.value] = f.exclusive;
        }
        return true;
    }

private:
    uint32_t child(uint32_t parent, RegionId region)
    {
        uint32_t& cached = parent == kNoCallNode ? lastRoot_ : lastChild_[parent];
        if (cached != kNoCallNode && tree_.nodes[cached].region == region) return cached;
        const uint64_t key = (uint64_t(parent) << 32) | region.value;
        const auto [it, added] = index_.try_emplace(key, uint32_t(tree_.nodes.size()));
        if (added) {
            CallTreeNode node;
            node.region = region;
            node.parent = parent;
            const size_t ranks = trace_.rankCount();
            node.visitsByRank.assign(ranks, 0);
            node.inclusiveByRank.assign(ranks, 0);
            node.exclusiveByRank.assign(ranks, 0);
            tree_.nodes.push_back(std::move(node));
            lastChild_.push_back(kNoCallNode);
            figures_.emplace_back();
            if (parent == kNoCallNode)
                tree_.roots.push_back(it->second);
            else
                tree_.nodes[parent].children.push_back(it->second);
        }
        // Re-fetch: lastChild_ may have grown, moving `cached`.
        (parent == kNoCallNode ? lastRoot_ : lastChild_[parent]) = it->second;
        return it->second;
    }

    void closeTop(int64_t t)
    {
        const Frame f = stack_.back();
        stack_.pop_back();
        const int64_t d = t - f.enter;
        figures_[f.node].inclusive += d;
        figures_[f.node].exclusive += d - f.childTime;
        if (!stack_.empty()) stack_.back().childTime += d;
    }

    const Trace& trace_;
    CallTree& tree_;
    std::unordered_map<uint64_t, uint32_t> index_;
    std::vector<uint32_t> lastChild_; // per node
    uint32_t lastRoot_ = kNoCallNode;
    std::vector<RankFigures> figures_; // per node, the current rank's
    std::vector<Frame> stack_;
};

void finishNodes(CallTree& tree)
{
    for (CallTreeNode& node : tree.nodes) {
        for (size_t r = 0; r < node.visitsByRank.size(); ++r) {
            node.visits += node.visitsByRank[r];
            node.inclusive += node.inclusiveByRank[r];
            node.exclusive += node.exclusiveByRank[r];
        }
        node.inclusivePerRank = RankSpread::of(node.inclusiveByRank);
        node.exclusivePerRank = RankSpread::of(node.exclusiveByRank);
    }
    const auto byInclusive = [&tree](uint32_t a, uint32_t b) {
        return tree.nodes[a].inclusive > tree.nodes[b].inclusive;
    };
    for (CallTreeNode& node : tree.nodes)
        std::stable_sort(node.children.begin(), node.children.end(), byInclusive);
    std::stable_sort(tree.roots.begin(), tree.roots.end(), byInclusive);
}

} // namespace

std::string CallTree::path(const Trace& trace, uint32_t node) const
{
    std::vector<uint32_t> chain;
    for (uint32_t n = node; n != kNoCallNode && n < nodes.size(); n = nodes[n].parent)
        chain.push_back(n);
    std::string out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        if (!out.empty()) out += '>';
        out += trace.regionName(nodes[*it].region);
    }
    return out;
}

CallTree computeCallTree(const Trace& trace, const ProgressCallback& progress)
{
    CallTree tree;
    uint64_t total = 0;
    for (uint32_t r = 0; r < trace.rankCount(); ++r)
        total += trace.rankEvents(RankId(r)).size();
    ProgressReporter reporter(progress, total);
    TreeBuilder builder(trace, tree);
    uint64_t done = 0;
    for (uint32_t r = 0; r < trace.rankCount(); ++r) {
        if (!builder.addRank(RankId(r), reporter, done)) {
            tree.cancelled = true;
            break;
        }
        done += trace.rankEvents(RankId(r)).size();
    }
    if (!tree.cancelled) tree.cancelled = !reporter.report(total);
    finishNodes(tree);
    return tree;
}

} // namespace rankscope
