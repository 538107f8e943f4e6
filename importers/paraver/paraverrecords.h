#pragma once
// The first stage of the Paraver import (importers/linepipeline.h): each line of a .prv cut at
// its colons with every field read as a number in the same pass, so the parser (the second
// stage, paraverparser.cpp) finds a record's fields as numbers and reads the text again only
// for an error message or the header.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::paraver {

/// One line of the file.
struct Record
{
    uint64_t number = 0;   ///< its line number
    std::string_view text; ///< without the line end
    uint32_t first = 0;    ///< its fields: RecordTokens::values / ok [first, first + count)
    uint32_t count = 0;    ///< fields (0 for a blank line or a comment)
    char kind = 0;         ///< the first field when it is one character, else 0
};

struct RecordTokens
{
    std::vector<Record> records;
    std::vector<uint64_t> values; ///< each field as a number (an int64's bits when negative)
    std::vector<uint8_t> ok;      ///< per field: kUnsigned, kSigned: what it reads as
    void clear()
    {
        records.clear();
        values.clear();
        ok.clear();
    }
};

inline constexpr uint8_t kUnsigned = 1; ///< the field is a uint64 (digits only)
inline constexpr uint8_t kSigned = 2;   ///< the field is an int64 ([-] digits)

/// Cuts `line` (number `n`) into `out` (a blank line or a '#' comment as a record of no fields).
void tokenizeRecord(std::string_view line, uint64_t n, RecordTokens& out);

/// Field `k` of `text` as text (for messages): what lies between the k-th and k+1-th colon.
std::string_view recordField(std::string_view text, size_t k);

} // namespace rankscope::paraver
