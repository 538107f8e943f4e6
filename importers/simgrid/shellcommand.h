#pragma once
// Runs a shell command line as a child process in its own process group, collecting what it
// prints (stdout and stderr together), and stops it when asked: the caller's cancel check is
// polled while the child runs, and a cancelled child is terminated with its whole group (sh and
// whatever it started: smpirun and its replay processes). posix_spawn, so a multithreaded caller
// (the GUI's worker threads) can use it safely. Plain C++ and POSIX, no Qt.

#include <functional>
#include <string>

namespace rankscope::bench {

struct ShellResult
{
    int exitCode = -1;      ///< the exit status; -1 when killed by a signal or cancelled
    bool cancelled = false; ///< the cancel check returned true and the group was killed
    double wallSeconds = 0; ///< start to exit
    std::string output;     ///< stdout and stderr, interleaved as printed
};

/// Runs `/bin/sh -c command`. `cancelled` (may be empty) is polled about every `pollMs`
/// milliseconds; when it returns true the process group gets SIGTERM, then SIGKILL after a
/// second, and the call returns once the child is reaped. Throws std::runtime_error when the
/// child cannot be started.
ShellResult runShellCommand(const std::string& command, const std::function<bool()>& cancelled,
                            int pollMs = 50);

} // namespace rankscope::bench
