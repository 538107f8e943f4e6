#pragma once
// The `simulate` command's report of what the network did (whatif/netsim/linkstats.h): the
// `links` array and `link_summary` object of --json, the --links-csv table, and the text lines.

#include "model/trace/trace.h"
#include "whatif/netsim/linkstats.h"

#include <nlohmann/json.hpp>
#include <string>

namespace rankscope::cli {

/// Adds `links` (one object per link: name, class, from, to, bytes, busy_ns, utilisation,
/// peak_utilisation, contention_ns) and `link_summary` (total contention, the hottest links,
/// the most delayed messages of `trace`) to `j`.
void addLinkFigures(nlohmann::ordered_json& j, const netsim::NetworkFigures& f, const Trace& trace);
/// The same per link as CSV, with a header line.
std::string linkFiguresCsv(const netsim::NetworkFigures& f);
/// A few lines for the text output: total contention and the hottest links.
std::string linkFiguresText(const netsim::NetworkFigures& f);

} // namespace rankscope::cli
