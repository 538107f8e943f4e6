#include "otf2floorreader.h"

#include <memory>
#include <otf2/otf2.h>
#include <stdexcept>
#include <vector>

namespace rankscope::bench {

namespace {

struct Context
{
    std::vector<OTF2_LocationRef> locations;
    uint64_t events = 0;
};

OTF2_CallbackCode onLocation(void* ud, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType,
                             uint64_t, OTF2_LocationGroupRef)
{
    static_cast<Context*>(ud)->locations.push_back(self);
    return OTF2_CALLBACK_SUCCESS;
}

// One counting callback for every record type: the payload arguments are ignored.
template <class... Payload>
OTF2_CallbackCode count(OTF2_LocationRef, OTF2_TimeStamp, uint64_t, void* ud, OTF2_AttributeList*,
                        Payload...)
{
    ++static_cast<Context*>(ud)->events;
    return OTF2_CALLBACK_SUCCESS;
}

void check(OTF2_ErrorCode code, const char* what)
{
    if (code != OTF2_SUCCESS)
        throw std::runtime_error(std::string(what) + ": " + OTF2_Error_GetName(code));
}

} // namespace

FloorResult readOtf2Floor(const std::string& anchor)
{
    std::unique_ptr<OTF2_Reader, decltype(&OTF2_Reader_Close)> reader(
        OTF2_Reader_Open(anchor.c_str()), &OTF2_Reader_Close);
    if (!reader) throw std::runtime_error("cannot open " + anchor);
    OTF2_Reader* r = reader.get();
    check(OTF2_Reader_SetSerialCollectiveCallbacks(r), "collective callbacks");

    Context ctx;
    OTF2_GlobalDefReader* gdr = OTF2_Reader_GetGlobalDefReader(r);
    OTF2_GlobalDefReaderCallbacks* gcb = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(gcb, &onLocation);
    check(OTF2_Reader_RegisterGlobalDefCallbacks(r, gdr, gcb, &ctx), "global callbacks");
    OTF2_GlobalDefReaderCallbacks_Delete(gcb);
    uint64_t n = 0;
    check(OTF2_Reader_ReadAllGlobalDefinitions(r, gdr, &n), "global definitions");
    OTF2_Reader_CloseGlobalDefReader(r, gdr);

    for (OTF2_LocationRef loc : ctx.locations)
        check(OTF2_Reader_SelectLocation(r, loc), "select location");
    const bool haveDefs = OTF2_Reader_OpenDefFiles(r) == OTF2_SUCCESS;
    check(OTF2_Reader_OpenEvtFiles(r), "open event files");

    OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb, &count<OTF2_RegionRef>);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, &count<OTF2_RegionRef>);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb,
                                               &count<uint32_t, OTF2_CommRef, uint32_t, uint64_t>);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(
        cb, &count<uint32_t, OTF2_CommRef, uint32_t, uint64_t, uint64_t>);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, &count<uint64_t>);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, &count<uint64_t>);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb,
                                               &count<uint32_t, OTF2_CommRef, uint32_t, uint64_t>);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(
        cb, &count<uint32_t, OTF2_CommRef, uint32_t, uint64_t, uint64_t>);
    OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, &count<uint64_t>);
    OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, &count<uint64_t>);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, &count<>);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(
        cb, &count<OTF2_CollectiveOp, OTF2_CommRef, uint32_t, uint64_t, uint64_t>);
    OTF2_EvtReaderCallbacks_SetProgramBeginCallback(
        cb, &count<OTF2_StringRef, uint32_t, const OTF2_StringRef*>);
    OTF2_EvtReaderCallbacks_SetProgramEndCallback(cb, &count<int64_t>);
    OTF2_EvtReaderCallbacks_SetCommCreateCallback(cb, &count<OTF2_CommRef>);
    OTF2_EvtReaderCallbacks_SetCommDestroyCallback(cb, &count<OTF2_CommRef>);
    OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, &count<OTF2_MeasurementMode>);
    // One location at a time: its local definitions (they carry the mapping tables the event
    // reader needs), then its events; each reader is closed before the next opens, which keeps
    // OTF2's buffers few and warm (the cheapest order we found, and the importer's).
    for (OTF2_LocationRef loc : ctx.locations) {
        if (haveDefs) {
            if (OTF2_DefReader* dr = OTF2_Reader_GetDefReader(r, loc)) {
                uint64_t defs = 0;
                OTF2_Reader_ReadAllLocalDefinitions(r, dr, &defs);
                OTF2_Reader_CloseDefReader(r, dr);
            }
        }
        OTF2_EvtReader* er = OTF2_Reader_GetEvtReader(r, loc);
        check(OTF2_Reader_RegisterEvtCallbacks(r, er, cb, &ctx), "event callbacks");
        uint64_t read = 0;
        check(OTF2_Reader_ReadAllLocalEvents(r, er, &read), "read events");
        OTF2_Reader_CloseEvtReader(r, er);
    }
    OTF2_EvtReaderCallbacks_Delete(cb);
    if (haveDefs) OTF2_Reader_CloseDefFiles(r);
    OTF2_Reader_CloseEvtFiles(r);
    return {ctx.events, ctx.locations.size()};
}

} // namespace rankscope::bench
