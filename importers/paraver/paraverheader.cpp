#include "importers/paraver/paraverheader.h"

#include "model/trace/traceerror.h"

#include <charconv>
#include <string>

namespace rankscope::paraver {

namespace {

// Beyond the runs Paraver traces hold, low enough that a damaged count cannot exhaust memory
// (a thread costs about a kilobyte before its first record).
constexpr uint64_t kMaxTasks = 1u << 18;
constexpr uint64_t kMaxThreads = 1u << 18;

class Cursor
{
public:
    explicit Cursor(std::string_view s) : s_(s) {}

    bool atEnd() const { return at_ >= s_.size(); }
    char peek() const { return atEnd() ? '\0' : s_[at_]; }
    bool accept(char c)
    {
        if (peek() != c) return false;
        ++at_;
        return true;
    }
    void expect(char c, const char* what)
    {
        if (!accept(c))
            throw TraceError(std::string("bad Paraver header: expected '") + c + "' " + what +
                             " at column " + std::to_string(at_ + 1));
    }
    uint64_t number(const char* what)
    {
        uint64_t v = 0;
        const char* begin = s_.data() + at_;
        const auto [end, ec] = std::from_chars(begin, s_.data() + s_.size(), v);
        if (ec != std::errc() || end == begin)
            throw TraceError(std::string("bad Paraver header: expected ") + what + " at column " +
                             std::to_string(at_ + 1));
        at_ += size_t(end - begin);
        return v;
    }
    std::string_view rest() const { return s_.substr(std::min(at_, s_.size())); }
    void skip(size_t n) { at_ += n; }
    size_t position() const { return at_; }

private:
    std::string_view s_;
    size_t at_ = 0;
};

uint64_t bounded(uint64_t v, uint64_t limit, const char* what)
{
    if (v > limit)
        throw TraceError("bad Paraver header: " + std::to_string(v) + " " + what + " (at most " +
                         std::to_string(limit) + ")");
    return v;
}

} // namespace

size_t Header::taskCount() const
{
    size_t n = 0;
    for (const auto& app : applications)
        n += app.size();
    return n;
}

Header parseHeader(std::string_view line)
{
    if (line.rfind("#Paraver", 0) != 0)
        throw TraceError("not a Paraver trace: the first line does not start with #Paraver");
    Header h;
    // The date "(dd/mm/yy at hh:mm)" holds a ':' of its own: skip to its ')'.
    const size_t close = line.find(')');
    if (close == std::string_view::npos)
        throw TraceError("bad Paraver header: no ')' closing the date");
    Cursor c(line.substr(close + 1));
    c.expect(':', "after the date");
    h.endTime = c.number("the trace's end time");
    if (c.accept('_')) {
        const std::string_view unit = c.rest().substr(0, 2);
        h.nsPerUnit = unit == "ns" ? 1 : unit == "ms" ? 1'000'000 : 1000;
        while (!c.atEnd() && c.peek() != ':')
            c.skip(1);
    }
    c.expect(':', "after the end time");

    uint64_t threads = 0;
    const uint64_t nodes = bounded(c.number("the node count"), kMaxTasks, "nodes");
    if (c.accept('(')) {
        for (uint64_t n = 0; n < nodes; ++n) {
            if (n > 0) c.expect(',', "between CPU counts");
            h.cpusPerNode.push_back(
                uint32_t(bounded(c.number("a CPU count"), kMaxThreads, "CPUs on a node")));
        }
        c.expect(')', "after the CPU counts");
    }
    c.expect(':', "after the nodes");
    const uint64_t apps = bounded(c.number("the application count"), 1u << 16, "applications");
    if (apps == 0) throw TraceError("bad Paraver header: no application");
    c.expect(':', "after the application count");
    uint64_t tasks = 0;
    for (uint64_t a = 0; a < apps; ++a) {
        if (a > 0) c.expect(':', "between applications");
        const uint64_t n = bounded(c.number("a task count"), kMaxTasks, "tasks");
        tasks += n;
        bounded(tasks, kMaxTasks, "tasks");
        if (n == 0) throw TraceError("bad Paraver header: an application without tasks");
        std::vector<HeaderTask>& list = h.applications.emplace_back();
        c.expect('(', "before an application's tasks");
        for (uint64_t t = 0; t < n; ++t) {
            if (t > 0) c.expect(',', "between tasks");
            HeaderTask task;
            task.threads = uint32_t(bounded(c.number("a thread count"), kMaxThreads, "threads"));
            if (task.threads == 0) throw TraceError("bad Paraver header: a task without threads");
            threads += task.threads;
            bounded(threads, kMaxThreads, "threads");
            if (c.accept(':')) task.node = uint32_t(c.number("a node"));
            if (!h.cpusPerNode.empty() && task.node > h.cpusPerNode.size())
                throw TraceError("bad Paraver header: a task on node " + std::to_string(task.node) +
                                 " of " + std::to_string(h.cpusPerNode.size()));
            list.push_back(task);
        }
        c.expect(')', "after an application's tasks");
    }
    if (c.accept(','))
        h.communicators =
            uint32_t(bounded(c.number("the communicator count"), kMaxTasks, "communicators"));
    while (!c.atEnd() && (c.peek() == ' ' || c.peek() == '\t'))
        c.skip(1);
    if (!c.atEnd())
        throw TraceError("bad Paraver header: unexpected text at column " +
                         std::to_string(close + 2 + c.position()));
    return h;
}

} // namespace rankscope::paraver
