#pragma once
// How much a transfer slows down when others share its node (LinkClass::sharing), fitted from
// the concurrency a trace shows, for the flow model's replay with the recorded placement.
//
// Method: every blocking send of one rendezvous-sized message whose receive was posted before
// it started is a transfer of b bytes that lasted t - o_s - protocol latency - route latency
// (z). Its concurrency k is how many such transfers (any blocking send moving data: from the
// later of its start and the receive's posting to its end) used the same resource at the same
// time, itself included, averaged over its duration: the sending node's network interface for
// a message to another node, the node's memory for one inside it. The flow model gives a
// transfer alone on its resource b / B and k of them b / B * k^s each, so
//   log(z / b) = s * log k - log B_class
// is fitted by least squares with one intercept per link class and one exponent s for all of
// them (the TraceR stencils slow down by the same factor per doubling of k on and off the
// node: docs/design-notes.md). Given s, each class's B is the least-squares fit of
// z = b / B * k^s, so the replay reproduces the mean measured cost. s is determined when the
// concurrency varies within some class, the fit lies in [0, 1] and its relative standard
// error is below 100 %.

#include "whatif/netsim/calibrationsamples.h"
#include "whatif/netsim/machine.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace rankscope::netsim {

struct SharingFit
{
    bool determined = false;
    double exponent = 1; ///< s, the LinkClass::sharing of the classes below
    std::optional<double> relStdError;
    uint64_t samples = 0;
    std::string note; ///< how it was determined, or why not
    /// Per link class with samples: its bandwidth for a transfer alone (bytes per ns).
    std::map<std::string, double> bytesPerNs;
    std::map<std::string, uint64_t> classSamples;
};

/// Fits the sharing exponent and the per-class bandwidths to `sends` (collected with
/// `eagerLimit`) on `machine` (whose placement decides which resource each send used).
SharingFit fitSharing(const std::vector<BlockingSendSample>& sends, const Machine& machine,
                      double sendOverheadNs, uint64_t eagerLimit);

} // namespace rankscope::netsim
