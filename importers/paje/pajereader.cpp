#include "importers/paje/pajereader.h"

#include "importers/paje/pajeimport_p.h"
#include "model/trace/traceerror.h"

#include <algorithm>
#include <cctype>

namespace rankscope {

bool isPajePath(const std::string& path)
{
    if (path.size() < 5) return false;
    std::string tail = path.substr(path.size() - 5);
    std::transform(tail.begin(), tail.end(), tail.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return tail == ".paje";
}

Trace readPaje(const std::string& path, const PajeReadOptions& options)
{
    paje::ImportData data;
    paje::parsePaje(path, data, options.progress, std::max(1u, options.threads));
    Trace trace = paje::buildPajeTrace(data, std::max(1u, options.threads));
    if (options.progress && !options.progress(1.0)) throw Cancelled();
    return trace;
}

} // namespace rankscope
