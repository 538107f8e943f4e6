#pragma once
// A hand-built wait analysis and root-cause report for the wait-state view tests.
//
// Trace: 4 ranks running main over [0, 5000]; user regions compute, solve. Call sites:
//   0 "main>solve:MPI_Recv", 1 "main:MPI_Barrier", 2 "main>halo:MPI_Recv".
// Waits (index: pattern, rank, call site, [begin, end) = duration, cause, direct):
//   0: Late Sender     r0 cs0 [ 100,  400) = 300  cause 1  direct
//   1: Late Sender     r0 cs0 [1000, 1500) = 500  cause 1  direct   (wrong order, same source)
//   2: Late Sender     r0 cs0 [2000, 2500) = 500  cause 2  indirect
//   3: Wait at Barrier r0 cs1 [3000, 3200) = 200  cause 3  direct
//   4: Late Sender     r1 cs0 [ 500, 1000) = 500  cause 2  indirect
//   5: Wait at Barrier r1 cs1 [3000, 3600) = 600  cause 3  direct
//   6: Wait at Barrier r2 cs1 [3100, 3400) = 300  cause 3  direct
//   7: Late Sender     r2 cs2 [4000, 4050) =  50  cause 0  direct
// Totals: 300+500+500+200+500+600+300+50 = 2950; indirect 500+500 = 1000, direct 1950;
// Late Sender 300+500+500+500+50 = 1850, Wait at Barrier 200+600+300 = 1100;
// per rank r0 1500, r1 1100, r2 350, r3 0. Waiting per call site: cs0 1800, cs1 1100, cs2 50.
//
// Root causes (charged 1900 of 2950): perFunctionRank compute@r1 900, solve@r3 700,
// compute@r2 300; perCallSite given out of cost order on purpose: cs2 compute 50 (50/50),
// cs1 compute 250 (250/1100), cs0 compute 900 (900/1800), cs1 solve 700 (700/1100).

#include "model/trace/trace.h"
#include "model/waits/rootcause.h"
#include "model/waits/waitstates.h"
#include "testsupport/handtrace.h"

#include <memory>

namespace waitfixture {

using namespace rankscope;

struct Fixture
{
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const WaitStateAnalysis> analysis;
    std::shared_ptr<const RootCauseReport> report;
    RegionId compute, solve;
};

/// A trace of `ranks` ranks, each running main over [0, 5000].
inline std::shared_ptr<const Trace> plainTrace(int ranks, RegionId* compute = nullptr,
                                               RegionId* solve = nullptr)
{
    test::HandTrace h;
    std::vector<LocationId> locations;
    for (int r = 0; r < ranks; ++r)
        locations.push_back(h.addRank());
    h.addWorld();
    const RegionId main = h.user("main");
    const RegionId c = h.user("compute"), s = h.user("solve");
    if (compute) *compute = c;
    if (solve) *solve = s;
    for (LocationId loc : locations)
        h.call(loc, main, 0, 5000);
    return std::make_shared<const Trace>(h.finish());
}

inline WaitState wait(WaitPattern p, uint32_t rank, uint32_t site, int64_t begin, int64_t end,
                      uint32_t cause, bool direct)
{
    WaitState w;
    w.pattern = p;
    w.rank = RankId(rank);
    w.callSite = CallSiteId(site);
    w.begin = begin;
    w.end = end;
    w.cause = RankId(cause);
    w.direct = direct;
    return w;
}

inline Fixture make()
{
    Fixture f;
    f.trace = plainTrace(4, &f.compute, &f.solve);
    auto a = std::make_shared<WaitStateAnalysis>();
    a->callSites.intern("main>solve:MPI_Recv");
    a->callSites.intern("main:MPI_Barrier");
    a->callSites.intern("main>halo:MPI_Recv");
    constexpr auto LS = WaitPattern::LateSender;
    constexpr auto WB = WaitPattern::WaitAtBarrier;
    a->waits = {wait(LS, 0, 0, 100, 400, 1, true),    wait(LS, 0, 0, 1000, 1500, 1, true),
                wait(LS, 0, 0, 2000, 2500, 2, false), wait(WB, 0, 1, 3000, 3200, 3, true),
                wait(LS, 1, 0, 500, 1000, 2, false),  wait(WB, 1, 1, 3000, 3600, 3, true),
                wait(WB, 2, 1, 3100, 3400, 3, true),  wait(LS, 2, 2, 4000, 4050, 0, true)};
    a->waits[1].wrongOrder = WrongOrder::SameSource;
    a->wrongOrderNs = {500, 0};
    a->byPattern[size_t(LS)] = 1850;
    a->byPattern[size_t(WB)] = 1100;
    a->totalNs = 2950;
    a->directNs = 1950;
    a->indirectNs = 1000;
    a->byRank = {1500, 1100, 350, 0};
    f.analysis = a;

    auto r = std::make_shared<RootCauseReport>();
    r->hotspots = {f.compute, f.solve};
    r->perFunctionRank = {
        {f.compute, RankId(1), 900}, {f.solve, RankId(3), 700}, {f.compute, RankId(2), 300}};
    r->perFunction = {{f.compute, 1200, 1200.0 / 2950}, {f.solve, 700, 700.0 / 2950}};
    r->perCallSite = {{CallSiteId(2), f.compute, 50, 1.0},
                      {CallSiteId(1), f.compute, 250, 250.0 / 1100},
                      {CallSiteId(0), f.compute, 900, 900.0 / 1800},
                      {CallSiteId(1), f.solve, 700, 700.0 / 1100}};
    r->totalWaitNs = 2950;
    r->explainedNs = 1900;
    f.report = r;
    return f;
}

/// An analysis that found nothing.
inline std::shared_ptr<const WaitStateAnalysis> empty(size_t ranks)
{
    auto a = std::make_shared<WaitStateAnalysis>();
    a->byRank.assign(ranks, 0);
    return a;
}

} // namespace waitfixture
