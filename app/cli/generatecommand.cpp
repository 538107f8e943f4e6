#include "app/cli/generatecommand.h"

#include "importers/otf2/otf2writer.h"
#include "model/generator/scalinglaw.h"
#include "model/trace/traceerror.h"

#include <cstdio>
#include <filesystem>

namespace rankscope::cli {

CLI::App* GenerateCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "generate", "Write a synthetic MPI trace (OTF2) with known structure and scaling");
    cmd->add_option("--pattern", options_.pattern, "pingpong | stencil2d | stencil3d | alltoall")
        ->required()
        ->check(CLI::IsMember({"pingpong", "stencil2d", "stencil3d", "alltoall"}));
    cmd->add_option("--ranks", options_.ranks, "Number of MPI ranks")
        ->required()
        ->check(CLI::Range(1u, 1u << 24));
    cmd->add_option("--iterations", options_.iterations, "Iterations of the main loop")
        ->required()
        ->check(CLI::Range(1u, 1u << 30));
    cmd->add_option("--seed", options_.seed, "Random seed (same seed, same trace)")
        ->capture_default_str();
    cmd->add_option("-o,--output", output_, "Folder to write the OTF2 archive into")->required();
    cmd->add_option("--region", regionSpecs_,
                    "Compute region as NAME=TIME_NS:LAW, LAW one of constant, 1/n, n, sqrt(n), "
                    "1/sqrt(n), log(n); repeat once per region of the pattern");
    cmd->add_option("--imbalance", options_.imbalance, "Per-rank load imbalance (relative)")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 0.95));
    cmd->add_option("--noise", options_.noise, "Per-occurrence noise (relative std. deviation)")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 0.28));
    cmd->add_option("--noise-growth", options_.noiseGrowth,
                    "Growth of imbalance and noise with log2(ranks)")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 10.0));
    cmd->add_option("--message-bytes", messageBytes_, "Message size coefficient in bytes")
        ->check(CLI::Range(0.0, 1e12));
    cmd->add_option("--message-law", messageLaw_, "Scaling law of message sizes");
    cmd->add_option("--latency-ns", options_.latencyNs, "Network latency (ns)")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 1e12));
    cmd->add_option("--bandwidth", options_.bandwidthBytesPerSecond, "Bandwidth (bytes/s)")
        ->capture_default_str()
        ->check(CLI::Range(1.0, 1e15));
    cmd->add_option("--size-steps", options_.sizeSteps,
                    "pingpong: iteration i sends the size times 2^(i mod STEPS)")
        ->capture_default_str()
        ->check(CLI::Range(1u, 32u));
    cmd->add_flag("-q,--quiet", quiet_, "Print nothing on success");
    cmd->add_flag("--force", force_, "Replace an OTF2 archive already in the output folder");
    // CLI11's Range lets NaN through (every comparison with NaN is false): refuse it, and
    // infinities, for every number.
    for (const char* name : {"--imbalance", "--noise", "--noise-growth", "--message-bytes",
                             "--latency-ns", "--bandwidth"})
        cmd->get_option(name)->check(finiteNumber());
    return cmd;
}

int GenerateCommand::run() const
{
    GeneratorOptions o = options_;
    for (const std::string& spec : regionSpecs_) {
        const auto eq = spec.find('=');
        const auto colon = spec.rfind(':');
        if (eq == std::string::npos || colon == std::string::npos || colon < eq)
            throw UsageError("--region '" + spec + "': expected NAME=TIME_NS:LAW");
        ComputeRegion r;
        r.name = spec.substr(0, eq);
        try {
            size_t used = 0;
            const std::string time = spec.substr(eq + 1, colon - eq - 1);
            r.baseNs = std::stod(time, &used);
            if (used != time.size() || !(r.baseNs >= 0)) throw std::invalid_argument(time);
        } catch (const std::exception&) {
            throw UsageError("--region '" + spec + "': TIME_NS must be a number >= 0");
        }
        try {
            r.law = parseScalingLaw(spec.substr(colon + 1));
        } catch (const TraceError& e) {
            throw UsageError("--region '" + spec + "': " + e.what());
        }
        o.regions.push_back(r);
    }
    if (messageBytes_ > 0) o.messageBytes = messageBytes_;
    if (!messageLaw_.empty()) {
        try {
            o.messageLaw = parseScalingLaw(messageLaw_);
        } catch (const TraceError& e) {
            throw UsageError(std::string("--message-law: ") + e.what());
        }
    }
    try {
        generatorShape(o); // option errors are usage errors, before any work is done
    } catch (const TraceError& e) {
        throw UsageError(e.what());
    }

    namespace fs = std::filesystem;
    std::error_code ec;
    if (!force_ && fs::exists(fs::path(output_) / "traces.otf2", ec))
        throw TraceError(output_ + ": an OTF2 archive is already there; choose another folder or "
                                   "use --force to replace it");
    const Trace trace = generateTrace(o);
    Otf2WriteOptions write;
    write.replace = force_; // the old archive stays until the new one is complete
    writeOtf2(trace, output_, write);
    if (!quiet_)
        std::fprintf(stderr, "generated %s: %zu ranks, %llu events, %zu messages -> %s\n",
                     o.pattern.c_str(), trace.rankCount(), (unsigned long long)trace.eventCount(),
                     trace.messages().size(), output_.c_str());
    return kOk;
}

} // namespace rankscope::cli
