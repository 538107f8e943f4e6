#include "fuzz/fuzzscratch.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace rankscope::fuzz {

namespace fs = std::filesystem;

namespace {

/// One folder per process, made once; each input gets a numbered subfolder of it.
const fs::path& processFolder()
{
    static const fs::path folder = [] {
        std::error_code ec;
        fs::path base = fs::temp_directory_path(ec);
        if (ec) base = "/tmp";
        std::string templ = (base / "rankscope-fuzz-XXXXXX").string();
        if (!mkdtemp(templ.data())) throw std::runtime_error("cannot create " + templ);
        std::atexit([] {
            std::error_code ignored;
            fs::remove_all(processFolder(), ignored);
        });
        return fs::path(templ);
    }();
    return folder;
}

} // namespace

ScratchFolder::ScratchFolder()
{
    static unsigned long next = 0;
    const fs::path p = processFolder() / std::to_string(next++);
    fs::create_directory(p);
    path_ = p.string();
}

ScratchFolder::~ScratchFolder()
{
    std::error_code ignored;
    fs::remove_all(path_, ignored);
}

std::string ScratchFolder::write(const std::string& relative, std::string_view bytes) const
{
    const fs::path p = fs::path(path_) / relative;
    fs::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + p.string());
    return p.string();
}

} // namespace rankscope::fuzz
