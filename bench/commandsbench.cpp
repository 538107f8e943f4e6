// bench/commands: the peak memory of whole commands, not of one step inside them. Each command
// runs as a child process on a trace and its peak resident set (ru_maxrss of wait4) is divided
// by the trace's events: `rankscope-cli info`, `rankscope-cli waitstates --json` and opening the
// trace in the GUI (`rankscope --screenshot`, which loads it, runs the analyses a window shows
// and paints it). Two traces of about 25 M events on 256 ranks: the generated stencil2d of the
// other benchmarks (a few MPI calls among many events) and a call-heavy ring of MPI_Sendrecv and
// MPI_Allreduce (half the events inside MPI calls). The same command on a 4-rank trace of 40
// iterations gives the process's fixed cost (libraries, Qt), printed and subtracted in the last
// column.
//
// Usage: rankscope-bench-commands [--data DIR] [--commands info,waitstates,gui]
//                                 [--traces stencil2d,sendrecv] [--cli PATH] [--gui PATH]

#include "benchsupport.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace rankscope;
using namespace rankscope::bench;

namespace {

struct Run
{
    bool ok = false;
    int status = 0;
    size_t peakBytes = 0;
    double wallSeconds = 0;
};

/// Runs argv[0] with `args`, its output to /dev/null; peak RSS from the kernel's accounting.
Run runChild(const std::vector<std::string>& args)
{
    Run run;
    const auto t0 = Clock::now();
    const pid_t pid = fork();
    if (pid < 0) return run;
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        std::vector<char*> argv;
        for (const std::string& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    struct rusage usage
    {
    };
    if (wait4(pid, &run.status, 0, &usage) != pid) return run;
    run.wallSeconds = seconds(t0, Clock::now());
    run.ok = WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0;
    run.peakBytes = size_t(usage.ru_maxrss) * 1024; // Linux reports KiB
    return run;
}

std::vector<std::string> commandLine(const std::string& command, const std::string& cli,
                                     const std::string& gui, const std::string& anchor,
                                     const std::string& png)
{
    if (command == "info") return {cli, "info", anchor};
    if (command == "waitstates") return {cli, "waitstates", anchor, "--json"};
    return {gui, "--screenshot", png, anchor};
}

} // namespace

int main(int argc, char** argv)
{
    std::string data = "build/bench-data", commands = "info,waitstates,gui",
                traces = "stencil2d,sendrecv", cli = RANKSCOPE_CLI_PATH, gui = RANKSCOPE_GUI_PATH;
    for (int i = 1; i < argc; i += 2) {
        const std::string a = argv[i];
        if (i + 1 >= argc) {
            std::fprintf(stderr, "%s needs a value\n", a.c_str());
            return 2;
        }
        std::string* target = a == "--data"       ? &data
                              : a == "--commands" ? &commands
                              : a == "--traces"   ? &traces
                              : a == "--cli"      ? &cli
                              : a == "--gui"      ? &gui
                                                  : nullptr;
        if (!target) {
            std::fprintf(stderr,
                         "unknown option %s (use --data, --commands, --traces, --cli, "
                         "--gui)\n",
                         a.c_str());
            return 2;
        }
        *target = argv[i + 1];
    }

    try {
        struct Input
        {
            std::string name, anchor;
            uint64_t events = 0;
        };
        // The traces are made in a child process: a child's peak counts the pages its parent
        // held when it forked (Linux keeps the larger hiwater across exec), so the parent
        // stays small.
        const bool wantStencil = hasFormat(traces, "stencil2d"),
                   wantRing = hasFormat(traces, "sendrecv");
        const pid_t maker = fork();
        if (maker == 0) {
            try {
                ensureSendrecvTrace(data + "/sendrecv-4", 4, 40);
                if (wantStencil) ensureStencilTrace(data + "/stencil2d-256", 256, 25'000'000);
                if (wantRing) ensureSendrecvTrace(data + "/sendrecv-256", 256, 10'000);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "error: %s\n", e.what());
                _exit(1);
            }
            std::fflush(stdout);
            _exit(0);
        }
        int makerStatus = 0;
        if (maker < 0 || waitpid(maker, &makerStatus, 0) != maker || !WIFEXITED(makerStatus) ||
            WEXITSTATUS(makerStatus) != 0)
            throw std::runtime_error("could not make the traces in " + data);

        std::vector<Input> inputs;
        uint64_t smallEvents = 0;
        const std::string small = ensureSendrecvTrace(data + "/sendrecv-4", 4, 40, &smallEvents);
        if (wantStencil) {
            const std::string a = ensureStencilTrace(data + "/stencil2d-256", 256, 25'000'000);
            // The stencil's count comes from its generator; read it back through info instead
            // of recomputing the pattern here.
            inputs.push_back({"stencil2d", a, 0});
        }
        if (wantRing) {
            uint64_t events = 0;
            const std::string a = ensureSendrecvTrace(data + "/sendrecv-256", 256, 10'000, &events);
            inputs.push_back({"sendrecv", a, events});
        }
        for (Input& in : inputs) {
            if (in.events != 0) continue;
            // `info --json` prints "events": N; run it once with its output kept.
            const std::string out = data + "/commands-info.json";
            const std::string shell =
                "'" + cli + "' info '" + in.anchor + "' --json > '" + out + "'";
            if (std::system(shell.c_str()) != 0)
                throw std::runtime_error("info failed on " + in.anchor);
            std::FILE* f = std::fopen(out.c_str(), "r");
            std::string text;
            if (f) {
                char buf[4096];
                size_t n;
                while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
                    text.append(buf, n);
                std::fclose(f);
            }
            const size_t at = text.find("\"events\"");
            if (at == std::string::npos) throw std::runtime_error("no event count in " + out);
            in.events = std::stoull(text.substr(text.find(':', at) + 1));
        }

        const std::string png = data + "/commands-screenshot.png";
        std::printf("\n%-11s %-10s %12s %10s %8s %12s %10s\n", "command", "trace", "events",
                    "peak MiB", "B/event", "fixed MiB", "B/event-fixed");
        for (const std::string command : {"info", "waitstates", "gui"}) {
            if (!hasFormat(commands, command)) continue;
            const Run base = runChild(commandLine(command, cli, gui, small, png));
            if (!base.ok) {
                std::fprintf(stderr, "%s failed on %s (status %d)\n", command.c_str(),
                             small.c_str(), base.status);
                return 1;
            }
            for (const Input& in : inputs) {
                const Run r = runChild(commandLine(command, cli, gui, in.anchor, png));
                if (!r.ok) {
                    std::fprintf(stderr, "%s failed on %s (status %d)\n", command.c_str(),
                                 in.anchor.c_str(), r.status);
                    return 1;
                }
                const double ev = double(in.events);
                std::printf("%-11s %-10s %12llu %10.1f %8.2f %12.1f %10.2f   (%.1f s)\n",
                            command.c_str(), in.name.c_str(), (unsigned long long)in.events,
                            r.peakBytes / 1048576.0, r.peakBytes / ev, base.peakBytes / 1048576.0,
                            (double(r.peakBytes) - double(base.peakBytes)) / ev, r.wallSeconds);
                std::fflush(stdout);
            }
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
