#include "model/generator/pingpongpattern.h"

#include "model/generator/generatorcontext.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace rankscope {

namespace {

enum Slot : size_t
{
    Prepare,
    Compute
};
constexpr int32_t kPingTag = 1;
constexpr int32_t kPongTag = 2;

} // namespace

PingPongPattern::PingPongPattern(uint32_t ranks) : ranks_(ranks)
{
    if (ranks % 2 != 0)
        throw TraceError("pattern pingpong pairs ranks 2k and 2k+1 and needs an even number of "
                         "ranks; " +
                         std::to_string(ranks) + " is odd");
}

std::vector<ComputeRegion> PingPongPattern::defaultRegions() const
{
    // Every pair works on its own: the work per rank does not depend on n (weak scaling).
    return {{"prepare", 50e3, ScalingLaw::Constant}, {"compute", 1e6, ScalingLaw::Constant}};
}

void PingPongPattern::prepare(GeneratorContext& ctx)
{
    send_ = ctx.addMpiRegion("MPI_Send", RegionRole::MpiPointToPoint);
    recv_ = ctx.addMpiRegion("MPI_Recv", RegionRole::MpiPointToPoint);
    bytes_ = static_cast<uint64_t>(std::llround(std::max(0.0, ctx.messageBytes())));
}

void PingPongPattern::runIteration(GeneratorContext& ctx, uint32_t iteration)
{
    TraceBuilder& b = ctx.builder();
    const int64_t half = ctx.halfCallNs(), call = ctx.callNs();
    const uint64_t bytes = bytes_ << (iteration % std::max(1u, ctx.options().sizeSteps));
    const int64_t transfer = ctx.transferNs(bytes);
    // Eager sends: a blocking send returns after its own work; the receive completes when the
    // message has arrived (or right away if it was already there).
    auto send = [&](uint32_t from, uint32_t to, int32_t tag) {
        const int64_t t = ctx.now(from);
        b.enter(ctx.location(from), t, send_);
        b.send(ctx.location(from), t + half, to, ctx.world(), tag, bytes);
        b.leave(ctx.location(from), t + call, send_);
        ctx.setNow(from, t + call);
        return t + half;
    };
    auto recv = [&](uint32_t at, uint32_t from, int32_t tag, int64_t sent) {
        const int64_t t = ctx.now(at);
        const int64_t done = std::max(t + half, sent + transfer);
        b.enter(ctx.location(at), t, recv_);
        b.recv(ctx.location(at), done, from, ctx.world(), tag, bytes);
        b.leave(ctx.location(at), done + half, recv_);
        ctx.setNow(at, done + half);
    };

    // Pairs are independent, so each pair's iteration is simulated to its end in one go.
    for (uint32_t a = 0; a + 1 < ranks_; a += 2) {
        const uint32_t odd = a + 1;
        ctx.enterIteration(a);
        ctx.enterIteration(odd);
        ctx.compute(a, Prepare);
        const int64_t ping = send(a, odd, kPingTag);
        recv(odd, a, kPingTag, ping);
        ctx.compute(odd, Compute);
        ctx.compute(odd, Prepare);
        const int64_t pong = send(odd, a, kPongTag);
        recv(a, odd, kPongTag, pong);
        ctx.compute(a, Compute);
        ctx.leaveIteration(a);
        ctx.leaveIteration(odd);
    }
}

} // namespace rankscope
