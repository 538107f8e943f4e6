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

#include "importers/linepipeline.h"
#include "importers/paje/pajeimport_p.h"
#include "importers/paje/pajetext.h"
#include "importers/textsource.h"
#include "model/trace/partialmark.h"
#include "model/trace/traceerror.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string_view>

namespace rankscope::paje {

namespace {

using std::string_view;
using text::LineBlock;

[[noreturn]] void fail(const ImportData& d, uint64_t line, const std::string& what)
{
    throw TraceError(d.path + ":" + std::to_string(line) + ": " + what);
}

/// A field of a line: where it starts in the line and its length (half a string_view: the
/// tokens of a block are written by one thread and read by another, so their size counts).
struct FieldAt
{
    uint32_t at = 0;
    uint32_t length = 0;
};

/// One event line as the tokenizer cut it: its definition, its fields after the event number
/// (in LineTokens::fields), its time and the hash of the container it names.
struct Line
{
    uint64_t number = 0;
    const char* text = nullptr; ///< the line's first byte
    const EventDef* def = nullptr;
    int64_t time = 0;
    uint64_t containerHash = 0; ///< hashOf the field naming its container
    uint32_t first = 0;         ///< its fields 1..count-1: LineTokens::fields[first, ...)
    uint8_t count = 0;          ///< fields with the event number
    bool timeOk = false;        ///< the time field is a time (checked where the event needs it)
};

struct LineTokens
{
    std::vector<Line> lines;
    std::vector<FieldAt> fields;
    void clear()
    {
        lines.clear();
        fields.clear();
    }
};

/// The first stage (linepipeline.h): the header's definitions, and each event line split into
/// fields with its event number, definition, time and container hash. Owns the definitions,
/// which the second stage reads through pointers that stay valid (a deque, never changed once
/// a block is closed).
class Tokenizer
{
public:
    explicit Tokenizer(const std::string& path) : path_(path) {}

    void line(string_view s, uint64_t n, LineTokens& out)
    {
        if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
        if (inDef_) {
            header(s, n);
            return;
        }
        size_t i = 0;
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
            ++i;
        if (i == s.size()) return;
        if (s[i] == '#') {
            if (partialMark.empty() && isPartialMark(s.substr(i + 1))) {
                partialMark = std::string(s.substr(i + 1));
                partialMarkLine = n;
            }
            return;
        }
        if (s[i] == '%') {
            header(s.substr(i), n);
            return;
        }
        if (!split(s, f_)) fail(n, "a double quote is not closed");
        uint32_t id = 0;
        if (!number(f_.f[0], id)) fail(n, "\"" + std::string(f_.f[0]) + "\" is no event number");
        if (id < byId_.size()) {
            lastDef_ = byId_[id];
        } else if (id != lastId_) {
            const auto it = defs_.find(id);
            lastDef_ = it == defs_.end() ? nullptr : it->second;
            lastId_ = id;
        }
        if (!lastDef_) {
            ++unknownEvents;
            return;
        }
        ++events;
        const EventDef& def = *lastDef_;
        if (f_.n - 1 < def.fields)
            fail(n, "event " + std::to_string(id) + " has " + std::to_string(f_.n - 1) +
                        " field(s), its definition " + std::to_string(def.fields));
        Line& l = out.lines.emplace_back();
        l.number = n;
        l.def = &def;
        l.text = s.data();
        l.first = uint32_t(out.fields.size());
        l.count = uint8_t(f_.n);
        for (size_t k = 1; k < f_.n; ++k)
            out.fields.push_back({uint32_t(f_.f[k].data() - s.data()), uint32_t(f_.f[k].size())});
        const int at = def.at[FTime];
        if (at > 0 && size_t(at) < f_.n) l.timeOk = parseSeconds(f_.f[size_t(at)], l.time);
        const Field named = def.kind == Ev::StartLink ? FStartContainer
                            : def.kind == Ev::EndLink ? FEndContainer
                                                      : FContainer;
        const int c = def.at[named];
        l.containerHash = hashOf(c > 0 && size_t(c) < f_.n ? f_.f[size_t(c)] : string_view());
    }

    /// After the last line: a header block left open is an error.
    void finish(uint64_t n) const
    {
        if (inDef_) fail(n, "the file ends inside %EventDef (no %EndEventDef)");
    }

    uint64_t definitions() const { return store_.size(); }
    uint64_t events = 0;        ///< event lines read
    uint64_t unknownEvents = 0; ///< lines whose event id no definition gives
    std::string partialMark;    ///< a "# rankscope: written from a partial trace" comment
    uint64_t partialMarkLine = 0;

private:
    [[noreturn]] void fail(uint64_t line, const std::string& what) const
    {
        throw TraceError(path_ + ":" + std::to_string(line) + ": " + what);
    }

    void header(string_view s, uint64_t n)
    {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
            s.remove_prefix(1);
        if (s.empty()) return; // a blank line inside %EventDef
        if (s.front() != '%') fail(n, "a line inside %EventDef does not start with %");
        Fields h;
        split(s.substr(1), h);
        if (!inDef_) {
            if (h.n == 0 || h.f[0] != "EventDef") return; // a comment line of the header
            Ev e;
            uint32_t id = 0;
            if (h.n < 3 || !number(h.f[2], id)) fail(n, "%EventDef needs an event name and number");
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
        if (h.n > 0 && h.f[0] == "EndEventDef") {
            inDef_ = false;
            if (!unknownDef_) {
                // A new definition of a number gets a new entry: lines already cut keep theirs.
                const EventDef* def = &store_.emplace_back(def_);
                defs_[defId_] = def;
                if (defId_ < byId_.size()) byId_[defId_] = def;
            }
            lastId_ = UINT32_MAX;
            return;
        }
        if (h.n == 0) return;
        if (h.f[0] == "EventDef") fail(n, "%EventDef inside %EventDef");
        if (size_t(def_.fields) + 1 >= kMaxFields)
            fail(n, "an event definition with too many fields");
        const int field = fieldOf(h.f[0]);
        if (field >= 0 && def_.at[field] < 0) def_.at[field] = int8_t(def_.fields + 1);
        ++def_.fields;
    }

    std::string path_;
    Fields f_;
    bool inDef_ = false;
    bool unknownDef_ = false;
    uint32_t defId_ = 0;
    EventDef def_;
    std::deque<EventDef> store_;
    std::unordered_map<uint32_t, const EventDef*> defs_; ///< by event id
    uint32_t lastId_ = UINT32_MAX;
    const EventDef* lastDef_ = nullptr;
    /// The definitions of the small event numbers (every writer's), found without hashing.
    std::array<const EventDef*, 256> byId_{};
};

/// The second stage: containers, entity values, states, links and collectives from the lines
/// the tokenizer cut, in file order.
class Parser
{
public:
    Parser(ImportData& d, uint64_t fileSize) : d_(d), fileSize_(fileSize) {}

    void take(const LineBlock<LineTokens>& block)
    {
        const LineTokens& t = block.tokens;
        for (const Line& l : t.lines) {
            line_ = &l;
            f_ = t.fields.data() + l.first;
            n_ = l.count;
            text_ = l.text;
            event(*l.def, l.number);
        }
        if (!reserved_ && fileSize_ > 0 && block.offset >= fileSize_ / 50 && !block.last) {
            // Growing the containers' items by doubling copied each item twice on average: once
            // 2 % of the file is read, each container is sized for the whole file at its rate
            // so far (plus 5 %).
            reserved_ = true;
            const double scale = 1.05 * double(fileSize_) / double(block.offset);
            for (Container& c : d_.containers)
                c.items.reserve(size_t(double(c.items.size()) * scale) + 16);
        }
    }

    uint64_t replacedBytes = 0;

private:
    string_view get(const EventDef& def, Field field) const
    {
        const int at = def.at[field];
        return at > 0 && size_t(at) < n_ ? fieldText(size_t(at)) : string_view();
    }

    /// Field k (k >= 1) of the line.
    string_view fieldText(size_t k) const
    {
        const FieldAt& f = f_[k - 1];
        return string_view(text_ + f.at, f.length);
    }

    int64_t time(const EventDef& def, uint64_t n) const
    {
        if (!line_->timeOk) fail(d_, n, "\"" + std::string(get(def, FTime)) + "\" is no time");
        if (line_->time < 0) {
            if (d_.negativeTimes == 0 || line_->time < d_.earliestNegative) {
                d_.earliestNegative = line_->time;
                d_.earliestNegativeLine = n;
            }
            ++d_.negativeTimes;
        }
        return line_->time;
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

    /// The container the line's container field names (hashed by the tokenizer), or -1.
    int64_t lineContainer(string_view key)
    {
        const uint32_t* c = containers_.find(key, line_->containerHash);
        return c ? int64_t(*c) : -1;
    }

    /// The entity value `v` of type `type`, defined on first use when no definition names it.
    uint32_t value(string_view type, string_view v)
    {
        // A file names a few values over and over: a small cache (by the value's length and
        // last bytes) before the table, cleared when a definition changes one.
        const size_t slot = v.empty() ? 0
                                      : v.size() * 31 + size_t(uint8_t(v.back())) * 7 +
                                            (v.size() > 1 ? size_t(uint8_t(v[v.size() - 2])) : 0);
        RecentValue& recent = recentValues_[slot % recentValues_.size()];
        if (recent.used && recent.value == v && recent.type == type) return recent.id;
        key_.assign(type).append(1, '\n').append(v);
        uint32_t id = 0;
        if (const uint32_t* found = values_.find(key_)) {
            id = *found;
        } else {
            id = addValue(validUtf8(v, replacedBytes), -1, -1);
            *values_.insert(key_).first = id;
        }
        recent.type.assign(type);
        recent.value.assign(v);
        recent.id = id;
        recent.used = true;
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
            for (RecentValue& r : recentValues_)
                r.used = false;
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
        const int64_t ci = lineContainer(get(def, FContainer));
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
        const int64_t ci = lineContainer(get(def, start ? FStartContainer : FEndContainer));
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
            if (def.at[FSize] < 0 && n_ > size_t(def.fields) + 1)
                number(fieldText(size_t(def.fields) + 1), m.bytes);
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
        const int64_t ci = lineContainer(get(def, FContainer));
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
    uint64_t fileSize_ = 0; ///< bytes (compressed for a .gz, whose offsets count the same)
    bool reserved_ = false;
    const Line* line_ = nullptr;
    const FieldAt* f_ = nullptr; ///< the line's fields after its event number
    const char* text_ = nullptr;
    size_t n_ = 0;
    StringTable<uint32_t> containers_;
    StringTable<uint32_t> values_;
    struct RecentValue
    {
        std::string type, value;
        uint32_t id = 0;
        bool used = false;
    };
    std::array<RecentValue, 64> recentValues_;
    std::string key_;
};

} // namespace

void parsePaje(const std::string& path, ImportData& d, const std::function<bool(double)>& progress,
               unsigned threads)
{
    d.path = path;
    text::TextSource source(path, "Paje trace");
    Tokenizer tokenizer(path);
    Parser parser(d, source.size());
    int reported = 0;
    text::runLinePipeline<LineTokens>(
        source,
        [&](string_view line, uint64_t n, LineTokens& out) { tokenizer.line(line, n, out); },
        [&](const LineBlock<LineTokens>& block) {
            parser.take(block);
            d.lines = block.firstLine + block.lines - 1;
            d.truncated = block.unterminated;
            if (progress && source.size() > 0) {
                const double done = std::min(1.0, double(block.offset) / double(source.size()));
                if (int(100 * done) > reported) {
                    reported = int(100 * done);
                    if (!progress(0.9 * done)) throw Cancelled();
                }
            }
        },
        [&](uint64_t n) { fail(d, n, "a line longer than 64 MiB: not a Paje trace"); }, threads);
    tokenizer.finish(d.lines);
    d.events = tokenizer.events;
    d.unknownEvents = tokenizer.unknownEvents;
    d.partialMark = tokenizer.partialMark;
    d.partialMarkLine = tokenizer.partialMarkLine;
    d.definitions = tokenizer.definitions();
    if (d.events == 0 && d.definitions == 0)
        throw TraceError(path + ": not a Paje trace (no %EventDef header)");
    d.replacedBytes = parser.replacedBytes;
}

} // namespace rankscope::paje
