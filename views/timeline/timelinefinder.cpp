#include "views/timeline/timelinefinder.h"

#include "model/trace/trace.h"

#include <QRegularExpression>

namespace rankscope {

namespace {

QString qstr(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

TimelineFinder::TimelineFinder(const Trace& trace, const QString& query)
    : trace_(trace), text_(query.trimmed())
{
    static const QRegularExpression rankPattern(QStringLiteral("^(?:rank\\s*|r)?(\\d+)$"),
                                                QRegularExpression::CaseInsensitiveOption);
    if (const QRegularExpressionMatch m = rankPattern.match(text_); m.hasMatch()) {
        bool ok = false;
        const uint32_t r = m.captured(1).toUInt(&ok);
        if (ok && r < trace.rankCount()) rank_ = RankId(r);
        return;
    }
    if (text_.isEmpty()) return;
    regions_.assign(trace.regions().size(), false);
    for (size_t i = 0; i < trace.regions().size(); ++i) {
        const QString name = qstr(trace.regionName(RegionId(uint32_t(i))));
        if (!name.contains(text_, Qt::CaseInsensitive)) continue;
        regions_[i] = true;
        if (regionCount_++ == 0) firstRegion_ = name;
    }
}

bool TimelineFinder::siteMatches(uint32_t file, uint32_t line) const
{
    const uint64_t key = (uint64_t(file) << 32) | line;
    const auto it = sites_.find(key);
    if (it != sites_.end()) return it->second;
    const QString site = QStringLiteral("%1:%2").arg(qstr(trace_.str(StringId(file)))).arg(line);
    const bool hit = line > 0 && site.contains(text_, Qt::CaseInsensitive);
    sites_.emplace(key, hit);
    return hit;
}

bool TimelineFinder::matches(RankId rank, size_t i) const
{
    const EventStream& events = trace_.rankEvents(rank);
    if (events.kind(i) != EventKind::Enter) return false;
    if (rank_) return trace_.region(events.region(i)).isMpi();
    if (regions_[events.region(i).value]) return true;
    const SourceLocation* where = events.sourceLocation(i);
    return where && siteMatches(where->file.value, where->line);
}

bool TimelineFinder::valid() const
{
    if (!valid_) valid_ = findsAnything();
    return *valid_;
}

bool TimelineFinder::findsAnything() const
{
    if (rank_) return true;
    if (regions_.empty()) return false; // empty text, or a rank that does not exist
    if (regionCount_ > 0) return true;
    // A call site: any source location of the trace that matches.
    for (uint32_t r = 0; r < trace_.rankCount(); ++r)
        for (const auto& [event, where] : trace_.rankEvents(RankId(r)).sourceLocations())
            if (siteMatches(where.file.value, where.line)) return true;
    return false;
}

QString TimelineFinder::description() const
{
    if (rank_) return QObject::tr("MPI calls of rank %1").arg(rank_->value);
    if (!valid()) {
        static const QRegularExpression digits(QStringLiteral("\\d+$"));
        return text_.contains(digits) && text_.size() < 12 && text_.at(0).isDigit()
                   ? QObject::tr("there is no rank %1 (0 to %2)")
                         .arg(text_)
                         .arg(qsizetype(trace_.rankCount()) - 1)
                   : QObject::tr("no function or call site matches '%1'").arg(text_);
    }
    if (regionCount_ == 1) return firstRegion_;
    if (regionCount_ > 1)
        return QObject::tr("%1 functions matching '%2'").arg(regionCount_).arg(text_);
    return QObject::tr("call sites matching '%1'").arg(text_);
}

std::optional<TimelineFinder::Hit> TimelineFinder::next(const Hit& from, bool forward,
                                                        const std::vector<RankId>& ranks) const
{
    if (!valid()) return std::nullopt;
    std::optional<Hit> best;
    for (const RankId r : ranks) {
        if (rank_ && r != *rank_) continue;
        const EventStream& events = trace_.rankEvents(r);
        if (forward) {
            // From the first event at `from.time` on; no further than the best hit so far.
            for (size_t i = events.times().lowerBound(from.time); i < events.size(); ++i) {
                const Hit here{r, uint32_t(i), events.time(i)};
                if (best && *best < here) break;
                if (!(from < here) || !matches(r, i)) continue;
                best = here;
                break;
            }
        } else {
            const int64_t end = from.time == INT64_MAX ? from.time : from.time + 1;
            for (size_t i = events.times().lowerBound(end); i-- > 0;) {
                const Hit here{r, uint32_t(i), events.time(i)};
                if (best && here < *best) break;
                if (!(here < from) || !matches(r, i)) continue;
                best = here;
                break;
            }
        }
    }
    return best;
}

TimelineFinder::Count TimelineFinder::count(const Hit& hit, const std::vector<RankId>& ranks) const
{
    Count c;
    if (!valid()) return c;
    for (const RankId r : ranks) {
        if (rank_ && r != *rank_) continue;
        const EventStream& events = trace_.rankEvents(r);
        for (size_t i = 0; i < events.size(); ++i) {
            if (!matches(r, i)) continue;
            ++c.total;
            if (Hit{r, uint32_t(i), events.time(i)} < hit) ++c.before;
        }
    }
    return c;
}

} // namespace rankscope
