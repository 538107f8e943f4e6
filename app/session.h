#pragma once
// A session (workspace) file: the open traces, the what-if scenarios and the view state, in
// YAML next to network specs and scenarios, so people can read and diff them:
//
//   rankscope_session: 1
//   traces: [mg-W-8, ../runs/stencil-64]      # relative to the session file's folder
//   scenarios: [{name: ..., kind: replay, ...}]   # whatif/scenario/scenario.h
//   whatif: {name: ..., kind: scale, ...}      # the what-if panel as it was
//   results: [WAN 20 ms, {name: ..., ...}]    # what-if result tabs: a saved scenario's name,
//                                             # or the whole scenario of an unsaved run
//   extrapolations: [{traces: [a, b, c], measured: d, target: 144, method: auto,
//                     classic_mode: interval, bins: 20}]   # extrapolation result tabs
//   view: {current_tab: 1, whatif_panel: true, tour: false, tour_step: 0,
//          comparisons: [[a, b]], ranges: {mg-W-8: [0, 1e9]}}
//   bookmarks: {mg-W-8: [{name: first exchange, begin: 1.2e8, end: 1.9e8}]}   # ns
//
// A malformed bookmark is skipped with a warning (Session::warnings) instead of failing the
// whole file: bookmarks are a convenience, the traces and results they sit on are the work.
//
// Paths are stored relative to the session file when they lie under its folder or a sibling
// of it, so a session moves with its traces (the bundled demo session does). Plain C++ and
// yaml-cpp: no Qt, so a script can write one and the tests can compare structures.

#include "app/bookmark.h"
#include "whatif/scenario/scenario.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rankscope {

struct SessionView
{
    int currentTab = 0;
    bool whatIfPanel = false; ///< the what-if dock is shown
    bool tour = false;        ///< the guided tour dock is shown
    int tourStep = 0;
    /// Comparison tabs, by the traces they stack (absolute paths in memory).
    std::vector<std::pair<std::string, std::string>> comparisons;
    /// Visible time range (trace time, ns) of each trace tab, by absolute path.
    std::map<std::string, std::pair<double, double>> ranges;
    bool operator==(const SessionView&) const = default;
};

/// An extrapolation result tab, by what re-runs it: its input traces and the dialog's choices.
struct SessionExtrapolation
{
    std::vector<std::string> traces; ///< the input scales (absolute paths in memory)
    std::string measured;            ///< the measured run at the target; may be empty
    uint32_t target = 0;
    std::string method = "auto";          ///< "auto", "rankscope", "classic" or "both"
    std::string classicMode = "interval"; ///< "interval" or "sum"
    int bins = 20;
    bool operator==(const SessionExtrapolation&) const = default;
};

struct Session
{
    std::vector<std::string> traces;         ///< absolute paths, in tab order
    std::vector<whatif::Scenario> scenarios; ///< paths inside are absolute in memory
    /// The scenario behind each what-if result tab, in tab order: a sweep tab's scenario has
    /// its sweep, a run's has none. Re-run when the session is opened. Saved as the name of a
    /// saved scenario when it is one of them unchanged, else in full.
    std::vector<whatif::Scenario> results;
    std::vector<SessionExtrapolation> extrapolations; ///< re-run when the session is opened
    /// The what-if panel as it was (YAML `whatif`): spec, edits, calibrated baseline, kind,
    /// inputs, target. Kept when it is a complete scenario.
    std::optional<whatif::Scenario> panel;
    SessionView view;
    /// Bookmarks of each trace tab, by absolute trace path, in the order they were made.
    std::map<std::string, std::vector<Bookmark>> bookmarks;
    /// What load() or parse() skipped (a malformed bookmark), each naming the file, line and
    /// key; never written.
    std::vector<std::string> warnings;
    bool operator==(const Session&) const = default;

    /// Reads `path`; throws TraceError naming the file, line and key. Relative paths in the
    /// file are resolved against its folder.
    static Session load(const std::string& path);
    /// Parses session text; relative paths are resolved against `folder`.
    static Session parse(const std::string& text, const std::string& source,
                         const std::string& folder);
    /// The YAML text of this session with paths made relative to `folder` where they can be.
    std::string toYaml(const std::string& folder) const;
    /// Writes atomically (model/support/atomicfile.h), so a crash while saving never leaves half a
    /// session; a symbolic link at `path` stays and its target is updated. Throws TraceError
    /// when the file cannot be written.
    void save(const std::string& path) const;
};

/// `path` relative to `folder` when it is inside it or one level up from it, else unchanged.
std::string relativeTo(const std::string& path, const std::string& folder);
/// `path` made absolute against `folder` (unchanged when absolute) and lexically normalised.
std::string resolveAgainst(const std::string& path, const std::string& folder);

} // namespace rankscope
