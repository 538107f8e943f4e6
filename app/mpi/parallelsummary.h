#pragma once
// `rankscope-mpi analyse -o RESULT.rsum`: the result summary (importers/rsum) of the trace,
// assembled on rank 0 from what every process computed for its ranks: the per-rank profile and
// interval parts (already gathered), the merged wait totals and root causes, each process's
// (pattern, call site, rank) wait rows and its ranks' timeline and wait pyramids, built on the
// whole run's geometry and coarsened to the stored resolution before they travel. The file is
// the one `rankscope-cli summarize` writes for the same trace, byte for byte.

#include "app/mpi/parallelanalysis.h"
#include "app/mpi/parallelwaits.h"

#include <mpi.h>
#include <string>

namespace rankscope::mpi {

/// Collective; rank 0 writes `path` (throws TraceError when it cannot).
void writeSummaryInParallel(const std::string& path, const std::string& source,
                            const ParallelResult& r, const ParallelWaits& waits,
                            const RootCauseReport& causes, MPI_Comm comm);

} // namespace rankscope::mpi
