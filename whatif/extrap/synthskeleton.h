#pragma once
// Trace synthesis, step 1 (ALGORITHMS.md §5): each input trace reduced to per-rank sequences of
// steps.
//
// Design note: a step is one outermost MPI call together with the non-MPI events since the
// previous call (user regions entered and left, misc records); a rank's events after its last
// call form a final step without a call. A step's shape (event kinds, region names, tags,
// collective ops, how a completion refers back to the request it completes) is interned in one
// table shared by all scales, so a rank becomes a short sequence of step ids that can be
// compared across ranks and scales and searched for loops. What varies with the rank and the
// scale (partners, roots, sizes, times) is not copied: it is read back from the trace per
// occurrence (stepEvents, eventParams) when the template is fitted.

#include "model/support/progressreporter.h"
#include "model/trace/callsites.h"
#include "model/trace/eventstream.h"
#include "model/trace/trace.h"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace rankscope::extrap::synth {

inline constexpr uint32_t kNoSymbol = 0xFFFFFFFFu;
inline constexpr uint32_t kNoPartner = 0xFFFFFFFFu;

/// Which gaps between a rank's MPI calls are delta times (ALGORITHMS.md §1), decided exactly as
/// DeltaScanner does: from the end of MPI_Init (or the first call, for a rank that never calls
/// it) to the start of MPI_Finalize.
class DeltaSpan
{
public:
    explicit DeltaSpan(bool callsInit) : waitForInit_(callsInit) {}
    /// Called for each MPI call in order; true when the gap before it is a delta time.
    bool next(bool isInit, bool isFinalize)
    {
        if (started_ && !finished_) {
            finished_ = isFinalize;
            return true;
        }
        if (!started_ && (!waitForInit_ || isInit)) {
            started_ = true;
            finished_ = isFinalize;
        }
        return false;
    }

private:
    bool waitForInit_;
    bool started_ = false;
    bool finished_ = false;
};

/// Strings shared by all input traces (region names, call sites, program names).
using SymbolTable = CallSiteTable;

/// One event of a step without its time and without the values that depend on rank and scale.
struct EventShape
{
    EventKind kind = EventKind::Enter;
    uint8_t detail = 0;          ///< Misc: MiscKind; collective end: CollectiveOp
    bool hasRoot = false;        ///< collective end of an operation with a root
    int32_t tag = 0;             ///< point-to-point tag
    uint32_t symbol = kNoSymbol; ///< Enter/Leave: region name; Misc: the string it names
    int64_t value = 0;           ///< Misc value (exit status)
    uint32_t requestBack = 0;    ///< request completions: events back to the posting event
    /// Kept for its position only and not written: the creation or destruction record of a
    /// communicator other than MPI_COMM_WORLD (Score-P records MPI_COMM_SELF in MPI_Init).
    bool omitted = false;

    bool operator==(const EventShape&) const = default;
};

/// What an event carries that rules (ranks) and fitted series (sizes) describe.
inline bool hasPartner(EventKind k)
{
    return k == EventKind::MpiSend || k == EventKind::MpiIsend || k == EventKind::MpiRecv ||
           k == EventKind::MpiIrecv;
}
/// Rank-valued parameters of an event: a partner, or a collective root.
int rankParams(const EventShape& e);
/// Size-valued parameters: message bytes, or a collective's bytes sent and received.
int sizeParams(const EventShape& e);

struct StepShape
{
    std::vector<EventShape> events;
    uint32_t callSite = kNoSymbol; ///< kNoSymbol: the trailing events after the last call
    uint32_t callBegin = 0;        ///< index of the call's Enter in events (size for the tail)
    bool init = false;             ///< the call is MPI_Init / MPI_Init_thread
    bool finalize = false;         ///< the call is MPI_Finalize

    bool operator==(const StepShape&) const = default;
};

class StepTable
{
public:
    uint32_t intern(StepShape&& shape);
    const StepShape& shape(uint32_t id) const { return shapes_[id]; }
    size_t size() const { return shapes_.size(); }

private:
    static uint64_t hash(const StepShape& s);

    std::vector<StepShape> shapes_;
    std::unordered_multimap<uint64_t, uint32_t> index_;
};

/// One rank as steps: steps[k] starts at event firstEvent[k] of its main location.
///
/// After canonicaliseSteps, steps[k] may be the canonical step of the rank's real step real[k]:
/// the same MPI call, with other user-region events in the gap before it. Event e (>= the
/// call's begin) of the canonical shape is then event eventAt(k, e) of the trace.
struct RankSteps
{
    std::vector<uint32_t> steps;
    std::vector<uint32_t> firstEvent;
    std::vector<uint32_t> real; ///< empty: steps are the real steps
    std::vector<int32_t> shift; ///< per step: real call begin - canonical call begin

    uint32_t realStep(size_t k) const { return real.empty() ? steps[k] : real[k]; }
    uint32_t eventAt(size_t k, uint32_t e) const
    {
        return uint32_t(int64_t(firstEvent[k]) + e + (shift.empty() ? 0 : shift[k]));
    }
};

/// Unsupported input found while reading (a sub-communicator, ...), by call site.
struct SkeletonIssue
{
    std::string callSite;
    std::string reason;
    bool subCommunicator = false; ///< a communicator other than MPI_COMM_WORLD
};

/// One execution interval `A - B` at one scale: the mean delta time of each rank that runs it
/// and its delta time summed over all ranks. An interval that cannot be extrapolated (seen at
/// fewer than 3 scales) is sampled from these at the scale nearest the target.
struct IntervalSample
{
    std::vector<double> rankMeans; ///< ns, one per rank running the interval, ascending
    double totalNs = 0;
};

struct ScaleSkeleton
{
    const Trace* trace = nullptr;
    std::string label; ///< "stencil-16 (16 ranks)", for messages
    uint32_t ranks = 0;
    std::vector<RankSteps> perRank;
    /// Per execution interval `A - B`: the mean over ranks of the coefficient of variation of
    /// its delta times within a rank (the per-occurrence spread the extrapolation does not model).
    std::map<std::string, double> withinRankCv;
    std::map<std::string, IntervalSample> intervals; ///< per execution interval `A - B`
    double deltaTotalNs = 0; ///< every delta time of every rank, summed (the computation time)
    std::vector<SkeletonIssue> issues;
    std::vector<std::string> notes; ///< what the synthesised trace leaves out, and why
    bool cancelled = false;
};

/// Shared by the skeletons of all scales.
struct SkeletonContext
{
    SymbolTable symbols;
    StepTable steps;
    /// Point-to-point tags read as 0: set when the tags differ between ranks that otherwise
    /// make the same calls (NPB BT tags a message by its cell's grid coordinates), so that the
    /// roles follow the calls and partners; the synthesised messages then pair up in the order
    /// they are sent, as MPI's non-overtaking rule pairs messages of one tag.
    bool tagsSetAside = false;
};

/// Reads `trace`. Throws TraceError for input it cannot describe (broken region nesting, no
/// world communicator); unsupported features are listed in `issues`.
ScaleSkeleton readSkeleton(const Trace& trace, std::string label, SkeletonContext& context,
                           const ProgressCallback& progress = {});

/// Steps that make the same MPI call (call site, MPI events) but differ in the user-region
/// events of the gap before it (rank 0 printing, a data-dependent helper) are mapped to the
/// variant most ranks run, so the roles follow the MPI calls. Returns the call sites of the
/// steps that were mapped (with how many rank-steps each), for a warning.
std::map<std::string, uint64_t> canonicaliseSteps(std::vector<ScaleSkeleton>& scales,
                                                  SkeletonContext& context);

/// The values of one event that depend on rank and scale.
struct EventParams
{
    uint32_t partner = kNoPartner; ///< world rank of the partner, or the collective's root
    uint64_t bytes = 0;            ///< message bytes, or bytes sent by a collective member
    uint64_t received = 0;         ///< bytes received by a collective member
};

/// Looks up collective members by their end event, per location.
class MemberIndex
{
public:
    explicit MemberIndex(const Trace& trace);
    const CollectiveMember* find(LocationId loc, uint32_t endEvent) const;

private:
    const Trace& trace_;
    std::unordered_map<uint64_t, uint32_t> index_;
};

/// The parameters of event `event` of `rank`'s main location.
EventParams eventParams(const Trace& trace, const MemberIndex& members, RankId rank,
                        uint32_t event);

} // namespace rankscope::extrap::synth
