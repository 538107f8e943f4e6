#include "importers/otf2/otf2reader.h"

#include "importers/otf2/otf2definitionreader.h"
#include "importers/otf2/otf2eventreader.h"
#include "importers/otf2/otf2readerror.h"
#include "importers/otf2/otf2tables.h"
#include "importers/otf2/otf2writer.h"
#include "model/support/memorybudget.h"
#include "model/trace/partialmark.h"
#include "model/trace/tracebuilder.h"
#include "model/trace/traceerror.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <otf2/OTF2_Reader.h>
#include <thread>
#include <utility>

namespace rankscope {

namespace {

namespace fs = std::filesystem;

struct ReaderCloser
{
    void operator()(OTF2_Reader* r) const { OTF2_Reader_Close(r); }
};
using ReaderPtr = std::unique_ptr<OTF2_Reader, ReaderCloser>;

/// The anchor file named by `path`: the file itself, or the one *.otf2 file in a folder.
fs::path resolveAnchor(const std::string& path)
{
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (path.empty() || !fs::exists(st)) throw TraceError(path + ": no such file or folder");
    if (fs::is_directory(st)) {
        std::vector<fs::path> anchors;
        for (const auto& entry : fs::directory_iterator(path, ec))
            if (entry.path().extension() == ".otf2" && entry.is_regular_file(ec))
                anchors.push_back(entry.path());
        if (ec) throw TraceError(path + ": cannot list the folder: " + ec.message());
        if (anchors.empty())
            throw TraceError(path + ": the folder holds no OTF2 anchor file (*.otf2)");
        if (anchors.size() > 1) {
            std::sort(anchors.begin(), anchors.end());
            std::string names;
            for (const auto& a : anchors)
                names += (names.empty() ? "" : ", ") + a.filename().string();
            throw TraceError(path + ": the folder holds several OTF2 anchor files (" + names +
                             "); name one of them");
        }
        return anchors.front();
    }
    if (!fs::is_regular_file(st)) throw TraceError(path + ": not a regular file");
    return fs::path(path);
}

/// Cheap check of the anchor's signature ("OTF2" after a two-byte buffer header, in every OTF2
/// version we have seen) before OTF2 gets the file: OTF2_Reader_Open leaks its file handle
/// when it rejects a file, and a clear message is better than OTF2's generic one anyway.
void checkSignature(const std::string& anchor)
{
    char head[6] = {};
    std::FILE* f = std::fopen(anchor.c_str(), "rb");
    if (!f) throw TraceError(anchor + ": cannot open the file");
    const size_t n = std::fread(head, 1, sizeof head, f);
    std::fclose(f);
    if (n < sizeof head || std::memcmp(head + 2, "OTF2", 4) != 0)
        throw TraceError(anchor + ": not an OTF2 anchor file (no OTF2 signature)");
}

ReaderPtr openReader(const std::string& anchor, const Otf2ReadOptions& options)
{
    checkSignature(anchor);
    otf2read::clearCapturedError();
    ReaderPtr reader(OTF2_Reader_Open(anchor.c_str()));
    if (!reader)
        throw TraceError(anchor + ": not an OTF2 anchor file (OTF2 cannot open it: " +
                         otf2read::errorText(OTF2_ERROR_FILE_CAN_NOT_OPEN) + ")");
    // Reading one archive from one process: no MPI collectives, OTF2's serial implementation;
    // the MPI back end installs OTF2's MPI collectives instead.
    const OTF2_ErrorCode rc =
        options.setCollectiveCallbacks
            ? static_cast<OTF2_ErrorCode>(options.setCollectiveCallbacks(reader.get()))
            : OTF2_Reader_SetSerialCollectiveCallbacks(reader.get());
    if (rc != OTF2_SUCCESS)
        throw TraceError(anchor + ": cannot read the archive: " + otf2read::errorText(rc));
    return reader;
}

/// Positions in `chosen`, largest location (most events) first: threads that take the next one
/// in this order finish at about the same time even when one of them runs slower.
std::vector<size_t> largestFirst(const Otf2Tables& tables, const std::vector<size_t>& chosen)
{
    std::vector<size_t> order(chosen.size());
    for (size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return tables.locations[chosen[a]].eventCount > tables.locations[chosen[b]].eventCount;
    });
    return order;
}

/// Appends the warnings of several readers to `out` by the position of their location, so that
/// they do not depend on which thread read which location.
void appendByPosition(std::vector<std::string>& out,
                      std::vector<std::pair<size_t, std::string>> positioned)
{
    std::stable_sort(positioned.begin(), positioned.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [position, text] : positioned)
        out.push_back(std::move(text));
}

void collectWarnings(const Otf2EventReader& events,
                     std::vector<std::pair<size_t, std::string>>& into)
{
    for (size_t w = 0; w < events.warnings().size(); ++w)
        into.emplace_back(events.warningPositions()[w], events.warnings()[w]);
}

/// Throttled progress: at most ~100 calls; throws Cancelled when asked to stop.
class ProgressReporter
{
public:
    ProgressReporter(const std::function<bool(double)>& callback, uint64_t total)
        : callback_(callback), total_(std::max<uint64_t>(total, 1))
    {
    }

    /// Returns false if the user cancelled.
    bool update(uint64_t done, bool final = false)
    {
        if (!callback_) return true;
        const double fraction = final ? 1.0 : std::min(1.0, double(done) / double(total_));
        if (!final && fraction < last_ + 0.01) return true;
        last_ = fraction;
        return callback_(fraction);
    }

private:
    const std::function<bool(double)>& callback_;
    uint64_t total_;
    double last_ = -1.0;
};

/// Traces Rankscope wrote carry their provenance in archive properties; any other trace was
/// measured.
Provenance readProvenance(OTF2_Reader* reader, const std::string& anchor)
{
    Provenance p{"measured", anchor, {}};
    auto property = [reader](const char* name, std::string& into) {
        char* value = nullptr;
        if (OTF2_Reader_GetProperty(reader, name, &value) == OTF2_SUCCESS && value) {
            into = value;
            free(value); // OTF2 hands out malloc'ed strings
        }
    };
    property(kOtf2ProvenanceKind, p.kind);
    property(kOtf2ProvenanceParameters, p.parameters);
    if (p.kind.empty()) p.kind = "measured";
    return p;
}

/// The mark of a trace Rankscope wrote from a partial one (kOtf2WrittenFromPartial); "" if none.
std::string readPartialMark(OTF2_Reader* reader)
{
    char* value = nullptr;
    std::string mark;
    if (OTF2_Reader_GetProperty(reader, kOtf2WrittenFromPartial, &value) == OTF2_SUCCESS && value) {
        mark = value;
        free(value);
    }
    return isPartialMark(mark) ? mark : std::string();
}

/// Refuses an import the machine has not the memory for. The event counts come from the global
/// definitions; before refusing, each is capped by its event file's size (an event takes at
/// least a byte), so that a damaged count does not pass for a huge trace.
void checkImportMemory(const Otf2Tables& tables, const std::vector<size_t>& chosen,
                       const std::string& anchor, uint64_t events, const Otf2ReadOptions& options)
{
    if (!options.checkMemory) return;
    const auto available =
        options.availableMemory ? options.availableMemory : availableMemoryBytes();
    const uint64_t locations = tables.locations.size();
    if (!available || importMemoryBytes(events, locations) <= *available) return;
    events = 0;
    for (size_t i : chosen) {
        const auto& loc = tables.locations[i];
        std::error_code ec;
        const auto size = fs::file_size(tables.locationFile(loc.otf2Id, ".evt"), ec);
        events += ec ? 0 : std::min<uint64_t>(loc.eventCount, size);
    }
    requireMemory(anchor + ": importing " + std::to_string(events) + " events",
                  importMemoryBytes(events, locations), available);
}

/// The indices into tables.locations whose events this import reads (options.selectRanks).
std::vector<size_t> chosenLocations(const Otf2Tables& tables, size_t rankCount,
                                    const Otf2ReadOptions& options)
{
    std::vector<bool> ranks(rankCount, true);
    if (options.selectRanks) {
        std::vector<uint64_t> events(rankCount, 0);
        for (const auto& loc : tables.locations)
            if (loc.rank.value < rankCount) events[loc.rank.value] += loc.eventCount;
        ranks = options.selectRanks(events);
        ranks.resize(rankCount, false);
    }
    std::vector<size_t> chosen;
    for (size_t i = 0; i < tables.locations.size(); ++i)
        if (tables.locations[i].rank.value < rankCount && ranks[tables.locations[i].rank.value])
            chosen.push_back(i);
    return chosen;
}

} // namespace

Trace readOtf2(const std::string& path, const Otf2ReadOptions& options)
{
    otf2read::installErrorCapture();
    const fs::path anchorPath = resolveAnchor(path);
    const std::string anchor = anchorPath.string();

    Otf2Tables tables;
    tables.archiveDir = anchorPath.parent_path().empty() ? "." : anchorPath.parent_path().string();
    tables.archiveName = anchorPath.stem().string();

    TraceBuilder builder;
    ReaderPtr reader = openReader(anchor, options);
    builder.setProvenance(readProvenance(reader.get(), anchor));
    if (const std::string mark = readPartialMark(reader.get()); !mark.empty()) {
        builder.setPartial(true);
        builder.addWarning(partialMarkWarning(anchor, mark));
    }
    uint8_t major = 0, minor = 0, bugfix = 0;
    if (OTF2_Reader_GetVersion(reader.get(), &major, &minor, &bugfix) == OTF2_SUCCESS) {
        tables.writerVersion =
            std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(bugfix);
        // Only minor and major versions add record types.
        tables.knowsEveryRecordType = major < OTF2_VERSION_MAJOR ||
                                      (major == OTF2_VERSION_MAJOR && minor <= OTF2_VERSION_MINOR);
    }
    Otf2DefinitionReader definitions(reader.get(), tables, options.allowPartial);
    definitions.read(builder);
    // Odd but complete definitions: warned about, the trace is not partial.
    for (std::string& w : definitions.warnings())
        builder.addWarning(std::move(w));
    std::vector<std::string> warnings;
    // The anchor file lists how many locations the archive has; damaged global definitions
    // (one wrong string length is enough) can end the definitions early, with no error from
    // OTF2 and no locations, which would read as an empty trace.
    uint64_t listed = 0;
    if (OTF2_Reader_GetNumberOfLocations(reader.get(), &listed) == OTF2_SUCCESS &&
        tables.locations.size() < listed) {
        const std::string what = tables.archiveName + ".def defines " +
                                 std::to_string(tables.locations.size()) + " of the " +
                                 std::to_string(listed) + " locations the anchor file lists";
        if (!options.allowPartial)
            throw TraceError(anchor + ": " + what +
                             ": the global definitions are damaged "
                             "(--allow-partial keeps what can be read)");
        warnings.push_back(what + " (damaged global definitions): the others are left out");
    }
    Otf2EventReader::internRecordNames(builder, tables);

    const std::vector<size_t> chosen = chosenLocations(tables, builder.rankCount(), options);
    uint64_t totalEvents = 0;
    for (size_t i : chosen)
        totalEvents += tables.locations[i].eventCount;
    checkImportMemory(tables, chosen, anchor, totalEvents, options);
    ProgressReporter progress(options.progress, totalEvents);
    if (!progress.update(0)) throw Cancelled();

    std::atomic<uint64_t> eventsDone{0};
    std::atomic<bool> cancelled{false};
    // Collective callbacks pair each process's opening of the event files with the others':
    // one reader per process then.
    const size_t threads =
        options.setCollectiveCallbacks
            ? 1
            : std::max<size_t>(1, std::min<size_t>(options.threads, chosen.size()));

    std::vector<std::pair<size_t, std::string>> readWarnings;
    if (threads == 1) {
        Otf2EventReader events(tables, builder, options.allowPartial, eventsDone, cancelled);
        events.read(reader.get(), chosen, [&] {
            if (!progress.update(eventsDone.load(std::memory_order_relaxed))) throw Cancelled();
        });
        collectWarnings(events, readWarnings);
    } else {
        reader.reset();
        // Locations are handed out one at a time, largest first, rather than split into fixed
        // sets: on a shared machine one core can run a third slower than the other for a while.
        const std::vector<size_t> order = largestFirst(tables, chosen);
        std::atomic<size_t> next{0};
        std::vector<std::exception_ptr> errors(threads);
        std::vector<std::vector<std::pair<size_t, std::string>>> threadWarnings(threads);
        std::atomic<size_t> finished{0};
        std::vector<std::thread> workers;
        workers.reserve(threads);
        for (size_t k = 0; k < threads; ++k) {
            workers.emplace_back([&, k] {
                try {
                    // One OTF2_Reader per thread: OTF2 objects are not thread-safe, but
                    // independent readers may be used concurrently (OTF2_Callbacks.h).
                    ReaderPtr own = openReader(anchor, options);
                    Otf2EventReader events(tables, builder, options.allowPartial, eventsDone,
                                           cancelled);
                    events.readShared(own.get(), chosen, order, next);
                    collectWarnings(events, threadWarnings[k]);
                } catch (...) {
                    errors[k] = std::current_exception();
                    cancelled = true; // the import fails anyway: stop the other threads early
                }
                ++finished;
            });
        }
        bool userCancelled = false;
        while (finished.load() < threads) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            if (!userCancelled && !progress.update(eventsDone.load(std::memory_order_relaxed))) {
                userCancelled = true;
                cancelled = true;
            }
        }
        for (auto& w : workers)
            w.join();
        if (userCancelled) throw Cancelled();
        for (const auto& e : errors)
            if (e) std::rethrow_exception(e);
        for (auto& w : threadWarnings)
            readWarnings.insert(readWarnings.end(), w.begin(), w.end());
    }
    appendByPosition(warnings, std::move(readWarnings));
    reader.reset();

    if (!warnings.empty()) {
        builder.setPartial(true);
        for (auto& w : warnings)
            builder.addWarning(std::move(w));
    }
    Trace trace;
    try {
        trace = builder.finish(static_cast<unsigned>(threads));
    } catch (const TraceError& e) {
        throw TraceError(anchor + ": " + e.what());
    }
    if (!progress.update(totalEvents, true)) throw Cancelled();
    return trace;
}

} // namespace rankscope
