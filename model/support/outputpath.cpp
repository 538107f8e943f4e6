#include "model/support/outputpath.h"

#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace rankscope {

namespace fs = std::filesystem;

namespace {

/// The absolute path with symbolic links of its existing part resolved.
fs::path resolved(const std::string& p)
{
    std::error_code ec;
    fs::path r = fs::weakly_canonical(fs::absolute(p, ec), ec);
    if (ec) r = fs::absolute(p, ec).lexically_normal();
    return r;
}

/// Whether `p` is `base` or lies below it (both resolved).
bool within(const fs::path& p, const fs::path& base)
{
    auto b = base.begin(), q = p.begin();
    for (; b != base.end(); ++b, ++q) {
        if (b->empty()) continue; // a trailing separator
        if (q == p.end() || *q != *b) return false;
    }
    return true;
}

bool endsWith(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

struct Territory
{
    std::vector<fs::path> files;   ///< paths that must not be written
    std::vector<fs::path> folders; ///< folders nothing may be written into
};

Territory territoryOf(const std::string& input)
{
    Territory t;
    const fs::path in = resolved(input);
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
        t.folders.push_back(in);
        return t;
    }
    t.files.push_back(in);
    const std::string s = in.string();
    if (endsWith(s, ".otf2")) {
        const std::string stem = s.substr(0, s.size() - 5);
        t.files.push_back(stem + ".def");
        t.folders.push_back(stem);
    } else if (endsWith(s, ".prv") || endsWith(s, ".prv.gz")) {
        const std::string stem = s.substr(0, s.size() - (endsWith(s, ".gz") ? 7 : 4));
        t.files.push_back(stem + ".pcf");
        t.files.push_back(stem + ".row");
    }
    return t;
}

std::optional<std::string> fileHits(const fs::path& out, const Territory& t)
{
    for (const fs::path& f : t.files)
        if (out == f) return f.string();
    for (const fs::path& d : t.folders)
        if (within(out, d)) return d.string();
    return std::nullopt;
}

} // namespace

std::optional<std::string> outputHitsInput(const std::string& output, const std::string& input,
                                           bool outputIsFolder)
{
    const Territory t = territoryOf(input);
    const fs::path out = resolved(output);
    if (!outputIsFolder) return fileHits(out, t);
    // An archive folder: the folder itself and what is written in it.
    if (auto hit = fileHits(out, t)) return hit;
    for (const char* part : {"traces.otf2", "traces.def", "traces"})
        if (auto hit = fileHits(out / part, t)) return hit;
    return std::nullopt;
}

void refuseOutputOverInputs(const std::string& what, const std::string& output,
                            const std::vector<std::string>& inputs, bool outputIsFolder)
{
    for (const std::string& input : inputs)
        if (const auto hit = outputHitsInput(output, input, outputIsFolder))
            throw std::invalid_argument(what + " " + output + ": would write over the trace " +
                                        input + " that this command reads (" + *hit +
                                        "); choose a path outside the traces it reads");
}

} // namespace rankscope
