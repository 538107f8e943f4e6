#include "importers/chrome/chromeexport.h"

#include "importers/chrome/chromejson.h"
#include "model/matching/messageend.h"
#include "model/support/atomicfile.h"
#include "model/trace/partialmark.h"
#include "model/trace/traceerror.h"
#include "model/waits/waitstates.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <span>
#include <vector>

namespace rankscope {

namespace {

using chrome::appendInt;
using chrome::appendJsonString;
using chrome::appendMicros;
using chrome::appendUInt;

constexpr std::string_view kFlowTail = R"(,"cat":"mpi.message","name":"message")";

/// One open region of the location being written.
struct Frame
{
    RegionId region;
    int64_t enter = 0;
    uint32_t enterEvent = 0;
    size_t firstFlow = 0; ///< its flow events: pending_[firstFlow, end) while it is on top
};

/// A flow event seen inside an open region, written once the region's end is known.
struct PendingFlow
{
    uint32_t message = 0;
    int64_t time = 0;
    bool start = false; ///< "s" (the send) or "f" (the receive)
};

class ChromeWriter
{
public:
    ChromeWriter(const Trace& trace, const ChromeExportOptions& options,
                 chrome::JsonBuffer::Sink sink)
        : trace_(trace), options_(options), out_(std::move(sink))
    {
    }

    ChromeExportReport write()
    {
        if (options_.waitStates) {
            WaitStateOptions w;
            w.eagerLimit = options_.eagerLimit;
            waits_ = analyzeWaitStates(trace_, w).waits;
        }
        prepareNames();
        text() += "{\"traceEvents\":[\n";
        writeMetadata();
        for (size_t r = 0; r < trace_.rankCount(); ++r)
            for (LocationId loc : trace_.rank(RankId(uint32_t(r))).locations)
                writeLocation(loc);
        // displayTimeUnit after the events: Perfetto versions before 2022 took it as the unit of
        // ts itself (looking for it in the first block of the file only), while the format and
        // later versions keep ts in microseconds.
        text() += "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"rankscope\"";
        text() += ",\"provenance\":";
        appendJsonString(text(), trace_.provenance().kind);
        if (!trace_.provenance().source.empty()) {
            text() += ",\"source\":";
            appendJsonString(text(), trace_.provenance().source);
        }
        if (const std::string mark = partialMark(trace_.diagnostics()); !mark.empty()) {
            text() += ",\"partial\":true,\"partial_note\":";
            appendJsonString(text(), mark);
        }
        text() += ",\"clock_offset_ns\":";
        appendInt(text(), trace_.clock().offsetNs);
        text() += ",\"time_unit\":\"ts and dur in microseconds since the trace's start\"}}\n";
        out_.flush();
        report_.bytes = out_.bytesWritten();
        return report_;
    }

private:
    std::string& text() { return out_.text(); }

    /// Starts the next event object: "{\"ts\":" after the separator.
    void beginEvent(int64_t ts)
    {
        out_.maybeFlush();
        text() += first_ ? "{\"ts\":" : ",\n{\"ts\":";
        first_ = false;
        appendMicros(text(), ts);
    }

    static uint64_t pid(RankId rank) { return uint64_t(rank.value) + 1; }
    uint64_t tid(LocationId loc) const
    {
        const RankId rank = trace_.rankOf(loc);
        if (trace_.rank(rank).mainLocation == loc) return pid(rank);
        return uint64_t(trace_.rankCount()) + 1 + loc.value;
    }

    /// The text each event repeats, escaped once: ,"pid":P,"tid":T per location and
    /// ,"cat":...,"name":... per region.
    void prepareNames()
    {
        where_.resize(trace_.locations().size());
        for (size_t l = 0; l < where_.size(); ++l) {
            const LocationId loc(static_cast<uint32_t>(l));
            std::string& s = where_[l];
            s += ",\"pid\":";
            appendUInt(s, pid(trace_.rankOf(loc)));
            s += ",\"tid\":";
            appendUInt(s, tid(loc));
        }
        regionTail_.resize(trace_.regions().size());
        for (size_t r = 0; r < regionTail_.size(); ++r) {
            const Region& region = trace_.regions()[r];
            std::string& s = regionTail_[r];
            s += ",\"cat\":";
            appendJsonString(s, paradigmName(region.paradigm));
            s += ",\"name\":";
            appendJsonString(s, trace_.str(region.name));
        }
    }

    void metadata(std::string_view name, LocationId loc, std::string_view argKey,
                  const std::string& argJson)
    {
        beginEvent(0);
        text() += ",\"ph\":\"M\"";
        text() += where_[loc.value];
        text() += ",\"name\":\"";
        text() += name;
        text() += "\",\"args\":{\"";
        text() += argKey;
        text() += "\":";
        text() += argJson;
        text() += "}}";
    }

    void writeMetadata()
    {
        std::string arg;
        for (size_t r = 0; r < trace_.rankCount(); ++r) {
            const Rank& rank = trace_.rank(RankId(uint32_t(r)));
            arg = "\"Rank " + std::to_string(r) + "\"";
            metadata("process_name", rank.mainLocation, "name", arg);
            arg = std::to_string(r);
            metadata("process_sort_index", rank.mainLocation, "sort_index", arg);
            if (rank.host.valid() && !trace_.str(rank.host).empty()) {
                arg.clear();
                appendJsonString(arg, trace_.str(rank.host));
                metadata("process_labels", rank.mainLocation, "labels", arg);
            }
            for (size_t k = 0; k < rank.locations.size(); ++k) {
                const LocationId loc = rank.locations[k];
                const std::string_view name = trace_.str(trace_.location(loc).name);
                arg.clear();
                if (name.empty())
                    appendJsonString(arg, "Thread " + std::to_string(k));
                else
                    appendJsonString(arg, name);
                metadata("thread_name", loc, "name", arg);
                arg = std::to_string(k);
                metadata("thread_sort_index", loc, "sort_index", arg);
            }
        }
    }

    /// The waits of `rank`: a slice of waits_, which is sorted by (rank, begin).
    std::span<const WaitState> waitsOf(RankId rank) const
    {
        const auto lo =
            std::lower_bound(waits_.begin(), waits_.end(), rank,
                             [](const WaitState& w, RankId r) { return w.rank.value < r.value; });
        auto hi = lo;
        while (hi != waits_.end() && hi->rank == rank)
            ++hi;
        return {lo, hi};
    }

    void writeLocation(LocationId loc)
    {
        const EventStream& es = trace_.events(loc);
        const RankId rank = trace_.rankOf(loc);
        const bool main = trace_.rank(rank).mainLocation == loc;
        rankWaits_ = main ? waitsOf(rank) : std::span<const WaitState>();
        nextWait_ = 0;
        stack_.clear();
        pending_.clear();
        for (size_t i = 0; i < es.size(); ++i) {
            const EventKind kind = es.kind(i);
            if (kind == EventKind::Enter) {
                stack_.push_back({es.region(i), es.time(i), uint32_t(i), pending_.size()});
            } else if (kind == EventKind::Leave) {
                leave(loc, es.region(i), es.time(i));
            } else if (kind == EventKind::MpiSend || kind == EventKind::MpiIsend ||
                       kind == EventKind::MpiRecv || kind == EventKind::MpiIrecv) {
                flowEvent(loc, es, i);
            }
        }
        // Regions open at the end of the location close at its last timestamp.
        const int64_t last = es.empty() ? 0 : es.time(es.size() - 1);
        while (!stack_.empty()) {
            ++report_.unclosedRegions;
            closeTop(loc, last, true);
        }
        // Waits whose call was not found (none, when the trace and the analysis agree) are
        // still written, after the rest of the location.
        for (; nextWait_ < rankWaits_.size(); ++nextWait_)
            writeWait(loc, rankWaits_[nextWait_]);
    }

    void leave(LocationId loc, RegionId region, int64_t t)
    {
        auto open = std::find_if(stack_.rbegin(), stack_.rend(),
                                 [&](const Frame& f) { return f.region == region; });
        if (open == stack_.rend()) {
            ++report_.skippedLeaves;
            return;
        }
        const size_t depth = size_t(stack_.rend() - open) - 1;
        while (stack_.size() > depth)
            closeTop(loc, t, false);
    }

    void flowEvent(LocationId loc, const EventStream& es, size_t i)
    {
        const MessageEnd end = messageEndOf(trace_, loc, es, i);
        if (end == MessageEnd::Unmatched) ++report_.unmatchedMessages;
        if (end != MessageEnd::Send && end != MessageEnd::Receive) return;
        const MessageId id = es.message(i);
        const bool start = end == MessageEnd::Send;
        if (start) ++report_.flows;
        const PendingFlow flow{id.value, es.time(i), start};
        if (stack_.empty())
            writeFlow(loc, flow, flow.time);
        else
            pending_.push_back(flow);
    }

    /// Writes the innermost open region as a complete event ending at `end`, then the waits of
    /// its call and the flow events inside it.
    void closeTop(LocationId loc, int64_t end, bool unclosed)
    {
        const Frame f = stack_.back();
        stack_.pop_back();
        beginEvent(f.enter);
        text() += ",\"ph\":\"X\",\"dur\":";
        appendMicros(text(), std::max<int64_t>(end - f.enter, 0));
        text() += where_[loc.value];
        text() += regionTail_[f.region.value];
        text() += unclosed ? ",\"args\":{\"unclosed\":true}}" : "}";
        ++report_.regionEvents;

        writeWaitsOfCall(loc, f.enterEvent);

        // Flow events bind to the slice around their ts, and a slice covers [ts, ts + dur).
        const int64_t lastInside = end > f.enter ? end - 1 : f.enter;
        for (size_t k = f.firstFlow; k < pending_.size(); ++k)
            writeFlow(loc, pending_[k], std::clamp(pending_[k].time, f.enter, lastInside));
        pending_.resize(f.firstFlow);
    }

    void writeWaitsOfCall(LocationId loc, uint32_t enterEvent)
    {
        size_t stop = nextWait_;
        while (stop < rankWaits_.size() && rankWaits_[stop].enterEvent == enterEvent)
            ++stop;
        if (stop == nextWait_) return;
        // All waits of a call begin at its Enter; longest first, they nest.
        callWaits_.assign(rankWaits_.begin() + std::ptrdiff_t(nextWait_),
                          rankWaits_.begin() + std::ptrdiff_t(stop));
        std::stable_sort(
            callWaits_.begin(), callWaits_.end(), [](const WaitState& a, const WaitState& b) {
                return a.begin != b.begin ? a.begin < b.begin : a.duration() > b.duration();
            });
        for (const WaitState& w : callWaits_)
            writeWait(loc, w);
        nextWait_ = stop;
    }

    void writeWait(LocationId loc, const WaitState& w)
    {
        beginEvent(w.begin);
        text() += ",\"ph\":\"X\",\"dur\":";
        appendMicros(text(), w.duration());
        text() += where_[loc.value];
        text() += ",\"cat\":\"wait_state\",\"name\":\"";
        text() += waitPatternName(w.pattern);
        text() += "\",\"args\":{\"waited_ns\":";
        appendInt(text(), w.duration());
        if (w.cause.valid()) {
            text() += ",\"partner_rank\":";
            appendUInt(text(), w.cause.value);
        }
        text() += w.direct ? ",\"direct\":true}}" : ",\"direct\":false}}";
        ++report_.waitEvents;
    }

    void writeFlow(LocationId loc, const PendingFlow& flow, int64_t ts)
    {
        beginEvent(ts);
        text() += flow.start ? ",\"ph\":\"s\",\"id\":" : ",\"ph\":\"f\",\"bp\":\"e\",\"id\":";
        appendUInt(text(), uint64_t(flow.message) + 1);
        text() += where_[loc.value];
        text() += kFlowTail;
        if (flow.start) {
            const Message& m = trace_.message(MessageId(flow.message));
            text() += ",\"args\":{\"bytes\":";
            appendUInt(text(), m.bytes);
            text() += ",\"tag\":";
            appendInt(text(), m.tag);
            text() += ",\"to_rank\":";
            appendUInt(text(), trace_.messageReceiver(m).value);
            text() += "}";
        }
        text() += "}";
    }

    const Trace& trace_;
    const ChromeExportOptions& options_;
    chrome::JsonBuffer out_;
    ChromeExportReport report_;
    bool first_ = true;

    std::vector<std::string> where_;      ///< by LocationId
    std::vector<std::string> regionTail_; ///< by RegionId
    std::vector<WaitState> waits_;
    std::span<const WaitState> rankWaits_; ///< waits of the location being written
    size_t nextWait_ = 0;
    std::vector<WaitState> callWaits_;
    std::vector<Frame> stack_;
    std::vector<PendingFlow> pending_;
};

} // namespace

ChromeExportReport writeChromeTrace(const Trace& trace, std::ostream& out,
                                    const ChromeExportOptions& options)
{
    ChromeWriter writer(trace, options, [&out](std::string_view block) {
        out.write(block.data(), std::streamsize(block.size()));
        if (!out) throw TraceError("cannot write the Chrome trace: the output stream failed");
    });
    ChromeExportReport report = writer.write();
    out.flush();
    if (!out) throw TraceError("cannot write the Chrome trace: the output stream failed");
    return report;
}

ChromeExportReport writeChromeTraceFile(const Trace& trace, const std::string& path,
                                        const ChromeExportOptions& options)
{
    ChromeExportReport report;
    writeStreamAtomically(
        path,
        [&](const BlockSink& sink) {
            ChromeWriter writer(trace, options, sink);
            report = writer.write();
        },
        "the Chrome trace");
    return report;
}

} // namespace rankscope
