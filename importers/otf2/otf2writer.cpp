// writeOtf2: checks the target, writes the events location by location (each location's
// buffer is flushed and freed before the next, so memory stays at one OTF2 chunk), then the
// local and global definitions, and removes everything it created if anything fails.

#include "importers/otf2/otf2writer.h"

#include "importers/otf2/otf2definitionwriter.h"
#include "importers/otf2/otf2eventwriter.h"
#include "importers/otf2/otf2readerror.h"
#include "importers/otf2/otf2writeerror.h"
#include "model/support/staging.h"
#include "model/trace/partialmark.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <otf2/otf2.h>
#include <system_error>
#include <unistd.h>
#include <unordered_set>

namespace fs = std::filesystem;

namespace rankscope {

namespace {

constexpr const char* kArchiveName = "traces";

OTF2_FlushType preFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool)
{
    return OTF2_FLUSH;
}

OTF2_FlushCallbacks flushCallbacks = {preFlush, nullptr}; // no BufferFlush records

/// The archive handle, closed on every path out.
class OpenArchive
{
public:
    OpenArchive(const std::string& dir, const std::string& path)
        : archive_(OTF2_Archive_Open(dir.c_str(), kArchiveName, OTF2_FILEMODE_WRITE, 1024 * 1024,
                                     4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE))
    {
        if (!archive_) throw TraceError(path + ": cannot create OTF2 archive");
    }
    ~OpenArchive() { close(); }
    OpenArchive(const OpenArchive&) = delete;
    OpenArchive& operator=(const OpenArchive&) = delete;

    OTF2_Archive* get() const { return archive_; }
    OTF2_ErrorCode close()
    {
        OTF2_ErrorCode code = OTF2_SUCCESS;
        if (archive_) code = OTF2_Archive_Close(archive_);
        archive_ = nullptr;
        return code;
    }

private:
    OTF2_Archive* archive_;
};

/// OTF2 location ids: the ones the trace came with if they are distinct, else Score-P's scheme
/// (rank r's main thread is r, its k-th other location (k << 32) | r).
std::vector<uint64_t> locationIds(const Trace& trace)
{
    std::vector<uint64_t> ids;
    std::unordered_set<uint64_t> seen;
    for (const Location& l : trace.locations())
        if (seen.insert(l.otf2Id).second) ids.push_back(l.otf2Id);
    if (ids.size() == trace.locations().size()) return ids;
    ids.assign(trace.locations().size(), 0);
    for (uint32_t r = 0; r < trace.rankCount(); ++r) {
        const auto& locs = trace.rank(RankId(r)).locations;
        for (size_t k = 0; k < locs.size(); ++k)
            ids[locs[k].value] = (uint64_t(k) << 32) | r;
    }
    return ids;
}

void writeArchive(const Trace& trace, const std::string& dir, const std::string& path,
                  const Otf2WriteOptions& options, Otf2WriteReport& report)
{
    otf2read::installErrorCapture(); // OTF2's messages go into our errors, not onto stderr
    otf2read::clearCapturedError();
    const std::vector<uint64_t> ids = locationIds(trace);
    OpenArchive archive(dir, path);
    OTF2_Archive* a = archive.get();
    checkOtf2Write(OTF2_Archive_SetFlushCallbacks(a, &flushCallbacks, nullptr), path, "setup");
    checkOtf2Write(OTF2_Archive_SetSerialCollectiveCallbacks(a), path, "create folders");
    checkOtf2Write(OTF2_Archive_SetCreator(a, "Rankscope"), path, "setup");
    checkOtf2Write(OTF2_Archive_SetDescription(a, trace.provenance().kind.c_str()), path, "setup");
    // Provenance travels as archive properties, so a generated or predicted trace read back is
    // still known as such (readOtf2 restores it).
    const Provenance& prov = trace.provenance();
    if (!prov.kind.empty())
        checkOtf2Write(OTF2_Archive_SetProperty(a, kOtf2ProvenanceKind, prov.kind.c_str(), true),
                       path, "setup");
    if (!prov.parameters.empty()) // OTF2 reads an empty value as "remove the property"
        checkOtf2Write(
            OTF2_Archive_SetProperty(a, kOtf2ProvenanceParameters, prov.parameters.c_str(), true),
            path, "setup");
    if (const std::string mark = partialMark(trace.diagnostics()); !mark.empty())
        checkOtf2Write(OTF2_Archive_SetProperty(a, kOtf2WrittenFromPartial, mark.c_str(), true),
                       path, "setup");

    const double total = std::max<double>(1.0, static_cast<double>(trace.eventCount()));
    uint64_t done = 0;
    auto tick = [&](size_t n) {
        done += n;
        if (options.progress && !options.progress(0.95 * static_cast<double>(done) / total))
            throw Cancelled();
    };

    Otf2EventWriter events(trace, ids, path);
    checkOtf2Write(OTF2_Archive_OpenEvtFiles(a), path, "open event files");
    for (uint32_t l = 0; l < trace.locations().size(); ++l) {
        OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(a, ids[l]);
        if (!w)
            throw TraceError(path + ": cannot create the event file of location " +
                             std::to_string(ids[l]));
        try {
            events.write(w, LocationId(l), tick);
        } catch (...) {
            OTF2_Archive_CloseEvtWriter(a, w);
            throw;
        }
        checkOtf2Write(OTF2_Archive_CloseEvtWriter(a, w), path,
                       "event file of location " + std::to_string(ids[l]));
        report.eventsWritten += events.eventCount(LocationId(l));
    }
    checkOtf2Write(OTF2_Archive_CloseEvtFiles(a), path, "close event files");

    // Local definition files: empty (no id mappings), but tools expect one per location.
    checkOtf2Write(OTF2_Archive_OpenDefFiles(a), path, "open definition files");
    for (uint64_t id : ids) {
        OTF2_DefWriter* w = OTF2_Archive_GetDefWriter(a, id);
        if (!w)
            throw TraceError(path + ": cannot create the definition file of location " +
                             std::to_string(id));
        checkOtf2Write(OTF2_Archive_CloseDefWriter(a, w), path, "local definitions");
    }
    checkOtf2Write(OTF2_Archive_CloseDefFiles(a), path, "close definition files");

    OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(a);
    if (!g) throw TraceError(path + ": cannot create the global definition file");
    Otf2DefinitionWriter(trace, ids, events, path).write(g);
    checkOtf2Write(OTF2_Archive_CloseGlobalDefWriter(a, g), path, "global definitions");
    checkOtf2Write(archive.close(), path, "close");
    // OTF2 reports some write failures only through its error callback: a chunk of buffered
    // events that cannot be written at close (file too large, disk full) still returns success.
    if (const std::string failure = otf2read::firstCapturedFailure(); !failure.empty())
        throw TraceError(path + ": cannot write OTF2 archive: " + failure);

    // OTF2 reports some write failures (e.g. of the anchor file) only on stderr.
    for (const char* file : {"traces.otf2", "traces.def"}) {
        std::error_code ec;
        if (fs::file_size(fs::path(dir) / file, ec) == 0 || ec)
            throw TraceError(path + ": cannot write " + file);
    }

    report.skippedEvents = events.skippedOther() + events.skippedUnmatched() +
                           events.skippedOutsider() + events.skippedStrayEnds() +
                           trace.metricRecords();
    auto warn = [&](uint64_t n, const std::string& what) {
        if (n > 0) report.warnings.push_back(std::to_string(n) + " " + what);
    };
    warn(events.skippedOther(), "event(s) of kinds OTF2 cannot express (MiscKind::Other) were "
                                "not written");
    warn(trace.metricRecords(), "metric record(s) (hardware counters) were not written");
    warn(events.skippedUnmatched(), "point-to-point event(s) of unmatched messages were not "
                                    "written: the model does not keep their partner rank");
    warn(events.skippedOutsider(), "point-to-point event(s) whose partner is not a member of "
                                   "the message's communicator were not written");
    warn(events.skippedStrayEnds(), "collective end event(s) without a begin were not written");
}

} // namespace

Otf2WriteReport writeOtf2(const Trace& trace, const std::string& dir,
                          const Otf2WriteOptions& options)
{
    const std::string path = dir;
    if (dir.empty()) throw TraceError("cannot write OTF2 archive: no folder given");
    if (trace.clock().offsetNs + std::min<int64_t>(0, trace.beginTime()) < 0)
        throw TraceError(path + ": cannot write OTF2 archive: timestamps before the clock "
                                "epoch (OTF2 times are unsigned)");

    const fs::path root(dir);
    static const char* const kNames[] = {"traces.otf2", "traces.def", "traces"};
    std::error_code ec;
    const auto refuseExisting = [&] {
        if (options.replace) return;
        for (const char* name : kNames)
            if (fs::exists(fs::symlink_status(root / name, ec)))
                throw TraceError(path + ": cannot write OTF2 archive: '" + name +
                                 "' already exists there (choose an empty folder)");
    };
    const bool existed = fs::exists(root, ec);
    if (existed && !fs::is_directory(root, ec))
        throw TraceError(path + ": cannot write OTF2 archive: not a folder");
    refuseExisting();
    // (Another writer may create it meanwhile: only an error code is a failure.)
    if (!existed && (fs::create_directories(root, ec), ec))
        throw TraceError(path + ": cannot create folder (" + ec.message() + ")");

    // The archive is written into a hidden folder inside `dir` and moved into place only when
    // complete and on disk, so a full disk, a kill or a cancel never leaves a partial archive
    // under the final names, nor costs the one it replaces (staging.h).
    Otf2WriteReport report;
    try {
        StagingFolder staging(root / "traces", "OTF2 archive");
        writeArchive(trace, staging.path().string(), path, options, report);
        if (options.progress && !options.progress(1.0)) throw Cancelled();
        staging.sync();
        FolderLock lock(root);
        refuseExisting(); // again: another writer may have finished meanwhile
        // The anchor file goes first and comes back last: between the moves there is no
        // archive here, never a mix of the old and the new one.
        if (::unlink((root / "traces.otf2").c_str()) != 0 && errno != ENOENT)
            throw TraceError(path + ": cannot replace the OTF2 archive: " + std::strerror(errno));
        staging.moveIntoPlace("traces.def");
        staging.moveIntoPlace("traces");
        staging.moveIntoPlace("traces.otf2");
        staging.syncDestination();
    } catch (...) {
        if (!existed) fs::remove(root, ec); // only if still empty
        throw;
    }
    return report;
}

} // namespace rankscope
