#pragma once
// Parses the rank lists users type to filter a timeline: "0-7, 12 20-23" (items separated by
// commas or spaces, each a rank or an inclusive range). Empty text means all ranks.

#include "model/trace/ids.h"

#include <QString>
#include <optional>
#include <vector>

namespace rankscope {

/// The ranks in `text`, in the order given, without duplicates; an empty vector for empty
/// text. nullopt with `error` set (naming the offending item) when the text is not a valid list
/// for a trace of `rankCount` ranks.
std::optional<std::vector<RankId>> parseRankList(const QString& text, size_t rankCount,
                                                 QString* error = nullptr);

} // namespace rankscope
