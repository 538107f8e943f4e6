#pragma once
// Leave-one-program-out choice of the Rankscope method's constants (ALGORITHMS.md §4.6): for
// each program, the constants are chosen on the other programs' sets only, then judged on the
// left-out program's sets; the figures printed are those left-out ones. Then the same choice on
// every program, which is what the defaults in typicalrank.h / slowestrank.h must be.
//
// The choice: the noise and the excess growth that give the best median accuracy of max_r S(r)
// across the training sets (ties: the better worst), then the narrowest interval (width per
// doubling) whose coverage across the training sets reaches the level.

#include <string>
#include <vector>

namespace rankscope::bench {

/// One real set: S(r) of every rank at each input scale and at the target.
struct LopoSet
{
    std::string program;
    std::string name;
    std::vector<double> scales;
    std::vector<std::vector<double>> sums;
    double target = 0;
    std::vector<double> measured;
};

/// Prints the left-out figures and the choice on every program; returns false when the
/// defaults differ from that choice.
bool leaveOneProgramOut(const std::vector<LopoSet>& sets);

} // namespace rankscope::bench
