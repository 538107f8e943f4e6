#include "importers/paraver/paraverexport.h"

#include "importers/paraver/paraverlayout.h"
#include "importers/paraver/paravermpi.h"
#include "importers/paraver/paraverpcf.h"
#include "model/matching/messageend.h"
#include "model/support/atomicfile.h"
#include "model/trace/partialmark.h"
#include "model/trace/traceerror.h"

#include <algorithm>
#include <ctime>
#include <functional>
#include <limits>
#include <queue>
#include <zlib.h>

namespace rankscope {

namespace {

using paraver::ExportThread;
using paraver::kNotWritten;
using paraver::Layout;

constexpr int64_t kUnset = std::numeric_limits<int64_t>::min();

/// Compresses the blocks handed to it as one gzip stream into `out`.
class GzipSink
{
public:
    explicit GzipSink(const BlockSink& out) : out_(out)
    {
        if (deflateInit2(&z_, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            throw TraceError("cannot start gzip compression");
    }
    ~GzipSink() { deflateEnd(&z_); }
    GzipSink(const GzipSink&) = delete;
    GzipSink& operator=(const GzipSink&) = delete;

    void write(std::string_view block, bool finish = false)
    {
        z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(block.data()));
        z_.avail_in = uInt(block.size());
        int rc = Z_OK;
        do {
            z_.next_out = buffer_;
            z_.avail_out = sizeof buffer_;
            rc = deflate(&z_, finish ? Z_FINISH : Z_NO_FLUSH);
            if (rc == Z_STREAM_ERROR) throw TraceError("gzip compression failed");
            const size_t n = sizeof buffer_ - z_.avail_out;
            if (n > 0) out_(std::string_view(reinterpret_cast<char*>(buffer_), n));
        } while (z_.avail_out == 0 || (finish && rc != Z_STREAM_END));
    }

private:
    const BlockSink& out_;
    z_stream z_{};
    Bytef buffer_[1 << 16];
};

struct Cursor
{
    int64_t time = 0;
    uint32_t location = 0;
    bool operator>(const Cursor& o) const
    {
        return time != o.time ? time > o.time : location > o.location;
    }
};

class PrvWriter
{
public:
    PrvWriter(const Trace& trace, const Layout& layout, BlockSink sink)
        : trace_(trace), layout_(layout), sink_(std::move(sink))
    {
        origin_ = std::min<int64_t>(0, trace.beginTime());
    }

    ParaverExportReport write()
    {
        findLogicalReceives();
        header();
        const size_t n = trace_.locations().size();
        next_.assign(n, 0);
        open_.assign(n, {});
        std::priority_queue<Cursor, std::vector<Cursor>, std::greater<Cursor>> heap;
        for (size_t l = 0; l < n; ++l) {
            const EventStream& es = trace_.events(LocationId(uint32_t(l)));
            const bool written =
                layout_.threadOf[l] != kNotWritten || layout_.stateThreadOf[l] != kNotWritten;
            if (!es.empty() && written)
                heap.push({es.time(0), uint32_t(l)});
            else if (!written)
                report_.skippedEvents += es.size();
        }
        while (!heap.empty()) {
            const uint32_t l = heap.top().location;
            heap.pop();
            const EventStream& es = trace_.events(LocationId(l));
            const size_t i = next_[l]++;
            if (layout_.threadOf[l] != kNotWritten)
                event(layout_.threads[layout_.threadOf[l]], es, i);
            else
                state(layout_.threads[layout_.stateThreadOf[l]], es, i);
            if (next_[l] < es.size()) heap.push({es.time(next_[l]), l});
        }
        flush();
        return report_;
    }

private:
    int64_t at(int64_t t) const { return t - origin_; }

    /// Where each message's receive was posted: the MpiIrecvRequest of a non-blocking receive,
    /// the Enter of the MPI call holding a blocking one.
    void findLogicalReceives()
    {
        logicalRecv_.assign(trace_.messages().size(), kUnset);
        for (const ExportThread& t : layout_.threads) {
            if (!t.location.valid()) continue;
            const EventStream& es = trace_.events(t.location);
            std::vector<std::pair<RegionId, int64_t>> open;
            for (size_t i = 0; i < es.size(); ++i) {
                const EventKind k = es.kind(i);
                if (k == EventKind::Enter && trace_.region(es.region(i)).isMpi()) {
                    open.emplace_back(es.region(i), es.time(i));
                } else if (k == EventKind::Leave) {
                    for (size_t d = open.size(); d-- > 0;)
                        if (open[d].first == es.region(i)) {
                            open.resize(d);
                            break;
                        }
                } else if (k == EventKind::MpiIrecvRequest && es.message(i).valid()) {
                    logicalRecv_[es.message(i).value] = es.time(i);
                } else if (k == EventKind::MpiRecv && es.message(i).valid() &&
                           logicalRecv_[es.message(i).value] == kUnset) {
                    logicalRecv_[es.message(i).value] =
                        open.empty() ? es.time(i) : open.back().second;
                }
            }
        }
    }

    void header()
    {
        char date[64];
        const std::time_t now = std::time(nullptr);
        std::tm local{};
        localtime_r(&now, &local);
        std::strftime(date, sizeof date, "%d/%m/%y at %H:%M", &local);
        text_ += "#Paraver (";
        text_ += date;
        text_ += "):" + std::to_string(std::max<int64_t>(0, at(trace_.endTime()))) + "_ns:";
        text_ += std::to_string(layout_.nodeNames.size()) + "(";
        for (size_t n = 0; n < layout_.nodeCpus.size(); ++n)
            text_ += (n ? "," : "") + std::to_string(layout_.nodeCpus[n]);
        text_ += "):1:" + std::to_string(layout_.taskThreads.size()) + "(";
        for (size_t r = 0; r < layout_.taskThreads.size(); ++r)
            text_ += (r ? "," : "") + std::to_string(layout_.taskThreads[r]) + ":" +
                     std::to_string(layout_.taskNode[r]);
        size_t comms = 0;
        for (const Communicator& c : trace_.communicators())
            comms += c.members.empty() ? 0 : 1;
        text_ += ")," + std::to_string(comms) + "\n";
        for (size_t c = 0; c < trace_.communicators().size(); ++c) {
            const Communicator& comm = trace_.communicators()[c];
            if (comm.members.empty()) continue;
            text_ += "c:1:" + std::to_string(c + 1) + ":" + std::to_string(comm.members.size());
            for (const RankId r : comm.members)
                text_ += ":" + std::to_string(r.value + 1);
            text_ += "\n";
        }
        // A comment record (Paraver's '#'), after the header as Paraver requires.
        if (const std::string mark = partialMark(trace_.diagnostics()); !mark.empty())
            text_ += "# " + mark + "\n";
    }

    /// Starts a record "<kind>:cpu:1:task:thread:" of thread `t`.
    void begin(char kind, const ExportThread& t)
    {
        if (text_.size() >= kBlock) flush();
        text_ += kind;
        text_ += ':';
        text_ += std::to_string(t.cpu);
        text_ += ":1:";
        text_ += std::to_string(t.task);
        text_ += ':';
        text_ += std::to_string(t.thread);
        text_ += ':';
    }

    void number(int64_t v) { text_ += std::to_string(v); }

    void event(const ExportThread& t, const EventStream& es, size_t i)
    {
        const int64_t time = es.time(i);
        if (i == 0 && !layout_.anyStates) { // a trace without states: Running throughout
            begin('1', t);
            text_ += std::to_string(at(time)) + ":" + std::to_string(at(es.time(es.size() - 1)));
            text_ += ":1\n";
            ++report_.stateRecords;
        }
        switch (es.kind(i)) {
        case EventKind::Enter: {
            const uint32_t r = es.region(i).value;
            if (layout_.regionType[r] == 0) {
                ++report_.skippedEvents;
                break;
            }
            begin('2', t);
            text_ += std::to_string(at(time)) + ":" + std::to_string(layout_.regionType[r]) + ":" +
                     std::to_string(layout_.regionValue[r]) + "\n";
            ++report_.eventRecords;
            open_[t.location.value].push_back(r);
            break;
        }
        case EventKind::Leave:
            leave(t, time, es.region(i).value);
            break;
        case EventKind::MpiCollectiveBegin:
            collectiveDetails(t, es, i);
            break;
        case EventKind::MpiSend:
        case EventKind::MpiIsend:
        case EventKind::MpiRecv:
        case EventKind::MpiIrecv: {
            const MessageEnd end = messageEndOf(trace_, t.location, es, i);
            if (end == MessageEnd::Unmatched) ++report_.unmatchedMessages;
            if (end == MessageEnd::Send) communication(t, es, i);
            break;
        }
        case EventKind::MpiCollectiveEnd:
            break;                       // the collective's details were written at its begin
        case EventKind::MpiIrecvRequest: // its message's logical receive time
            if (!es.message(i).valid() || !trace_.message(es.message(i)).matched())
                ++report_.skippedEvents;
            break;
        default:
            ++report_.skippedEvents;
            break;
        }
        // Regions open when the thread ends close at its last event, as the model's analyses
        // close them (Paraver would otherwise keep them open to the trace's end).
        if (i + 1 == es.size()) {
            std::vector<uint32_t>& open = open_[t.location.value];
            while (!open.empty())
                leaveRecord(t, time, open);
        }
    }

    /// A Leave of region `r`: a value-0 event of its type closes the innermost open region of
    /// that type, so the regions opened inside `r` are closed first (as the model's analyses
    /// close them with it); a Leave with no open region of its own is not written.
    void leave(const ExportThread& t, int64_t time, uint32_t r)
    {
        std::vector<uint32_t>& open = open_[t.location.value];
        const auto it = std::find(open.rbegin(), open.rend(), r);
        if (it == open.rend()) {
            ++report_.skippedEvents;
            return;
        }
        const size_t depth = size_t(open.rend() - it) - 1;
        while (open.size() > depth)
            leaveRecord(t, time, open);
    }

    void leaveRecord(const ExportThread& t, int64_t time, std::vector<uint32_t>& open)
    {
        begin('2', t);
        text_ += std::to_string(at(time)) + ":" + std::to_string(layout_.regionType[open.back()]) +
                 ":0\n";
        ++report_.eventRecords;
        open.pop_back();
    }

    void collectiveDetails(const ExportThread& t, const EventStream& es, size_t i)
    {
        const CollectiveId id = es.collective(i);
        if (!id.valid()) return;
        const CollectiveInstance& c = trace_.collective(id);
        const CollectiveMember* member = nullptr;
        for (uint32_t k = 0; k < c.memberCount; ++k) {
            const CollectiveMember& m = trace_.collectiveMembers()[c.firstMember + k];
            if (m.location == t.location) member = &m;
        }
        const bool root = c.root.valid() && trace_.rankOf(t.location) == c.root;
        begin('2', t);
        number(at(es.time(i)));
        text_ += ":50100001:" + std::to_string(member ? member->bytesSent : 0);
        text_ += ":50100002:" + std::to_string(member ? member->bytesReceived : 0);
        text_ += ":50100003:" + std::string(root ? "1" : "0");
        text_ += ":50100004:" + std::to_string(c.comm.value + 1);
        text_ += ":" + std::to_string(paraver::kCollectiveOp) + ":" + std::to_string(int(c.op) + 1);
        text_ += '\n';
        ++report_.eventRecords;
    }

    void communication(const ExportThread& t, const EventStream& es, size_t i)
    {
        const MessageId id = es.message(i);
        const Message& m = trace_.message(id);
        const uint32_t to = layout_.threadOf[m.recvLocation.value];
        if (to == kNotWritten) {
            ++report_.unmatchedMessages;
            return;
        }
        const ExportThread& r = layout_.threads[to];
        const int64_t physicalRecv = trace_.events(m.recvLocation).time(m.recvEvent);
        const int64_t logicalRecv =
            logicalRecv_[id.value] == kUnset ? physicalRecv : logicalRecv_[id.value];
        begin('3', t);
        const std::string send = std::to_string(at(es.time(i)));
        text_ += send + ":" + send + ":" + std::to_string(r.cpu) + ":1:" + std::to_string(r.task) +
                 ":" + std::to_string(r.thread) + ":" + std::to_string(at(logicalRecv)) + ":" +
                 std::to_string(at(physicalRecv)) + ":" + std::to_string(m.bytes) + ":" +
                 std::to_string(m.tag) + "\n";
        ++report_.communications;
    }

    void state(const ExportThread& t, const EventStream& es, size_t i)
    {
        if (es.kind(i) != EventKind::Enter) return;
        const int64_t end =
            i + 1 < es.size() && es.kind(i + 1) == EventKind::Leave ? es.time(i + 1) : es.time(i);
        begin('1', t);
        text_ += std::to_string(at(es.time(i))) + ":" + std::to_string(at(end)) + ":" +
                 std::to_string(layout_.regionValue[es.region(i).value]) + "\n";
        ++report_.stateRecords;
    }

    void flush()
    {
        if (text_.empty()) return;
        sink_(text_);
        report_.bytes += text_.size();
        text_.clear();
    }

    static constexpr size_t kBlock = size_t(1) << 20;

    const Trace& trace_;
    const Layout& layout_;
    BlockSink sink_;
    int64_t origin_ = 0;
    std::string text_;
    ParaverExportReport report_;
    std::vector<size_t> next_;
    std::vector<std::vector<uint32_t>> open_; ///< open regions by LocationId
    std::vector<int64_t> logicalRecv_;
};

bool endsWithGz(const std::string& path)
{
    return path.size() >= 3 && (path.compare(path.size() - 3, 3, ".gz") == 0 ||
                                path.compare(path.size() - 3, 3, ".GZ") == 0);
}

} // namespace

ParaverExportReport writeParaverTrace(const Trace& trace, const std::string& path)
{
    if (trace.rankCount() == 0)
        throw TraceError(path + ": cannot write the Paraver trace: the trace has no ranks");
    const Layout layout = paraver::layoutOf(trace);
    ParaverExportReport report;
    writeStreamAtomically(
        path,
        [&](const BlockSink& sink) {
            if (!endsWithGz(path)) {
                report = PrvWriter(trace, layout, sink).write();
                return;
            }
            GzipSink gz(sink);
            report = PrvWriter(trace, layout, [&gz](std::string_view b) { gz.write(b); }).write();
            gz.write({}, true);
        },
        "the Paraver trace");
    report.skippedLocations = layout.skippedLocations;
    report.pcfPath = paraver::besidePath(path, ".pcf");
    report.rowPath = paraver::besidePath(path, ".row");
    writeFileAtomically(report.pcfPath, paraver::pcfText(layout), "the Paraver labels (.pcf)");
    writeFileAtomically(report.rowPath, paraver::rowText(layout), "the Paraver names (.row)");
    return report;
}

} // namespace rankscope
