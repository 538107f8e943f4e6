#include "model/support/boundedread.h"

#include "model/trace/traceerror.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace rankscope {

std::string readSmallTextFile(const std::string& path, const std::string& what, uint64_t maxBytes)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec); // follows symbolic links; never opens
    if (ec || !fs::exists(st)) throw TraceError(path + ": no such file (the " + what + ")");
    if (fs::is_directory(st)) throw TraceError(path + ": is a folder, not a " + what + " file");
    if (!fs::is_regular_file(st))
        throw TraceError(path + ": not a regular file (a FIFO, device or socket); a " + what +
                         " must be a file");
    const uintmax_t size = fs::file_size(path, ec);
    if (!ec && size > maxBytes)
        throw TraceError(path + ": " + std::to_string(size) + " bytes, more than a " + what +
                         " may have (" + std::to_string(maxBytes) + ")");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw TraceError(path + ": cannot open the " + what);
    std::string text;
    text.resize(size_t(std::min<uintmax_t>(ec ? maxBytes : size, maxBytes)) + 1);
    in.read(text.data(), std::streamsize(text.size()));
    if (in.bad()) throw TraceError(path + ": cannot read the " + what);
    const size_t got = size_t(in.gcount());
    if (got > maxBytes) // it grew while being read
        throw TraceError(path + ": more than " + std::to_string(maxBytes) + " bytes; a " + what +
                         " may not be larger");
    text.resize(got);
    return text;
}

} // namespace rankscope
