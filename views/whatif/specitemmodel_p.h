#pragma once
// Key-path helpers shared by SpecItemModel's tree (specmodel.cpp) and its key vocabulary
// (specmodel_keys.cpp).

#include <sstream>
#include <string>
#include <vector>

namespace rankscope::specmodel {

inline std::vector<std::string> splitKey(const std::string& key)
{
    std::vector<std::string> parts;
    std::istringstream in(key);
    std::string part;
    while (std::getline(in, part, '.'))
        parts.push_back(part);
    return parts;
}

} // namespace rankscope::specmodel
