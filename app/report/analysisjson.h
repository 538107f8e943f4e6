#pragma once
// The JSON forms of the profile, the interval table, the wait states and their root causes,
// shared by `rankscope-cli profile --json`, `intervals --json`, `waitstates --json`,
// `rootcause --json` and `rankscope-mpi analyse --json`, so the desktop and the MPI back end print
// the same keys from the same code.

#include "model/deltas/intervals.h"
#include "model/profile/profile.h"
#include "model/waits/rootcause.h"
#include "model/waits/waitstates.h"

#include <nlohmann/json.hpp>

namespace rankscope {

class Trace;

/// {"min", "mean", "max"} of a spread over ranks.
nlohmann::ordered_json rankSpreadJson(const RankSpread& s);
/// `profile --json`: ranks, MPI time per rank and one row per region entered, by descending
/// exclusive time. Reads only the definitions of `trace`.
nlohmann::ordered_json profileJson(const Trace& trace, const Profile& profile);
/// `intervals --json`: ranks, the delta sums S(r) and one row per execution interval.
nlohmann::ordered_json intervalsJson(size_t rankCount, const IntervalTable& table);
/// `waitstates --json`: totals per pattern, rank and call site (reads no `waits`).
nlohmann::ordered_json waitStatesJson(const WaitStateAnalysis& a);
/// `rootcause --json`: hotspots and the waiting charged to them; call sites named by `callSites`
/// (the wait analysis' table).
nlohmann::ordered_json rootCauseJson(const Trace& trace, const CallSiteTable& callSites,
                                     const RootCauseReport& r);

} // namespace rankscope
