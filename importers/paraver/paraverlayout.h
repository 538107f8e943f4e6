#pragma once
// How a Trace is laid out as a Paraver trace (paraverexport.h): which locations become which
// task's threads and CPUs on which nodes, the event type and value of every region, the value of
// every state; and the .pcf and .row texts that name them.

#include "model/trace/trace.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rankscope::paraver {

inline constexpr uint32_t kNotWritten = 0xFFFFFFFFu;

struct ExportThread
{
    LocationId location;
    uint32_t task = 0;   ///< 1-based (rank + 1)
    uint32_t thread = 0; ///< 1-based within the task
    uint32_t cpu = 0;    ///< 1-based over the trace
    LocationId states;   ///< the location holding its states, if the trace has one
};

struct Layout
{
    std::vector<ExportThread> threads;
    std::vector<uint32_t> threadOf;      ///< by LocationId: index into threads, or kNotWritten
    std::vector<uint32_t> stateThreadOf; ///< by LocationId of a state location, or kNotWritten
    std::vector<uint32_t> taskThreads;   ///< by rank
    std::vector<uint32_t> taskNode;      ///< by rank, 1-based
    std::vector<std::string> nodeNames;
    std::vector<uint32_t> nodeCpus;
    std::vector<uint32_t> regionType;  ///< by RegionId: event type (0 for a state region)
    std::vector<uint32_t> regionValue; ///< by RegionId: event value, or the state's value
    std::map<uint32_t, std::map<uint32_t, std::string>> valueLabels; ///< by type, value
    std::map<uint32_t, std::string> stateLabels;
    uint64_t skippedLocations = 0;
    bool anyStates = false;  ///< the trace has state locations (it was read from Paraver)
    bool hostsKnown = false; ///< some rank records its host
};

/// Lays out `trace` (see above).
Layout layoutOf(const Trace& trace);
/// The .pcf naming the layout's states, event types and values.
std::string pcfText(const Layout& layout);
/// The .row naming its CPUs, nodes and threads.
std::string rowText(const Layout& layout);

} // namespace rankscope::paraver
