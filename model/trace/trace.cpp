#include "model/trace/trace.h"

#include <algorithm>

namespace rankscope {

uint64_t Trace::eventCount() const
{
    uint64_t n = metricRecords_;
    for (const auto& s : streams_)
        n += s.size();
    return n;
}

size_t Trace::eventMemoryBytes() const
{
    size_t bytes = 0;
    for (const auto& s : streams_)
        bytes += s.memoryBytes();
    bytes += messages_.capacity() * sizeof(Message);
    bytes += messageContention_.capacity() * sizeof(int64_t);
    bytes += collectives_.capacity() * sizeof(CollectiveInstance);
    bytes += members_.capacity() * sizeof(CollectiveMember);
    bytes += misc_.capacity() * sizeof(MiscEvent);
    for (const auto& c : metricColumns_)
        bytes += sizeof(MetricColumn) + c.times.capacity() * 8 + c.raw.capacity() * 8;
    return bytes;
}

size_t Trace::memoryBytes() const
{
    size_t bytes = eventMemoryBytes() + strings_.memoryBytes();
    bytes += regions_.capacity() * sizeof(Region) + locations_.capacity() * sizeof(Location);
    for (const auto& r : ranks_)
        bytes += sizeof(Rank) + r.locations.capacity() * sizeof(LocationId);
    for (const auto& c : comms_)
        bytes += sizeof(Communicator) + c.members.capacity() * sizeof(RankId);
    bytes += streams_.capacity() * sizeof(EventStream);
    return bytes;
}

const MetricColumn* Trace::metricColumn(LocationId loc, MetricId metric) const
{
    const auto it =
        std::lower_bound(metricColumns_.begin(), metricColumns_.end(), std::pair(loc, metric),
                         [](const MetricColumn& c, const auto& key) {
                             return std::pair(c.location, c.metric) < key;
                         });
    return it != metricColumns_.end() && it->location == loc && it->metric == metric ? &*it
                                                                                     : nullptr;
}

void Trace::setTimes(const std::vector<std::vector<int64_t>>& eventTimes,
                     const std::vector<std::vector<int64_t>>& metricTimes)
{
    bool any = false;
    const auto extend = [&](int64_t first, int64_t last) {
        begin_ = any ? std::min(begin_, first) : first;
        end_ = any ? std::max(end_, last) : last;
        any = true;
    };
    for (size_t l = 0; l < streams_.size() && l < eventTimes.size(); ++l) {
        streams_[l].setTimes(eventTimes[l]);
        if (!eventTimes[l].empty()) extend(eventTimes[l].front(), eventTimes[l].back());
    }
    for (size_t k = 0; k < metricColumns_.size() && k < metricTimes.size(); ++k) {
        metricColumns_[k].times = metricTimes[k];
        if (!metricTimes[k].empty()) extend(metricTimes[k].front(), metricTimes[k].back());
    }
}

bool Trace::sameContent(const Trace& o) const
{
    // Strings are compared by value: two traces may intern them in different orders.
    auto sameStr = [&](StringId a, StringId b) { return str(a) == o.str(b); };
    if (regions_.size() != o.regions_.size() || ranks_.size() != o.ranks_.size() ||
        locations_.size() != o.locations_.size() || comms_.size() != o.comms_.size())
        return false;
    for (size_t i = 0; i < regions_.size(); ++i) {
        const Region &a = regions_[i], &b = o.regions_[i];
        if (!sameStr(a.name, b.name) || a.role != b.role || a.paradigm != b.paradigm ||
            !sameStr(a.file, b.file) || a.line != b.line)
            return false;
    }
    for (size_t i = 0; i < ranks_.size(); ++i)
        if (!sameStr(ranks_[i].name, o.ranks_[i].name) ||
            ranks_[i].mainLocation != o.ranks_[i].mainLocation ||
            ranks_[i].locations != o.ranks_[i].locations)
            return false;
    for (size_t i = 0; i < locations_.size(); ++i)
        if (!sameStr(locations_[i].name, o.locations_[i].name) ||
            locations_[i].type != o.locations_[i].type ||
            locations_[i].rank != o.locations_[i].rank)
            return false;
    for (size_t i = 0; i < comms_.size(); ++i)
        if (!sameStr(comms_[i].name, o.comms_[i].name) || comms_[i].members != o.comms_[i].members)
            return false;
    if (world_ != o.world_ || clock_.offsetNs != o.clock_.offsetNs) return false;
    if (streams_.size() != o.streams_.size() || messages_ != o.messages_ ||
        messageContention_ != o.messageContention_ || collectives_ != o.collectives_ ||
        members_ != o.members_ || misc_.size() != o.misc_.size())
        return false;
    if (metricRecords_ != o.metricRecords_ || metricColumns_ != o.metricColumns_ ||
        metrics_.size() != o.metrics_.size())
        return false;
    for (size_t i = 0; i < metrics_.size(); ++i) {
        const Metric &a = metrics_[i], &b = o.metrics_[i];
        if (!sameStr(a.name, b.name) || !sameStr(a.unit, b.unit) || a.mode != b.mode ||
            a.type != b.type)
            return false;
    }
    for (size_t i = 0; i < misc_.size(); ++i) {
        const MiscEvent &a = misc_[i], &b = o.misc_[i];
        const bool named = a.kind == MiscKind::ProgramBegin || a.kind == MiscKind::Other;
        if (a.kind != b.kind || a.value != b.value ||
            (named ? !sameStr(StringId(a.detail), StringId(b.detail)) : a.detail != b.detail))
            return false;
    }
    for (size_t i = 0; i < streams_.size(); ++i) {
        const EventStream &a = streams_[i], &b = o.streams_[i];
        if (a.size() != b.size() || a.sourceLocations().size() != b.sourceLocations().size())
            return false;
        for (size_t e = 0; e < a.size(); ++e)
            if (a.time(e) != b.time(e) || a.kind(e) != b.kind(e) || a.ref(e) != b.ref(e))
                return false;
        for (size_t k = 0; k < a.sourceLocations().size(); ++k) {
            const auto &x = a.sourceLocations()[k], &y = b.sourceLocations()[k];
            if (x.first != y.first || !sameStr(x.second.file, y.second.file) ||
                x.second.line != y.second.line)
                return false;
        }
    }
    return true;
}

} // namespace rankscope
