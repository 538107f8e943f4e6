#include "whatif/netsim/stridedfaces.h"

#include "model/trace/callrecords.h"

#include <string_view>

namespace rankscope::netsim {

size_t markStridedFaces(const Trace& trace, const ChannelPolicy& policy, ActionProgram& program)
{
    if (policy.stridedSites.empty() || program.messages.empty()) return 0;
    CallSiteTable sites;
    const std::vector<uint32_t> siteOf = sendCallSites(trace, sites);
    // Which call sites are strided, decided once per site.
    std::vector<uint8_t> stridedSite(sites.size(), 0);
    for (size_t s = 0; s < sites.size(); ++s) {
        const std::string_view name = sites.name(CallSiteId(uint32_t(s)));
        for (const std::string& text : policy.stridedSites)
            if (name.find(text) != std::string_view::npos) stridedSite[s] = 1;
    }
    program.strided.assign(program.messages.size(), 0);
    size_t count = 0;
    for (size_t m = 0; m < program.messages.size() && m < siteOf.size(); ++m)
        if (siteOf[m] != kNoCallSite && stridedSite[siteOf[m]] != 0) {
            program.strided[m] = 1;
            ++count;
        }
    if (count == 0) {
        program.strided.clear();
        return 0;
    }
    if (policy.packBytesPerNs > 0)
        for (Action& a : program.actions)
            if ((a.kind == ActionKind::PostSend || a.kind == ActionKind::WaitRecv) &&
                program.strided[a.ref] != 0)
                a.value = double(program.messages[a.ref].bytes) / policy.packBytesPerNs;
    return count;
}

} // namespace rankscope::netsim
