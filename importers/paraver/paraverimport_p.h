#pragma once
// What the Paraver import collects from the records before it builds the trace: per thread the
// region, collective and misc events in file order, and the message ends, which are placed into
// the thread's MPI calls once every record is read (paraverplacement.cpp).

#include "importers/paraver/paraverheader.h"
#include "importers/paraver/paraverpcf.h"
#include "model/trace/tracebuilder.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace rankscope::paraver {

enum class ItemKind : uint8_t
{
    Enter,           ///< ref = RegionId
    Leave,           ///< ref = RegionId
    CollectiveBegin, ///< ref = index into ImportData::collectives
    CollectiveEnd,   ///< ref = index into ImportData::collectives
    Misc,            ///< ref = index into ImportData::misc
};

struct Item
{
    int64_t time = 0;
    uint32_t ref = 0;
    ItemKind kind = ItemKind::Enter;
};

enum class EndKind : uint8_t
{
    Send,    ///< the logical send
    Post,    ///< the logical receive: where a non-blocking receive was posted
    Receive, ///< the physical receive
};

/// A message end with what the build needs of its message (kept here rather than in a table of
/// messages, which the build of each thread would read at random, a cache miss per end).
struct End
{
    int64_t time = 0;
    uint64_t bytes = 0;
    uint32_t message = 0;
    uint32_t partner = 0; ///< world rank: the receiver of a send, the sender of a receive
    int32_t tag = 0;
    EndKind kind = EndKind::Send;
};

struct ThreadData
{
    uint32_t rank = 0;   ///< world rank of its task
    uint32_t thread = 0; ///< 1-based thread of the task
    uint32_t app = 0;    ///< 0-based application
    std::vector<Item> items;
    std::vector<End> ends;
    std::vector<Item> states; ///< Enter/Leave of state regions, for the thread's state location
    int64_t lastEvent = 0;    ///< time of its last event record, while reading
    int64_t lastState = 0;    ///< begin of its last state record, while reading
    struct Open
    {
        uint64_t type;
        RegionId region;
        uint32_t collective; ///< index into collectives, or kNone
    };
    std::vector<Open> open; ///< regions entered and not yet left, while reading
};

inline constexpr uint32_t kNone = 0xFFFFFFFFu;

struct CollectiveData
{
    CollectiveOp op = CollectiveOp::Other;
    CommId comm;
    bool isRoot = false;
    uint64_t sent = 0;
    uint64_t received = 0;
    uint32_t root = kNoRoot; ///< rank in comm, decided once every member is read
    uint32_t index = 0;      ///< the k-th collective of its rank on its communicator
    bool hasDetails = false; ///< its entry carried sizes, root or communicator (50100001..4)
};

/// Everything read from the .prv (and .pcf), and the builder holding the definitions so far.
struct ImportData
{
    Header header;
    Labels labels;
    bool haveLabels = false;
    std::vector<std::string> nodeNames;    ///< from the .row: the host of each node
    std::vector<uint32_t> appFirstRank;    ///< world rank of each application's task 1
    std::vector<uint32_t> rankFirstThread; ///< index into threads of each rank's thread 1
    std::vector<ThreadData> threads;
    uint32_t messages = 0; ///< "3:" records read (their ends are in the threads' ends)
    std::vector<CollectiveData> collectives;
    std::vector<MiscEvent> misc;
    std::vector<CommId> appWorld; ///< the communicator of all tasks of each application
    CommId world;                 ///< all ranks; point-to-point messages use it
    std::map<std::pair<uint32_t, uint64_t>, CommId> comms;    ///< by (application, "c:" id)
    std::map<std::pair<uint64_t, int64_t>, RegionId> regions; ///< by (type, value)
    std::map<uint64_t, RegionId> stateRegions;                ///< by state value
    std::map<uint64_t, StringId> miscNames;                   ///< by event type
    std::vector<std::string> regionNames;                     ///< by RegionId
    std::vector<bool> regionIsMpi;                            ///< by RegionId
    std::vector<std::vector<RankId>> commMembers;             ///< by CommId
    /// Whether any collective carried details: then a collective-type call without them (an
    /// MPI_Comm_dup, say) performed no collective operation.
    bool anyDetails = false;
    uint64_t unmatchedExits = 0;
    uint64_t unknownComms = 0;
    uint64_t unlabelledMpiValues = 0;
    uint64_t unlabelledRegionValues = 0; ///< user regions named "function N" (no label)
    std::string partialMark;             ///< a "# rankscope: written from a partial..." record
    uint64_t partialMarkLine = 0;        ///< and its line
    TraceBuilder builder;
};

/// Whether collective `c` is an operation of the trace (see anyDetails).
inline bool keptCollective(const ImportData& d, uint32_t c)
{
    return !d.anyDetails || d.collectives[c].hasDetails;
}

/// Reads the header and every record of `path` into `data` (paraverparser.cpp), the text cut
/// on a second thread when `threads` > 1 (importers/linepipeline.h); the result is the same.
void parseParaver(const std::string& path, ImportData& data,
                  const std::function<bool(double)>& progress, unsigned threads = 1);

/// Places the message ends into the MPI calls and hands every event to the builder
/// (paraverplacement.cpp), the threads of the trace on `threads` threads.
void buildEvents(ImportData& data, unsigned threads = 1);

} // namespace rankscope::paraver
