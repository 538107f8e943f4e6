#pragma once
// How a quantity (compute time per occurrence, message size) changes with the rank count n.
// The laws are the simple forms that strong- and weak-scaling codes show and that the
// extrapolation models of ALGORITHMS.md sections 3-4 can recover.

#include <string_view>

namespace rankscope {

enum class ScalingLaw
{
    Constant,
    InverseN,
    LinearN,
    SqrtN,
    InverseSqrtN,
    LogN
};

/// Parses "constant", "1/n", "n", "sqrt(n)", "1/sqrt(n)", "log(n)" (case and spaces ignored);
/// throws TraceError naming the valid choices otherwise.
ScalingLaw parseScalingLaw(std::string_view name);
/// The canonical name, as parseScalingLaw accepts it.
std::string_view scalingLawName(ScalingLaw law);
/// f(n): 1, 1/n, n, sqrt(n), 1/sqrt(n) or log2(n). A quantity c * f(n) follows the law.
double scalingFactor(ScalingLaw law, double n);

} // namespace rankscope
