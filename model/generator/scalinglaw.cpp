#include "model/generator/scalinglaw.h"

#include "model/trace/traceerror.h"

#include <array>
#include <cctype>
#include <cmath>
#include <string>

namespace rankscope {

namespace {

constexpr std::array<std::pair<ScalingLaw, std::string_view>, 6> kLaws = {{
    {ScalingLaw::Constant, "constant"},
    {ScalingLaw::InverseN, "1/n"},
    {ScalingLaw::LinearN, "n"},
    {ScalingLaw::SqrtN, "sqrt(n)"},
    {ScalingLaw::InverseSqrtN, "1/sqrt(n)"},
    {ScalingLaw::LogN, "log(n)"},
}};

} // namespace

ScalingLaw parseScalingLaw(std::string_view name)
{
    std::string key;
    for (char c : name)
        if (!std::isspace(static_cast<unsigned char>(c)))
            key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const auto& [law, text] : kLaws)
        if (key == text) return law;
    std::string valid;
    for (const auto& [law, text] : kLaws)
        valid += (valid.empty() ? "" : ", ") + std::string(text);
    throw TraceError("unknown scaling law '" + std::string(name) + "' (expected one of: " + valid +
                     ")");
}

std::string_view scalingLawName(ScalingLaw law)
{
    for (const auto& [l, text] : kLaws)
        if (l == law) return text;
    return "constant";
}

double scalingFactor(ScalingLaw law, double n)
{
    switch (law) {
    case ScalingLaw::Constant:
        return 1.0;
    case ScalingLaw::InverseN:
        return 1.0 / n;
    case ScalingLaw::LinearN:
        return n;
    case ScalingLaw::SqrtN:
        return std::sqrt(n);
    case ScalingLaw::InverseSqrtN:
        return 1.0 / std::sqrt(n);
    case ScalingLaw::LogN:
        return std::log2(n);
    }
    return 1.0;
}

} // namespace rankscope
