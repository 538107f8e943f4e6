#pragma once
// What the SimGrid engine tests share: a file writer, the two-rank time-independent ping-pong
// whose run times the tests work out by hand on test::kTwoNodeSpec (twonodespec.h), and whether
// SimGrid's smpirun is installed.

#include <QByteArray>
#include <QString>

namespace rankscope::test {

/// Writes `text` to `path` (made executable when asked: stand-in smpirun scripts).
void writeTestFile(const QString& path, const QByteArray& text, bool executable = false);

/// A SimGrid time-independent ping-pong in `dir` (pp.ti with pp-0.txt and pp-1.txt): rank 0
/// computes 1000 flops (1 us on SimGrid's 1 Gflop/s hosts, as the export writes them), sends
/// 800 bytes to rank 1 and receives 1600 bytes back; rank 1 receives, computes 200 flops and
/// answers. Returns the list file's path.
QString writeSimGridPingPong(const QString& dir);

/// Whether smpirun is on PATH.
bool haveSmpirun();

} // namespace rankscope::test
