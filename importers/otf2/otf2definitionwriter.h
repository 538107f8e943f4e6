#pragma once
// Writes the global definitions of an OTF2 archive for a model Trace, after its events (so the
// per-location event counts and the source code locations the events used are known).
//
// Reference numbering: string i, region i and communicator i of the model are OTF2 string,
// region and comm i; rank r is location group r. Strings the model lacks (group names, the
// system tree, attribute names) are appended after the model's strings. Group 0 is the MPI
// COMM_LOCATIONS group (the main location of every rank in rank order); group 1 + c is the
// COMM_GROUP (or COMM_SELF) of communicator c, listing its members as world ranks.

#include "importers/otf2/otf2eventwriter.h"
#include "model/trace/trace.h"

#include <otf2/OTF2_GlobalDefWriter.h>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rankscope {

class Otf2DefinitionWriter
{
public:
    Otf2DefinitionWriter(const Trace& trace, const std::vector<uint64_t>& locationIds,
                         const Otf2EventWriter& events, std::string path);

    void write(OTF2_GlobalDefWriter* writer);

private:
    /// OTF2 string ref of `s`: the model's id if it interned `s`, else an appended string.
    uint32_t stringRef(std::string_view s);
    void check(OTF2_ErrorCode code, std::string_view what) const;
    void writeStrings(OTF2_GlobalDefWriter* w);
    void writeRegions(OTF2_GlobalDefWriter* w);
    void writeSystem(OTF2_GlobalDefWriter* w);
    void writeCommunicators(OTF2_GlobalDefWriter* w);

    const Trace& trace_;
    const std::vector<uint64_t>& locationIds_;
    const Otf2EventWriter& events_;
    std::string path_;
    std::vector<std::string> extraStrings_;
    std::unordered_map<std::string, uint32_t> extraRefs_;
};

} // namespace rankscope
