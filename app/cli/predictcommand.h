#pragma once
// `rankscope-cli predict --target N [--network SPEC] [--set KEY=VALUE]... [--model M]
// [--method classic|rankscope] [--seed S] [--max-events E]
// [--max-unruled-share PCT] [--calibrate|--no-calibrate] [--measured TRACE] [-o OUT] [--json]
// TRACE...`: the scale what-if (ALGORITHMS.md §5). Synthesises the trace of N ranks from traces of
// one program at 3 or more smaller scales, replays it on a network spec (default: the bundled
// ib-switch) and prints the predicted run time; -o writes the predicted trace as OTF2. A program
// whose pattern cannot be carried to N is refused (exit 1) naming each call site and the reason.
// --calibrate (the default when no --network is given; --no-calibrate turns it off) first fits the
// spec to the largest input and places the target's ranks as the inputs ran
// (whatif/extrap/synthcalibration.h).

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace rankscope::cli {

class PredictCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    std::vector<std::string> traces_;
    int64_t target_ = 0;
    std::string network_ = "ib-switch";
    std::vector<std::string> set_;
    std::string model_ = "loggp";
    std::string method_ = "rankscope";
    uint64_t seed_ = 1;
    uint64_t maxEvents_ = 50'000'000;
    double maxUnruledSharePct_ = 10.0;
    std::string measured_;
    bool calibrate_ = false;
    bool noCalibrate_ = false;
    CLI::Option* networkOption_ = nullptr;
    std::string out_;
    bool json_ = false;
    LoadOptions load_;
};

} // namespace rankscope::cli
