#pragma once
// What the Paje import collects while it reads a file (pajeparser.cpp) before it builds the
// trace (pajebuild.cpp): the event definitions of the header, the types, entity values and
// containers, per container its states and collective events in file order, and the messages
// from matched links.

#include "importers/paje/pajetext.h"
#include "model/trace/tracebuilder.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <string>
#include <unordered_map>
#include <vector>

namespace rankscope::paje {

/// The Paje events the import knows (the names of "%EventDef <name> <id>").
enum class Ev : uint8_t
{
    DefineContainerType,
    DefineStateType,
    DefineEventType,
    DefineVariableType,
    DefineLinkType,
    DefineEntityValue,
    CreateContainer,
    DestroyContainer,
    SetVariable,
    AddVariable,
    SubVariable,
    SetState,
    PushState,
    PopState,
    ResetState,
    StartLink,
    EndLink,
    NewEvent,
};

/// The fields an event's definition names, as positions among the line's fields (-1: absent).
enum Field : uint8_t
{
    FTime,
    FAlias,
    FType,
    FContainer,
    FName,
    FValue,
    FStartContainer,
    FEndContainer,
    FKey,
    // User fields Rankscope's export writes (pajeexport.h).
    FSize,
    FTag,
    FComm,
    FPost,
    FParadigm,
    FRole,
    FOp,
    FRoot,
    FSent,
    FReceived,
    FId,
    FParent,
    FMembers,
    FieldCount
};

struct EventDef
{
    Ev kind = Ev::NewEvent;
    int8_t at[FieldCount];
    uint8_t fields = 0; ///< fields the definition lists
    EventDef() { std::fill(std::begin(at), std::end(at), int8_t(-1)); }
};

enum class ItemKind : uint8_t
{
    Enter,           ///< ref = index into ImportData::values
    Leave,           ///< ref = index into ImportData::values
    CollectiveBegin, ///< ref unused
    CollectiveEnd,   ///< ref = index into ImportData::collectives
};

struct Item
{
    int64_t time = 0;
    uint32_t ref = 0;
    ItemKind kind = ItemKind::Enter;
};

struct Container
{
    std::string name;
    int32_t parent = -1;        ///< index into ImportData::containers; -1 for the root
    std::vector<Item> items;    ///< in file order
    std::vector<uint32_t> open; ///< values of the states pushed and not yet popped
    int64_t lastTime = INT64_MIN;
    bool unordered = false; ///< an item earlier than the one before it
    bool holdsEnds = false; ///< a link starts or ends here
};

struct Value
{
    std::string name;
    int paradigm = -1; ///< from the user field Paradigm; -1 when the file does not say
    int role = -1;
};

struct MessageData
{
    uint32_t sender = 0;   ///< container
    uint32_t receiver = 0; ///< container
    int64_t sendTime = 0;
    int64_t recvTime = 0;
    int64_t postTime = 0;
    bool posted = false; ///< postTime holds the posting of a non-blocking receive
    /// Where the link's start and end were read among their container's items (the number of
    /// items before them), which is exact where the container's items are in time order.
    uint32_t sendPlace = 0;
    uint32_t recvPlace = 0;
    int32_t tag = 0;
    int32_t comm = -1; ///< Rankscope's communicator index; -1: the world
    uint64_t bytes = 0;
};

struct CollectiveData
{
    int op = -1; ///< CollectiveOp; -1 when unknown
    int32_t comm = -1;
    int64_t root = -1;
    uint64_t sent = 0;
    uint64_t received = 0;
};

struct CommData
{
    std::string name;
    int64_t id = 0;
    int64_t parent = -1;
    std::vector<uint32_t> members; ///< world ranks
};

/// One end of a link seen before its other end.
struct HalfLink
{
    int64_t time = 0;
    uint32_t container = 0;
    uint32_t place = 0; ///< items of its container read before it
    bool start = true;
    uint64_t line = 0;
    MessageData data; ///< what the start carried (size, tag, comm) or the end (post)
};

struct ImportData
{
    std::string path;
    uint64_t definitions = 0; ///< %EventDef blocks read
    std::vector<Container> containers;
    std::vector<Value> values;
    StringTable<HalfLink> pendingLinks; ///< by "<type>\n<key>"
    std::vector<MessageData> messages;
    std::vector<CollectiveData> collectives;
    std::vector<CommData> comms;
    uint64_t lines = 0;
    uint64_t events = 0;        ///< event lines read
    uint64_t unknownEvents = 0; ///< lines whose event id no definition gives
    uint64_t ignoredEvents = 0; ///< variables and other events without a model counterpart
    uint64_t unknownContainers = 0;
    uint64_t strayPops = 0; ///< pops with no pushed state
    uint64_t duplicateLinkKeys = 0;
    uint64_t replacedBytes = 0;        ///< bytes of names that were not UTF-8, replaced by '?'
    uint64_t negativeTimes = 0;        ///< events before time 0
    int64_t earliestNegative = 0;      ///< the earliest of them (ns)
    uint64_t earliestNegativeLine = 0; ///< and its line
    bool truncated = false;            ///< the last line has no newline
    std::string partialMark;           ///< a "# rankscope: written from a partial trace" comment
    uint64_t partialMarkLine = 0;      ///< and its line
};

/// Reads every line of `path` into `data` (pajeparser.cpp), the text cut on a second thread
/// when `threads` > 1 (importers/linepipeline.h); the result is the same. Throws TraceError
/// naming the file and line for what cannot be read.
void parsePaje(const std::string& path, ImportData& data,
               const std::function<bool(double)>& progress, unsigned threads = 1);

/// Turns what was read into a trace (pajebuild.cpp).
Trace buildPajeTrace(ImportData& data, unsigned threads);

/// The Paje event an %EventDef names ("PajePushState"); false for one the import does not know
/// (pajetext.cpp).
bool eventOf(std::string_view name, Ev& e);

/// The Field a definition's field name is ("Time", "Container", "Size"...), or -1.
int fieldOf(std::string_view name);

/// Seconds in the Paje text ("12.345678901", "-0.5", "1e-06") as ns; false when not a number.
bool parseSeconds(std::string_view s, int64_t& ns);

/// The model's name of a state value as SimGrid's SMPI names it: PMPI_Send -> MPI_Send,
/// action_allreduce -> MPI_Allreduce, smpi_replay_run_init -> MPI_Init; others unchanged.
std::string modelName(std::string_view smpiName);

} // namespace rankscope::paje
