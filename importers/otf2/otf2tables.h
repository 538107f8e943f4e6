#pragma once
// Lookup tables from OTF2 definition references to model ids, filled once (single-threaded)
// from the global definitions and then only read by the event readers, possibly from several
// threads at once. Plain vectors indexed by OTF2 reference: an event costs one bounds check
// and one load per reference, never a map lookup.

#include "importers/otf2/otf2tickconverter.h"
#include "model/trace/eventstream.h"
#include "model/trace/ids.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rankscope {

struct Otf2Tables
{
    /// One location to read: where its events go and how many the definitions promise.
    struct LocationEntry
    {
        uint64_t otf2Id = 0;
        LocationId id;
        uint64_t eventCount = 0;
        RankId rank; ///< the rank the location belongs to
    };

    std::string archiveDir;  ///< folder of the anchor file
    std::string archiveName; ///< anchor file name without ".otf2" (per-location files live in it)
    Otf2TickConverter clock;
    /// The trace length of the global clock properties, converted to ns (0: not given). Every
    /// event must lie in [0, traceLengthNs] after conversion (a damaged clock offset would put
    /// it decades away).
    int64_t traceLengthNs = 0;
    /// The OTF2 version that wrote the archive ("3.0.2"; empty when unknown), and whether the
    /// OTF2 library we read with knows every record type that version writes: then a record of
    /// unknown type can only be a damaged one.
    std::string writerVersion;
    bool knowsEveryRecordType = false;

    std::vector<StringId> strings;                 ///< by OTF2 string ref
    std::vector<RegionId> regions;                 ///< by OTF2 region ref
    std::vector<CommId> comms;                     ///< by OTF2 comm ref; invalid for non-MPI ones
    std::vector<uint32_t> commSizes;               ///< by CommId; 0 for self-like communicators
    std::vector<SourceLocation> sourceLocations;   ///< by OTF2 source-code-location ref
    uint32_t sourceLocationAttribute = UINT32_MAX; ///< OTF2 attribute of type SOURCE_CODE_LOCATION
    /// The uint64 attribute NETWORK_CONTENTION_NS (a simulated receive's contention delay).
    uint32_t contentionAttribute = UINT32_MAX;
    std::vector<LocationEntry> locations;       ///< in LocationId order
    std::vector<std::vector<MetricId>> metrics; ///< by OTF2 metric ref: the members it samples
    std::vector<StringId> recordNames;          ///< by Otf2EventReader record index

    /// Path of a per-location file ("<dir>/<name>/<location>.evt").
    std::string locationFile(uint64_t otf2Id, const char* extension) const
    {
        return archiveDir + "/" + archiveName + "/" + std::to_string(otf2Id) + extension;
    }
    std::string globalDefFile() const { return archiveDir + "/" + archiveName + ".def"; }
};

} // namespace rankscope
