#include "app/session.h"

#include "model/support/atomicfile.h"
#include "model/support/boundedread.h"
#include "model/trace/traceerror.h"
#include "whatif/netsim/strictyaml.h"
#include "whatif/scenario/scenariorun.h"
#include "whatif/scenario/specfinder.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <yaml-cpp/yaml.h>

namespace rankscope {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& source, const YAML::Node& node, const std::string& key,
                       const std::string& what)
{
    std::string where = source;
    if (node.Mark().line >= 0) where += ":" + std::to_string(node.Mark().line + 1);
    throw TraceError(where + ": " + key + ": " + what);
}

std::vector<std::string> strings(const YAML::Node& node, const std::string& key,
                                 const std::string& source)
{
    std::vector<std::string> out;
    if (!node) return out;
    if (!node.IsSequence()) fail(source, node, key, "expected a list");
    for (const YAML::Node& e : node) {
        if (!e.IsScalar()) fail(source, e, key, "expected a list of single values");
        out.push_back(e.Scalar());
    }
    return out;
}

template <class T> T as(const YAML::Node& node, const std::string& key, const std::string& source)
{
    try {
        return node.as<T>();
    } catch (const YAML::Exception&) {
        fail(source, node, key, "expected a number or true/false here");
    }
}

/// `s` with its trace paths mapped by `f`. Its network: a bundled spec is saved by its name
/// (whatif/scenario/specfinder.h), never as a path into a build tree or an install prefix, and
/// a name read back stays a name; any other spec path is mapped like the traces.
whatif::Scenario mapPaths(whatif::Scenario s, const auto& f, bool saving, const std::string& folder)
{
    for (std::string& b : s.baselines)
        b = f(b);
    if (!s.compareWith.empty()) s.compareWith = f(s.compareWith);
    if (s.network.empty()) return s;
    if (saving) {
        const std::string name = whatif::bundledSpecName(s.network);
        s.network = name.empty() ? f(s.network) : name;
    } else {
        std::error_code ec;
        const bool bare = s.network.find('/') == std::string::npos;
        if (!bare || fs::exists(fs::path(folder) / s.network, ec)) s.network = f(s.network);
    }
    return s;
}

SessionExtrapolation extrapolationFromYaml(const YAML::Node& n, const std::string& source,
                                           const auto& abs)
{
    const std::string key = "extrapolations";
    if (!n.IsMap()) fail(source, n, key, "expected {traces: [...], target: N, ...}");
    for (const auto& kv : n) {
        static const char* const known[] = {"traces", "measured",     "target",
                                            "method", "classic_mode", "bins"};
        if (std::find(std::begin(known), std::end(known), kv.first.Scalar()) == std::end(known))
            fail(source, kv.first, key + "." + kv.first.Scalar(), "unknown key");
    }
    SessionExtrapolation e;
    for (const std::string& t : strings(n["traces"], key + ".traces", source))
        e.traces.push_back(abs(t));
    if (e.traces.size() < 3) fail(source, n, key + ".traces", "expected three or more traces");
    if (n["measured"]) e.measured = abs(as<std::string>(n["measured"], key + ".measured", source));
    if (!n["target"]) fail(source, n, key + ".target", "missing");
    const int64_t target = as<int64_t>(n["target"], key + ".target", source);
    if (target < 1 || target > int64_t(UINT32_MAX))
        fail(source, n["target"], key + ".target", "expected a rank count of at least 1");
    e.target = uint32_t(target);
    if (n["method"]) e.method = as<std::string>(n["method"], key + ".method", source);
    if (e.method != "auto" && e.method != "rankscope" && e.method != "classic" &&
        e.method != "both")
        fail(source, n["method"], key + ".method",
             "'" + e.method + "' is not auto, rankscope, classic or both");
    if (n["classic_mode"])
        e.classicMode = as<std::string>(n["classic_mode"], key + ".classic_mode", source);
    if (e.classicMode != "interval" && e.classicMode != "sum")
        fail(source, n["classic_mode"], key + ".classic_mode",
             "'" + e.classicMode + "' is not interval or sum");
    if (n["bins"]) e.bins = as<int>(n["bins"], key + ".bins", source);
    if (e.bins < 2 || e.bins > 1000)
        fail(source, n["bins"], key + ".bins", "expected 2 to 1000 bins");
    return e;
}

/// The bookmarks of one trace; a malformed entry is skipped with a warning.
std::vector<Bookmark> bookmarksFromYaml(const YAML::Node& list, const std::string& key,
                                        const std::string& source,
                                        std::vector<std::string>& warnings)
{
    std::vector<Bookmark> out;
    const auto warn = [&](const YAML::Node& at, const std::string& k, const std::string& what) {
        std::string where = source;
        if (at.Mark().line >= 0) where += ":" + std::to_string(at.Mark().line + 1);
        warnings.push_back(where + ": " + k + ": " + what + "; bookmark skipped");
    };
    if (!list.IsSequence()) {
        warn(list, key, "expected a list of {name: ..., begin: ns, end: ns}");
        return out;
    }
    for (size_t i = 0; i < list.size(); ++i) {
        const YAML::Node n = list[i];
        const std::string k = key + "[" + std::to_string(i) + "]";
        if (!n.IsMap()) {
            warn(n, k, "expected {name: ..., begin: ns, end: ns}");
            continue;
        }
        Bookmark b;
        std::string problem;
        for (const auto& kv : n)
            if (kv.first.Scalar() != "name" && kv.first.Scalar() != "begin" &&
                kv.first.Scalar() != "end")
                problem = "unknown key '" + kv.first.Scalar() + "'";
        if (problem.empty() && (!n["name"] || !n["name"].IsScalar())) problem = "expected a name";
        double* const fields[] = {&b.begin, &b.end};
        const char* const names[] = {"begin", "end"};
        for (int f = 0; f < 2 && problem.empty(); ++f) {
            try {
                if (!n[names[f]]) throw YAML::Exception(YAML::Mark::null_mark(), "missing");
                *fields[f] = n[names[f]].as<double>();
            } catch (const YAML::Exception&) {
                problem = std::string("expected a time in ns for '") + names[f] + "'";
            }
            if (problem.empty() && !std::isfinite(*fields[f]))
                problem = std::string("'") + names[f] + "' is not a finite time";
        }
        if (problem.empty() && !(b.end > b.begin)) problem = "the end must be after the begin";
        if (!problem.empty()) {
            warn(n, k, problem);
            continue;
        }
        b.name = n["name"].Scalar();
        out.push_back(std::move(b));
    }
    return out;
}

} // namespace

std::string relativeTo(const std::string& path, const std::string& folder)
{
    if (path.empty() || folder.empty()) return path;
    const fs::path p = fs::path(path).lexically_normal();
    if (p.is_relative()) return path;
    const fs::path rel = p.lexically_relative(fs::path(folder).lexically_normal());
    if (rel.empty()) return path;
    int ups = 0;
    for (const fs::path& part : rel)
        if (part == "..") ++ups;
    return ups <= 1 ? rel.generic_string() : path;
}

std::string resolveAgainst(const std::string& path, const std::string& folder)
{
    if (path.empty()) return path;
    const fs::path p(path);
    if (p.is_absolute()) return p.lexically_normal().generic_string();
    return (fs::path(folder) / p).lexically_normal().generic_string();
}

Session Session::parse(const std::string& text, const std::string& source,
                       const std::string& folder)
{
    const YAML::Node root = netsim::loadStrictYaml(text, source);
    whatif::checkSessionDocument(root, source); // as `scenario run` checks it
    const auto abs = [&folder](const std::string& p) { return resolveAgainst(p, folder); };

    Session s;
    for (const std::string& t : strings(root["traces"], "traces", source))
        s.traces.push_back(abs(t));
    if (const YAML::Node list = root["scenarios"]) {
        if (!list.IsSequence()) fail(source, list, "scenarios", "expected a list of scenarios");
        for (const YAML::Node& n : list)
            s.scenarios.push_back(
                mapPaths(whatif::scenarioFromYaml(n, source), abs, false, folder));
    }
    if (const YAML::Node p = root["whatif"]) {
        // The what-if panel's state: a scenario that need not be complete to be kept.
        try {
            s.panel = mapPaths(whatif::scenarioFromYaml(p, source), abs, false, folder);
        } catch (const TraceError& e) {
            s.warnings.push_back(std::string(e.what()) + " (the what-if panel starts empty)");
        }
    }
    if (const YAML::Node list = root["results"]) {
        if (!list.IsSequence())
            fail(source, list, "results", "expected a list of scenario names or scenarios");
        for (const YAML::Node& n : list) {
            if (n.IsMap()) {
                s.results.push_back(
                    mapPaths(whatif::scenarioFromYaml(n, source), abs, false, folder));
                continue;
            }
            if (!n.IsScalar()) fail(source, n, "results", "expected a scenario name or scenario");
            const auto known =
                std::find_if(s.scenarios.begin(), s.scenarios.end(),
                             [&](const whatif::Scenario& sc) { return sc.name == n.Scalar(); });
            if (known == s.scenarios.end())
                fail(source, list, "results", "no scenario named '" + n.Scalar() + "'");
            s.results.push_back(*known);
        }
    }
    if (const YAML::Node list = root["extrapolations"]) {
        if (!list.IsSequence()) fail(source, list, "extrapolations", "expected a list");
        for (const YAML::Node& n : list)
            s.extrapolations.push_back(extrapolationFromYaml(n, source, abs));
    }
    if (const YAML::Node v = root["view"]) {
        if (!v.IsMap()) fail(source, v, "view", "expected a map");
        if (v["current_tab"])
            s.view.currentTab = as<int>(v["current_tab"], "view.current_tab", source);
        if (v["whatif_panel"])
            s.view.whatIfPanel = as<bool>(v["whatif_panel"], "view.whatif_panel", source);
        if (v["tour"]) s.view.tour = as<bool>(v["tour"], "view.tour", source);
        if (v["tour_step"]) s.view.tourStep = as<int>(v["tour_step"], "view.tour_step", source);
        if (const YAML::Node c = v["comparisons"]) {
            if (!c.IsSequence()) fail(source, c, "view.comparisons", "expected a list of pairs");
            for (const YAML::Node& pair : c) {
                const std::vector<std::string> two = strings(pair, "view.comparisons", source);
                if (two.size() != 2)
                    fail(source, pair, "view.comparisons", "expected [first, second] trace paths");
                s.view.comparisons.emplace_back(abs(two[0]), abs(two[1]));
            }
        }
        if (const YAML::Node r = v["ranges"]) {
            if (!r.IsMap()) fail(source, r, "view.ranges", "expected trace: [begin, end]");
            for (const auto& kv : r) {
                const std::string key = "view.ranges." + kv.first.Scalar();
                if (!kv.second.IsSequence() || kv.second.size() != 2)
                    fail(source, kv.second, key, "expected [begin, end] in ns");
                const double b = as<double>(kv.second[0], key, source);
                const double e = as<double>(kv.second[1], key, source);
                if (!(e > b)) fail(source, kv.second, key, "the end must be after the begin");
                s.view.ranges[abs(kv.first.Scalar())] = {b, e};
            }
        }
    }
    if (const YAML::Node marks = root["bookmarks"]) {
        if (!marks.IsMap()) {
            s.warnings.push_back(source + ":" + std::to_string(marks.Mark().line + 1) +
                                 ": bookmarks: expected trace: [bookmarks]; bookmarks skipped");
        } else {
            for (const auto& kv : marks) {
                std::vector<Bookmark> list = bookmarksFromYaml(
                    kv.second, "bookmarks." + kv.first.Scalar(), source, s.warnings);
                if (!list.empty()) s.bookmarks[abs(kv.first.Scalar())] = std::move(list);
            }
        }
    }
    return s;
}

Session Session::load(const std::string& path)
{
    const std::string text = readSmallTextFile(path, "session");
    // Relative paths are relative to where the file really is, as save() writes them.
    return parse(text, path, fs::absolute(fs::path(followSymlinks(path))).parent_path().string());
}

std::string Session::toYaml(const std::string& folder) const
{
    const auto rel = [&folder](const std::string& p) { return relativeTo(p, folder); };
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "rankscope_session" << YAML::Value << whatif::kSessionFormatVersion;
    out << YAML::Key << "traces" << YAML::Value << YAML::BeginSeq;
    for (const std::string& t : traces)
        out << rel(t);
    out << YAML::EndSeq;
    YAML::Node list(YAML::NodeType::Sequence);
    for (const whatif::Scenario& sc : scenarios)
        list.push_back(whatif::toYaml(mapPaths(sc, rel, true, folder)));
    out << YAML::Key << "scenarios" << YAML::Value << list;
    // A result of a saved scenario, unchanged, is named; any other is written in full.
    YAML::Node resultList(YAML::NodeType::Sequence);
    for (const whatif::Scenario& r : results) {
        const bool saved = std::find(scenarios.begin(), scenarios.end(), r) != scenarios.end();
        resultList.push_back(saved ? YAML::Node(r.name)
                                   : whatif::toYaml(mapPaths(r, rel, true, folder)));
    }
    out << YAML::Key << "results" << YAML::Value << resultList;
    if (panel)
        out << YAML::Key << "whatif" << YAML::Value
            << whatif::toYaml(mapPaths(*panel, rel, true, folder));
    out << YAML::Key << "extrapolations" << YAML::Value << YAML::BeginSeq;
    for (const SessionExtrapolation& e : extrapolations) {
        out << YAML::BeginMap;
        out << YAML::Key << "traces" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (const std::string& t : e.traces)
            out << rel(t);
        out << YAML::EndSeq;
        if (!e.measured.empty()) out << YAML::Key << "measured" << YAML::Value << rel(e.measured);
        out << YAML::Key << "target" << YAML::Value << e.target;
        out << YAML::Key << "method" << YAML::Value << e.method;
        out << YAML::Key << "classic_mode" << YAML::Value << e.classicMode;
        out << YAML::Key << "bins" << YAML::Value << e.bins;
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    out << YAML::Key << "view" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "current_tab" << YAML::Value << view.currentTab;
    out << YAML::Key << "whatif_panel" << YAML::Value << view.whatIfPanel;
    out << YAML::Key << "tour" << YAML::Value << view.tour;
    out << YAML::Key << "tour_step" << YAML::Value << view.tourStep;
    out << YAML::Key << "comparisons" << YAML::Value << YAML::BeginSeq;
    for (const auto& [a, b] : view.comparisons)
        out << YAML::Flow << YAML::BeginSeq << rel(a) << rel(b) << YAML::EndSeq;
    out << YAML::EndSeq;
    out << YAML::Key << "ranges" << YAML::Value << YAML::BeginMap;
    out << YAML::Precision(17);
    for (const auto& [path, range] : view.ranges)
        out << YAML::Key << rel(path) << YAML::Value << YAML::Flow << YAML::BeginSeq << range.first
            << range.second << YAML::EndSeq;
    out << YAML::EndMap;
    out << YAML::EndMap;
    out << YAML::Key << "bookmarks" << YAML::Value << YAML::BeginMap;
    for (const auto& [path, marks] : bookmarks) {
        if (marks.empty()) continue;
        out << YAML::Key << rel(path) << YAML::Value << YAML::BeginSeq;
        for (const Bookmark& b : marks)
            out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << b.name
                << YAML::Key << "begin" << YAML::Value << b.begin << YAML::Key << "end"
                << YAML::Value << b.end << YAML::EndMap;
        out << YAML::EndSeq;
    }
    out << YAML::EndMap;
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

void Session::save(const std::string& path) const
{
    // Paths are made relative to the folder of the file written, which for a symbolic link is
    // the folder of the file it points to.
    const fs::path target = fs::absolute(fs::path(followSymlinks(path)));
    writeFileAtomically(path, toYaml(target.parent_path().string()), "the session file");
}

} // namespace rankscope
