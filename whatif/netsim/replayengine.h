#pragma once
// The discrete-event replay (ALGORITHMS.md §7.1-7.2): runs every rank's action list against a
// network model with one event queue and one clock.
//
// Design note: a rank runs its actions inline until it must wait (for a message, or because
// its clock passed the queue's head, when it yields to keep global time order); it is resumed
// by an event. Ties in the queue go by insertion order, so a replay is bit-for-bit
// reproducible. Per-rank state is one cache line; per-message state one 56-byte
// slot (collective messages reuse freed slots), so memory stays small at a million ranks.
// At that scale nearly every rank state, action and slot is a cache miss, so before taking an
// event the engine prefetches for the ranks queued a few events behind it; below a few
// thousand ranks all of that stays cached and the prefetching is skipped (it was an eighth of
// the instructions of a 256-rank alltoall replay).
// Point-to-point protocol: up to the eager limit a send completes after o_s and the data flows
// at once; above it (rendezvous) the transfer starts when both sides have posted and the send
// completes when the data has arrived. A receive completes o_r after both data and the receive.
// Under the analytic model a pairwise-exchange alltoall is evaluated round by round once all
// its members have entered, when that gives the same times (pairwiseexchange.h).

#include "model/support/progressreporter.h"
#include "whatif/netsim/actionprogram.h"
#include "whatif/netsim/collectiveschedule.h"
#include "whatif/netsim/collslottable.h"
#include "whatif/netsim/eventqueue.h"
#include "whatif/netsim/hugepageallocator.h"
#include "whatif/netsim/machine.h"
#include "whatif/netsim/networkmodel.h"
#include "whatif/netsim/phasebarrier.h"

#include <array>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace rankscope::netsim {

struct EngineOptions
{
    uint64_t eagerLimit = 64 * 1024;
    std::array<Algorithm, 9> algorithms{}; ///< per CollKind
    uint32_t wideAreaStreams = 1;          ///< the grid algorithms' n (§8)
    bool recordTimes = false;              ///< keep the simulated time of every action
    /// Pairwise exchanges round by round where that gives the same times (pairwiseexchange.h);
    /// false: message by message always (to compare the two).
    bool exchangeByRounds = true;
    ProgressCallback progress;
};

struct ReplayOutcome
{
    std::vector<double> endNs;       ///< per rank: when its last action finished
    std::vector<double> mpiNs;       ///< per rank: time inside MPI calls
    std::vector<double> actionTimes; ///< per action when recorded: when it happened
    uint64_t transfers = 0;          ///< network transfers (point-to-point and collective messages)
    bool cancelled = false;
};

class ReplayEngine : public TransferSink
{
public:
    /// `makeModel` builds the network model on this engine (its sink).
    ReplayEngine(const ActionProgram& program, const Machine& machine, EngineOptions options);
    ~ReplayEngine() override;
    void setModel(std::unique_ptr<NetworkModel> model)
    {
        model_ = std::move(model);
        timeOrdered_ = model_ && model_->needsTimeOrder();
        immediate_ = model_ && exchangeable_ && !timeOrdered_ ? model_->immediate() : nullptr;
    }
    NetworkModel& model() { return *model_; }
    /// Runs to the end; throws TraceError if ranks wait for each other forever.
    ReplayOutcome run();

    void delivered(uint32_t transfer, double time) override;
    void scheduleModelEvent(double time, uint32_t payload) override;

private:
    enum EventKind : uint32_t
    {
        kResume,
        kStartTransfer,
        kModel
    };
    struct Slot
    {
        uint32_t src = kNoRank;
        uint32_t dst = kNoRank;
        double bytes = 0;
        double sendReady = -1, recvReady = -1, arrival = -1, sendDone = -1, recvDone = -1;
        uint8_t consumed = 0;
        Placement placement = Placement::Policy;
    };

    /// Which MPI call (1 for the first after MPI_Init) rank `r` waits in.
    uint64_t mpiCallOf(uint32_t r) const;
    /// Where rank `first` waits, for whom, and where that rank waits, for the deadlock's error;
    /// `blame` becomes the first rank of the chain that waits on a message, when `first` waits
    /// in a collective.
    std::string waitChain(uint32_t first, uint32_t& blame) const;
    /// Pops the next event, prefetching for those behind it.
    SimEvent takeEvent();
    /// Starts fetching what rank `r`'s next collective round will touch at its partner.
    void prefetchPartner(uint32_t r) const;
    /// Runs rank `r` until it waits or yields (kRecord: keeping each action's time).
    template <bool kRecord> void advance(uint32_t r);
    bool collective(uint32_t r, const Action& a, double& t);
    /// Rank `r` enters pairwise exchange `a` at `t`: false while members are missing; for the
    /// last one, evaluates the exchange, sends the others on and sets `t` to its exit.
    bool exchange(uint32_t r, const Action& a, const CollectiveSchedule& schedule, double& t);
    /// Whether the times of pairwise exchanges follow from their members' entries alone
    /// (pairwiseexchange.h), as far as the program and the machine tell.
    bool exchangesByRounds() const;
    // The steps of a message, run a few times per message: defined in replayengine.cpp and
    // inlined into advance() and collective() (as calls they cost a tenth of a replay).
    /// Saves where rank `r` stopped (`pc`, at `t`), having started at `begin`.
    inline void stop(uint32_t r, double t, size_t begin, size_t pc);
    inline void resumeLater(uint32_t r, double time);
    inline bool waitSide(uint32_t r, uint32_t slot, bool send, double& t);
    inline double postSend(uint32_t slot, double t);
    inline void postRecv(uint32_t slot, double t);
    inline void startTransfer(uint32_t slot, double time);
    inline void setDone(uint32_t slot, bool send, double time);
    inline uint32_t collSlot(uint32_t instance, uint32_t round, uint32_t sender, uint32_t receiver);
    /// The schedule of collective `ref`, built once while ranks are in it.
    inline const CollectiveSchedule& scheduleOf(uint32_t ref);
    bool eager(const Slot& s) const { return s.bytes <= double(options_.eagerLimit); }

    const ActionProgram& program_;
    const Machine& machine_;
    EngineOptions options_;
    std::unique_ptr<NetworkModel> model_;
    bool timeOrdered_ = false;            // model_->needsTimeOrder(), asked once
    bool exchangeable_ = false;           // exchangesByRounds()
    ImmediateModel* immediate_ = nullptr; // the model, when exchanges go round by round
    bool prefetch_ = false;               // enough ranks that their state misses the cache
    EventQueue queue_;
    double clock_ = 0;
    double sendOverhead_, recvOverhead_;
    ProgressReporter progress_;

    // One rank's state in one cache line: a replay touches ranks in event order, which at a
    // million ranks is close to random, so one miss per rank instead of one per field.
    struct alignas(64) RankState
    {
        double now = 0, enter = 0, mpi = 0;
        size_t pc = 0, end = 0;         // next action, end of the rank's actions
        uint32_t blockedSlot = kNoRank; // kNoRank when running or ready
        uint32_t collRound = 0;
        uint32_t collSend = kNoRank, collRecv = kNoRank;
        uint8_t blockedSend = 0;
        uint8_t collPhase = 0; // 0 round start, 3 boundary passed, 1/2 wait send/recv,
                               // kEntered, kExchanged
    };
    static_assert(sizeof(RankState) == 64);
    // collPhase of a rank in a pairwise exchange evaluated round by round: waiting for the
    // other members to enter; sent on by the last one (now holds its exit).
    static constexpr uint8_t kEntered = 4, kExchanged = 5;
    std::vector<RankState, HugePageAllocator<RankState>> ranks_;

    std::vector<Slot, HugePageAllocator<Slot>> slots_;
    std::vector<uint32_t> freeSlots_;
    CollSlotTable collSlots_;
    // Schedules of the collectives in progress, by instance modulo the size: building one on
    // every resume cost a tenth of a replay.
    struct CachedSchedule
    {
        uint32_t ref = kNoRank;
        std::optional<CollectiveSchedule> schedule;
    };
    std::array<CachedSchedule, 64> schedules_;
    PhaseBarrier barrier_;
    std::vector<uint32_t> released_;
    // Entry times of the pairwise exchanges being entered, by instance (member order).
    struct Entering
    {
        uint32_t count = 0;
        std::vector<double> times;
    };
    std::unordered_map<uint32_t, Entering> entering_;
    std::vector<double> times_;
    uint64_t transfers_ = 0;
    uint64_t actionsDone_ = 0;
    uint32_t finished_ = 0;
};

} // namespace rankscope::netsim
