#pragma once
// The first line of a .prv file: its time unit, the machine (nodes and their CPUs) and the
// applications with their tasks and threads.
//
// Format (BSC's "Paraver trace file format" and the header parser of paraver-kernel,
// utils/traceparser/traceheader.h):
//   #Paraver (dd/mm/yy at
//   hh:mm):ftime[_ns|_us|_ms]:nodes[(cpus,cpus,...)]:nAppl:app1:app2...[,nComm]
// where each application is nTasks(threads:node,threads:node,...), ftime the trace's end in the
// unit (microseconds without a suffix), and nComm the number of communicator records ("c:...")
// on the lines right after the header. Nodes may be given as 0 (no resource model).

#include <cstdint>
#include <string_view>
#include <vector>

namespace rankscope::paraver {

struct HeaderTask
{
    uint32_t threads = 1;
    uint32_t node = 0; ///< 1-based node, 0 when not given
};

struct Header
{
    int64_t nsPerUnit = 1000;          ///< 1 for _ns, 1000 for _us (the default), 10^6 for _ms
    uint64_t endTime = 0;              ///< in the trace's unit
    std::vector<uint32_t> cpusPerNode; ///< empty without a resource model
    std::vector<std::vector<HeaderTask>> applications; ///< tasks of each application
    uint32_t communicators = 0;

    size_t taskCount() const;
};

/// Parses a header line; throws TraceError saying what is wrong (without file or line).
Header parseHeader(std::string_view line);

} // namespace rankscope::paraver
