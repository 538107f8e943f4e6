#pragma once
// An extrapolation scenario's answer (whatif/scenario/whatifpipeline.h) as the extrapolation
// view shows it (views/extrap/extraprun.h): the pipeline's results, and the names of the input
// traces in ascending scale. Nothing is computed here.

#include "app/loadedtrace.h"
#include "app/whatifjob.h"
#include "views/extrap/extraprun.h"

#include <functional>
#include <string>

namespace rankscope {

/// `document(path)` gives the open trace of a scenario path, or null.
ExtrapolationRun
extrapolationRunOf(const whatif::WhatIfExtrapolation& e, const WhatIfOutcome& out,
                   const std::function<const LoadedTrace*(const std::string&)>& document);

} // namespace rankscope
