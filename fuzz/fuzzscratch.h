#pragma once
// A fresh, empty folder for each fuzz input (under $TMPDIR), removed again afterwards, so no
// input sees files an earlier one left behind.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rankscope::fuzz {

class ScratchFolder
{
public:
    ScratchFolder();  ///< creates the folder
    ~ScratchFolder(); ///< removes it with everything in it
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;

    const std::string& path() const { return path_; }
    /// Writes `bytes` to `relative` (creating its parent folders) and returns the full path.
    std::string write(const std::string& relative, std::string_view bytes) const;

private:
    std::string path_;
};

/// The fuzz input as a string (it may hold any bytes, NUL included).
inline std::string text(const uint8_t* data, size_t size)
{
    return std::string(reinterpret_cast<const char*>(data), size);
}

} // namespace rankscope::fuzz
