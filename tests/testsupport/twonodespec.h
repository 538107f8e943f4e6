#pragma once
// The smallest network the replay tests use: one switch, two nodes with a rank each. A message
// crosses two 1 us links at 8 bytes/ns, with no overheads, so its time is 2000 + bytes / 8 ns.

namespace rankscope::test {

inline constexpr const char* kTwoNodeSpec = R"(name: two
nodes: 2
ranks_per_node: 1
eager_limit: 64KiB
overhead: {send: 0ns, recv: 0ns}
links:
  l: {latency: 1us, bandwidth: 8GB/s}
networks:
  n: {topology: crossbar, link: l}
)";

} // namespace rankscope::test
