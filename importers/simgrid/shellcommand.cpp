#include "importers/simgrid/shellcommand.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace rankscope::bench {

namespace {

/// Closes a file descriptor when it goes out of scope.
struct Fd
{
    int fd = -1;
    ~Fd()
    {
        if (fd >= 0) ::close(fd);
    }
};

/// Waits for `pid` up to `seconds`; true when it was reaped (status in `status`).
bool reap(pid_t pid, int& status, double seconds)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    for (;;) {
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR)) return true;
        if (std::chrono::steady_clock::now() >= until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

} // namespace

ShellResult runShellCommand(const std::string& command, const std::function<bool()>& cancelled,
                            int pollMs)
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
    Fd readEnd{fds[0]}, writeEnd{fds[1]};

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // dup2 clears close-on-exec on the child's 1 and 2; the pipe's own ends close on exec.
    posix_spawn_file_actions_adddup2(&actions, writeEnd.fd, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, writeEnd.fd, STDERR_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    // Its own process group, so a cancel reaches everything the shell started.
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);

    std::string sh = "/bin/sh", dashC = "-c", line = command;
    char* argv[] = {sh.data(), dashC.data(), line.data(), nullptr};
    ShellResult result;
    const auto t0 = std::chrono::steady_clock::now();
    pid_t pid = -1;
    const int spawned = ::posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (spawned != 0)
        throw std::runtime_error("cannot start /bin/sh: " + std::string(std::strerror(spawned)));
    ::close(writeEnd.fd);
    writeEnd.fd = -1;

    const auto stop = [&] {
        ::kill(-pid, SIGTERM);
        int status = 0;
        if (!reap(pid, status, 1.0)) {
            ::kill(-pid, SIGKILL);
            reap(pid, status, 5.0);
        }
        // The shell's children may outlive it by a moment; the group gets the last word.
        ::kill(-pid, SIGKILL);
        result.cancelled = true;
    };
    char chunk[4096];
    bool open = true;
    int status = 0;
    for (;;) {
        if (cancelled && cancelled()) {
            stop();
            break;
        }
        if (open) {
            pollfd p{readEnd.fd, POLLIN, 0};
            const int ready = ::poll(&p, 1, pollMs);
            if (ready < 0 && errno != EINTR) open = false;
            if (ready > 0) {
                const ssize_t n = ::read(readEnd.fd, chunk, sizeof chunk);
                if (n > 0)
                    result.output.append(chunk, size_t(n));
                else if (n == 0 || errno != EINTR)
                    open = false; // EOF: the child (and all it started) closed the pipe
            }
            continue;
        }
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR)) {
            result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(pollMs));
    }
    result.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

} // namespace rankscope::bench
