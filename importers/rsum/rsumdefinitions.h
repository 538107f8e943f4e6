#pragma once
// The DEFS section of a result summary (resultsummary.h): a trace's definitions and run span, and
// the definitions-only Trace rebuilt from them through TraceBuilder.

#include "model/support/bytecodec.h"
#include "model/trace/trace.h"

namespace rankscope {

void encodeDefinitions(const Trace& trace, int64_t runBegin, int64_t runEnd, ByteWriter& w);
/// Throws std::runtime_error (or TraceError) on damaged bytes.
/// The trace of the definitions in `r`; `diagnostics` (the NOTE section's: whether the trace
/// summarised was partial, and its warnings) become the trace's own.
Trace decodeDefinitions(ByteReader& r, const TraceDiagnostics& diagnostics = {});

} // namespace rankscope
