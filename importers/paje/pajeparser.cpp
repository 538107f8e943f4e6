// Reads a Paje file line by line into ImportData (pajeimport_p.h).
//
// The header's %EventDef blocks give each event number its event and the order of its fields
// (pajeexport.h names the format's reference); the import finds the fields it needs by name, so
// any order and any extra user fields work. Fields past those a definition lists (SimGrid puts
// a message's size after PajeStartLink's fields without defining it) are read where they are
// known: the first one of a PajeStartLink is its size when it is a number. A line whose event
// number no definition gives is skipped and counted; a line with fewer fields than its
// definition, an unterminated quote, an unreadable time, or a header block left open is a
// TraceError naming the file and line.

#include "importers/paje/pajeimport_p.h"
#include "importers/paje/pajetext.h"
#include "model/trace/traceerror.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>

namespace rankscope::paje {

namespace {

using std::string_view;

[[noreturn]] void fail(const ImportData& d, uint64_t line, const std::string& what)
{
    throw TraceError(d.path + ":" + std::to_string(line) + ": " + what);
}

bool eventOf(string_view name, Ev& e)
{
    static constexpr std::array<std::pair<string_view, Ev>, 18> kNames = {{
        {"PajeDefineContainerType", Ev::DefineContainerType},
        {"PajeDefineStateType", Ev::DefineStateType},
        {"PajeDefineEventType", Ev::DefineEventType},
        {"PajeDefineVariableType", Ev::DefineVariableType},
        {"PajeDefineLinkType", Ev::DefineLinkType},
        {"PajeDefineEntityValue", Ev::DefineEntityValue},
        {"PajeCreateContainer", Ev::CreateContainer},
        {"PajeDestroyContainer", Ev::DestroyContainer},
        {"PajeSetVariable", Ev::SetVariable},
        {"PajeAddVariable", Ev::AddVariable},
        {"PajeSubVariable", Ev::SubVariable},
        {"PajeSetState", Ev::SetState},
        {"PajePushState", Ev::PushState},
        {"PajePopState", Ev::PopState},
        {"PajeResetState", Ev::ResetState},
        {"PajeStartLink", Ev::StartLink},
        {"PajeEndLink", Ev::EndLink},
        {"PajeNewEvent", Ev::NewEvent},
    }};
    for (const auto& [n, ev] : kNames)
        if (n == name) {
            e = ev;
            return true;
        }
    return false;
}

int fieldOf(string_view name)
{
    static constexpr std::array<string_view, FieldCount> kNames = {
        "Time",           "Alias",        "Type",   "Container", "Name", "Value",
        "StartContainer", "EndContainer", "Key",    "Size",      "Tag",  "Comm",
        "Post",           "Paradigm",     "Role",   "Op",        "Root", "Sent",
        "Received",       "Id",           "Parent", "Members"};
    for (size_t i = 0; i < kNames.size(); ++i)
        if (kNames[i] == name) return int(i);
    return -1;
}

class Parser
{
public:
    explicit Parser(ImportData& d) : d_(d) {}

    void line(string_view s)
    {
        const uint64_t n = ++d_.lines;
        if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
        if (inDef_) {
            header(s, n);
            return;
        }
        size_t i = 0;
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
            ++i;
        if (i == s.size() || s[i] == '#') return;
        if (s[i] == '%') {
            header(s.substr(i), n);
            return;
        }
        if (!split(s, f_)) fail(d_, n, "a double quote is not closed");
        uint32_t id = 0;
        if (!number(f_.f[0], id))
            fail(d_, n, "\"" + std::string(f_.f[0]) + "\" is no event number");
        if (id < byId_.size()) {
            lastDef_ = byId_[id];
        } else if (id != lastId_) {
            const auto it = d_.defs.find(id);
            lastDef_ = it == d_.defs.end() ? nullptr : &it->second;
            lastId_ = id;
        }
        if (!lastDef_) {
            ++d_.unknownEvents;
            return;
        }
        ++d_.events;
        if (f_.n - 1 < lastDef_->fields)
            fail(d_, n,
                 "event " + std::to_string(id) + " has " + std::to_string(f_.n - 1) +
                     " field(s), its definition " + std::to_string(lastDef_->fields));
        event(*lastDef_, n);
    }

    void finish(uint64_t n)
    {
        if (inDef_) fail(d_, n, "the file ends inside %EventDef (no %EndEventDef)");
    }

    uint64_t replacedBytes = 0;

private:
    void header(string_view s, uint64_t n)
    {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
            s.remove_prefix(1);
        if (s.empty()) return; // a blank line inside %EventDef
        if (s.front() != '%') fail(d_, n, "a line inside %EventDef does not start with %");
        Fields h;
        split(s.substr(1), h);
        if (!inDef_) {
            if (h.n == 0 || h.f[0] != "EventDef") return; // a comment line of the header
            Ev e;
            uint32_t id = 0;
            if (h.n < 3 || !number(h.f[2], id))
                fail(d_, n, "%EventDef needs an event name and number");
            if (!eventOf(h.f[1], e)) {
                unknownDef_ = true; // its lines are counted as unknown events
            } else {
                unknownDef_ = false;
                def_ = EventDef();
                def_.kind = e;
            }
            defId_ = id;
            inDef_ = true;
            return;
        }
        if (s.empty() || s[0] != '%') fail(d_, n, "%EventDef is not closed by %EndEventDef");
        if (h.n > 0 && h.f[0] == "EndEventDef") {
            inDef_ = false;
            if (!unknownDef_) {
                EventDef& def = d_.defs[defId_];
                def = def_;
                if (defId_ < byId_.size()) byId_[defId_] = &def;
            }
            lastId_ = UINT32_MAX;
            return;
        }
        if (h.n == 0) return;
        if (h.f[0] == "EventDef") fail(d_, n, "%EventDef inside %EventDef");
        if (size_t(def_.fields) + 1 >= kMaxFields)
            fail(d_, n, "an event definition with too many fields");
        const int field = fieldOf(h.f[0]);
        if (field >= 0 && def_.at[field] < 0) def_.at[field] = int8_t(def_.fields + 1);
        ++def_.fields;
    }

    string_view get(const EventDef& def, Field field) const
    {
        const int at = def.at[field];
        return at > 0 && size_t(at) < f_.n ? f_.f[size_t(at)] : string_view();
    }

    int64_t time(const EventDef& def, uint64_t n) const
    {
        int64_t t = 0;
        const string_view s = get(def, FTime);
        if (!parseSeconds(s, t)) fail(d_, n, "\"" + std::string(s) + "\" is no time");
        return t;
    }

    template <class T> T intField(const EventDef& def, Field field, T fallback) const
    {
        T v = fallback;
        const string_view s = get(def, field);
        return !s.empty() && number(s, v) ? v : fallback;
    }

    /// The container an alias or name refers to, or -1.
    int64_t container(string_view key)
    {
        const uint32_t* c = containers_.find(key);
        return c ? int64_t(*c) : -1;
    }

    /// The entity value `v` of type `type`, defined on first use when no definition names it.
    uint32_t value(string_view type, string_view v)
    {
        key_.assign(type).append(1, '\n').append(v);
        if (const uint32_t* id = values_.find(key_)) return *id;
        const uint32_t id = addValue(validUtf8(v, replacedBytes), -1, -1);
        *values_.insert(key_).first = id;
        return id;
    }

    uint32_t addValue(std::string name, int paradigm, int role)
    {
        d_.values.push_back(Value{std::move(name), paradigm, role});
        return uint32_t(d_.values.size() - 1);
    }

    void addItem(Container& c, int64_t t, ItemKind kind, uint32_t ref)
    {
        if (t < c.lastTime) c.unordered = true;
        c.lastTime = std::max(c.lastTime, t);
        c.items.push_back(Item{t, ref, kind});
    }

    void event(const EventDef& def, uint64_t n)
    {
        switch (def.kind) {
        case Ev::DefineContainerType:
        case Ev::DefineStateType:
        case Ev::DefineEventType:
        case Ev::DefineVariableType:
        case Ev::DefineLinkType:
            break;
        case Ev::DefineEntityValue: {
            const uint32_t id = addValue(validUtf8(get(def, FName), replacedBytes),
                                         intField(def, FParadigm, -1), intField(def, FRole, -1));
            key_.assign(get(def, FType)).append(1, '\n').append(get(def, FAlias));
            *values_.insert(key_).first = id;
            key_.assign(get(def, FType)).append(1, '\n').append(get(def, FName));
            if (const auto [slot, added] = values_.insert(key_); added) *slot = id;
            break;
        }
        case Ev::CreateContainer: {
            Container c;
            c.name = validUtf8(get(def, FName), replacedBytes);
            const int64_t parent = container(get(def, FContainer));
            c.parent = int32_t(parent);
            const uint32_t id = uint32_t(d_.containers.size());
            d_.containers.push_back(std::move(c));
            const string_view alias = get(def, FAlias);
            *containers_.insert(alias.empty() ? get(def, FName) : alias).first = id;
            if (const auto [slot, added] = containers_.insert(get(def, FName)); added) *slot = id;
            break;
        }
        case Ev::DestroyContainer:
            break;
        case Ev::SetVariable:
        case Ev::AddVariable:
        case Ev::SubVariable:
            ++d_.ignoredEvents;
            break;
        case Ev::SetState:
        case Ev::PushState:
        case Ev::PopState:
        case Ev::ResetState:
            state(def, n);
            break;
        case Ev::StartLink:
        case Ev::EndLink:
            link(def, n);
            break;
        case Ev::NewEvent:
            newEvent(def, n);
            break;
        }
    }

    void state(const EventDef& def, uint64_t n)
    {
        const int64_t ci = container(get(def, FContainer));
        if (ci < 0) {
            ++d_.unknownContainers;
            return;
        }
        const int64_t t = time(def, n);
        Container& c = d_.containers[size_t(ci)];
        if (def.kind == Ev::PopState) {
            if (c.open.empty()) {
                ++d_.strayPops;
                return;
            }
            addItem(c, t, ItemKind::Leave, c.open.back());
            c.open.pop_back();
            return;
        }
        if (def.kind != Ev::PushState) // SetState and ResetState end every open state
            while (!c.open.empty()) {
                addItem(c, t, ItemKind::Leave, c.open.back());
                c.open.pop_back();
            }
        if (def.kind == Ev::ResetState) return;
        const uint32_t v = value(get(def, FType), get(def, FValue));
        addItem(c, t, ItemKind::Enter, v);
        c.open.push_back(v);
    }

    void link(const EventDef& def, uint64_t n)
    {
        const bool start = def.kind == Ev::StartLink;
        const int64_t ci = container(get(def, start ? FStartContainer : FEndContainer));
        if (ci < 0) {
            ++d_.unknownContainers;
            return;
        }
        d_.containers[size_t(ci)].holdsEnds = true;
        HalfLink half;
        half.time = time(def, n);
        half.container = uint32_t(ci);
        half.place = uint32_t(d_.containers[size_t(ci)].items.size());
        half.start = start;
        half.line = n;
        MessageData& m = half.data;
        const string_view key = get(def, FKey);
        if (start) {
            m.bytes = intField<uint64_t>(def, FSize, 0);
            // SimGrid writes the size after the defined fields without a definition.
            if (def.at[FSize] < 0 && f_.n > size_t(def.fields) + 1)
                number(f_.f[size_t(def.fields) + 1], m.bytes);
            m.tag = intField<int32_t>(def, FTag, 0);
            if (def.at[FTag] < 0) { // SimGrid's key: <src>_<dst>_<tag>_<sequence>
                size_t u1 = key.find('_'), u2 = u1, u3 = u1;
                if (u1 != string_view::npos) u2 = key.find('_', u1 + 1);
                if (u2 != string_view::npos) u3 = key.find('_', u2 + 1);
                if (u3 != string_view::npos) number(key.substr(u2 + 1, u3 - u2 - 1), m.tag);
            }
            m.comm = intField<int32_t>(def, FComm, -1);
        } else {
            m.posted = parseSeconds(get(def, FPost), m.postTime);
        }
        key_.assign(get(def, FType)).append(1, '\n').append(key);
        const auto [pending, added] = d_.pendingLinks.insert(key_);
        if (added) {
            *pending = half;
            return;
        }
        if (pending->start == start) { // a key used twice: the older half stays unmatched
            ++d_.duplicateLinkKeys;
            *pending = half;
            return;
        }
        const HalfLink& s = start ? half : *pending;
        const HalfLink& e = start ? *pending : half;
        MessageData msg = s.data;
        msg.sender = s.container;
        msg.receiver = e.container;
        msg.sendTime = s.time;
        msg.recvTime = e.time;
        msg.sendPlace = s.place;
        msg.recvPlace = e.place;
        msg.posted = e.data.posted;
        msg.postTime = e.data.postTime;
        d_.messages.push_back(msg);
        d_.pendingLinks.erase(key_);
    }

    void newEvent(const EventDef& def, uint64_t n)
    {
        if (def.at[FMembers] >= 0) {
            CommData c;
            c.name = validUtf8(get(def, FValue), replacedBytes);
            c.id = intField<int64_t>(def, FId, -1);
            c.parent = intField<int64_t>(def, FParent, -1);
            const string_view members = get(def, FMembers);
            for (size_t i = 0; i < members.size();) {
                while (i < members.size() && members[i] == ' ')
                    ++i;
                size_t j = i;
                while (j < members.size() && members[j] != ' ')
                    ++j;
                uint32_t r = 0;
                if (j > i && !number(members.substr(i, j - i), r))
                    fail(d_, n, "the communicator's members are not rank numbers");
                if (j > i) c.members.push_back(r);
                i = j;
            }
            d_.comms.push_back(std::move(c));
            return;
        }
        if (def.at[FOp] < 0) {
            ++d_.ignoredEvents;
            return;
        }
        const int64_t ci = container(get(def, FContainer));
        if (ci < 0) {
            ++d_.unknownContainers;
            return;
        }
        const int64_t t = time(def, n);
        const uint32_t v = value(get(def, FType), get(def, FValue));
        Container& c = d_.containers[size_t(ci)];
        if (d_.values[v].name == "begin") {
            addItem(c, t, ItemKind::CollectiveBegin, 0);
            return;
        }
        CollectiveData coll;
        coll.op = intField(def, FOp, -1);
        coll.comm = intField<int32_t>(def, FComm, -1);
        coll.root = intField<int64_t>(def, FRoot, -1);
        coll.sent = intField<uint64_t>(def, FSent, 0);
        coll.received = intField<uint64_t>(def, FReceived, 0);
        d_.collectives.push_back(coll);
        addItem(c, t, ItemKind::CollectiveEnd, uint32_t(d_.collectives.size() - 1));
    }

    ImportData& d_;
    Fields f_;
    bool inDef_ = false;
    bool unknownDef_ = false;
    uint32_t defId_ = 0;
    EventDef def_;
    uint32_t lastId_ = UINT32_MAX;
    const EventDef* lastDef_ = nullptr;
    /// The definitions of the small event numbers (every writer's), found without hashing.
    std::array<const EventDef*, 256> byId_{};
    StringTable<uint32_t> containers_;
    StringTable<uint32_t> values_;
    std::string key_;
};

} // namespace

void parsePaje(const std::string& path, ImportData& d, const std::function<bool(double)>& progress)
{
    d.path = path;
    std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file) throw TraceError(path + ": cannot open the Paje trace: " + std::strerror(errno));
    std::fseek(file.get(), 0, SEEK_END);
    const long size = std::ftell(file.get());
    std::fseek(file.get(), 0, SEEK_SET);
    Parser parser(d);
    constexpr size_t kBlock = size_t(8) << 20;
    std::string buffer(kBlock, '\0');
    size_t kept = 0; // bytes of an unfinished line at the start of buffer
    uint64_t done = 0;
    int reported = 0;
    for (;;) {
        if (kept == buffer.size()) buffer.resize(buffer.size() * 2);
        const size_t got = std::fread(buffer.data() + kept, 1, buffer.size() - kept, file.get());
        if (got == 0) {
            if (std::ferror(file.get()))
                throw TraceError(path + ": cannot read the Paje trace: " + std::strerror(errno));
            break;
        }
        const size_t end = kept + got;
        size_t begin = 0;
        for (;;) {
            const void* nl = std::memchr(buffer.data() + begin, '\n', end - begin);
            if (!nl) break;
            const size_t at = size_t(static_cast<const char*>(nl) - buffer.data());
            parser.line(std::string_view(buffer.data() + begin, at - begin));
            begin = at + 1;
        }
        kept = end - begin;
        std::memmove(buffer.data(), buffer.data() + begin, kept);
        done += got;
        if (progress && size > 0) {
            const int now = int(100.0 * double(done) / double(size));
            if (now > reported) {
                reported = now;
                if (!progress(0.9 * double(done) / double(size))) throw Cancelled();
            }
        }
    }
    if (kept > 0) { // the last line has no newline: the file may have been cut
        d.truncated = true;
        parser.line(std::string_view(buffer.data(), kept));
    }
    parser.finish(d.lines);
    if (d.events == 0 && d.defs.empty())
        throw TraceError(path + ": not a Paje trace (no %EventDef header)");
    d.replacedBytes = parser.replacedBytes;
}

} // namespace rankscope::paje
