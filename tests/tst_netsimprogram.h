#pragma once
// Action programs written call by call, for the network model tests.

#include "whatif/netsim/actionprogram.h"

#include <initializer_list>
#include <vector>

namespace rankscope::netsim::test {

struct Program
{
    explicit Program(uint32_t ranks) : perRank(ranks) { p.startNs.assign(ranks, 0.0); }
    uint32_t message(uint32_t src, uint32_t dst, uint64_t bytes)
    {
        p.messages.push_back(ProgramMessage{src, dst, bytes});
        return uint32_t(p.messages.size() - 1);
    }
    void call(uint32_t r, std::initializer_list<Action> inner)
    {
        perRank[r].push_back({ActionKind::Enter, 0, 0});
        perRank[r].insert(perRank[r].end(), inner);
        perRank[r].push_back({ActionKind::Leave, 0, 0});
    }
    void send(uint32_t r, uint32_t m)
    {
        call(r, {{ActionKind::PostSend, m, 0}, {ActionKind::WaitSend, m, 0}});
    }
    void recv(uint32_t r, uint32_t m)
    {
        call(r, {{ActionKind::PostRecv, m, 0}, {ActionKind::WaitRecv, m, 0}});
    }
    void compute(uint32_t r, double ns) { perRank[r].push_back({ActionKind::Compute, 0, ns}); }
    ActionProgram finish()
    {
        p.rankBegin.clear();
        p.actions.clear();
        for (const auto& actions : perRank) {
            p.rankBegin.push_back(p.actions.size());
            p.actions.insert(p.actions.end(), actions.begin(), actions.end());
        }
        p.rankBegin.push_back(p.actions.size());
        return p;
    }
    ActionProgram p;
    std::vector<std::vector<Action>> perRank;
};

} // namespace rankscope::netsim::test
