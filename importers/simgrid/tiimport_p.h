#pragma once
// Private to the TI import (tiimport.h): the actions as read from the files, before messages
// are paired and the program is written.

#include "importers/simgrid/tiimport.h"

#include <string>
#include <vector>

namespace rankscope::ti {

inline constexpr uint32_t kNone = 0xFFFFFFFFu;

struct RawAction
{
    TiCall call = TiCall::Init;
    bool compute = false; ///< compute or sleep: `ns`
    uint32_t a = 0;       ///< partner (send: dst, recv and wait: src) or root
    uint32_t b = 0;       ///< wait, test: dst
    int32_t tag = 0;
    uint64_t bytes = 0; ///< message size, or the collective's M
    double ns = 0;
    uint32_t line = 0;
    uint32_t msg = kNone; ///< sends and receives: the message, once paired
};

struct RankActions
{
    std::string file;
    std::vector<RawAction> actions;
};

/// Reads the list file and every action file it names (tiparser.cpp); fills out.listPath,
/// rankFiles, warnings about unknown actions and the counts of actions read and skipped.
std::vector<RankActions> parseTiFiles(const std::string& listPath, const TiReadOptions& options,
                                      TiImport& out);

} // namespace rankscope::ti
