#pragma once
// Find on a timeline (Ctrl+F): what a query names and where it occurs next in time.
// A query is a rank ("rank 12", "r12" or "12"), or text matched without case against function
// names ("allreduce" finds MPI_Allreduce) and call sites ("stencil.c:88", "stencil.c"). An
// occurrence is an Enter event: of a matching function, at a matching call site, or (a rank) of
// an MPI call on that rank. next() walks the displayed ranks from a point in time forward or
// backward and returns the closest occurrence, ties in time broken by rank, so repeated calls
// visit every occurrence once in time order. Each call reads the events between the start
// point and the occurrence found (never more than the nearest hit on any rank).

#include "model/trace/ids.h"

#include <QString>
#include <cstdint>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace rankscope {

class Trace;

class TimelineFinder
{
public:
    struct Hit
    {
        RankId rank;
        uint32_t enterEvent = 0;
        int64_t time = 0; ///< trace time of the Enter
        bool operator==(const Hit&) const = default;
        /// Occurrences are visited in (time, rank, event) order.
        bool operator<(const Hit& o) const
        {
            return std::tie(time, rank.value, enterEvent) <
                   std::tie(o.time, o.rank.value, o.enterEvent);
        }
    };

    /// Parses `query` against `trace` (which must outlive the finder).
    TimelineFinder(const Trace& trace, const QString& query);

    /// The query names something in the trace (a rank that exists, a function or a call site).
    bool valid() const;
    /// What the query found, for a status line: "rank 12", "3 functions: MPI_Send, ...",
    /// "call site stencil.c:88"; or why nothing ("no function or call site matches 'x'").
    QString description() const;
    /// The rank a rank query names.
    std::optional<RankId> rank() const { return rank_; }

    /// The first occurrence strictly after (forward) or before (backward) `from` in Hit order,
    /// among `ranks`; nullopt when there is none. `from` need not be an occurrence (a selected
    /// call, or the edge of the view: {RankId(), 0, begin - 1} finds the first from `begin` on).
    std::optional<Hit> next(const Hit& from, bool forward, const std::vector<RankId>& ranks) const;

    /// How many occurrences `ranks` hold, and how many of them come before `hit` in Hit order
    /// (so `hit` is occurrence before + 1 of total): one pass over the ranks' events.
    struct Count
    {
        size_t total = 0;
        size_t before = 0;
    };
    Count count(const Hit& hit, const std::vector<RankId>& ranks) const;

private:
    bool findsAnything() const;
    bool matches(RankId rank, size_t event) const;
    bool siteMatches(uint32_t file, uint32_t line) const;

    const Trace& trace_;
    QString text_;
    std::optional<RankId> rank_;
    std::vector<bool> regions_; ///< by RegionId: its name matches
    int regionCount_ = 0;
    QString firstRegion_;
    mutable std::unordered_map<uint64_t, bool> sites_; ///< (file, line) -> matches
    mutable std::optional<bool> valid_;
};

} // namespace rankscope
