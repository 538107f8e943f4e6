#include "whatif/scenario/scenario.h"

#include "model/trace/traceerror.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace rankscope::whatif {

namespace {

constexpr const char* kModels[] = {"loggp", "packet", "flow"};

bool knownModel(const std::string& m)
{
    for (const char* k : kModels)
        if (m == k) return true;
    return false;
}

[[noreturn]] void fail(const std::string& source, const YAML::Node& node, const std::string& key,
                       const std::string& what)
{
    std::string where = source;
    if (node.Mark().line >= 0) where += ":" + std::to_string(node.Mark().line + 1);
    throw TraceError(where + ": " + key + ": " + what);
}

std::string scalar(const YAML::Node& map, const char* key, const std::string& source,
                   bool required = false)
{
    const YAML::Node n = map[key];
    if (!n) {
        if (required) fail(source, map, key, "missing (expected a value)");
        return {};
    }
    if (!n.IsScalar()) fail(source, n, key, "expected a single value");
    return n.Scalar();
}

std::vector<std::string> stringList(const YAML::Node& map, const char* key,
                                    const std::string& source)
{
    std::vector<std::string> out;
    const YAML::Node n = map[key];
    if (!n) return out;
    if (!n.IsSequence()) fail(source, n, key, "expected a list");
    for (const YAML::Node& e : n) {
        if (!e.IsScalar()) fail(source, e, key, "expected a list of single values");
        out.push_back(e.Scalar());
    }
    return out;
}

template <class T> bool parseNumber(const std::string& text, T& out)
{
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc() && ptr == end;
}

} // namespace

std::string kindName(ScenarioKind kind)
{
    switch (kind) {
    case ScenarioKind::Scale:
        return "scale";
    case ScenarioKind::Extrapolate:
        return "extrapolate";
    case ScenarioKind::Replay:
        break;
    }
    return "replay";
}

bool isScenarioParam(const std::string& param)
{
    return param == "target" || param == "cpu_factor";
}

std::vector<netsim::SpecOverride> allOverrides(const Scenario& s)
{
    std::vector<netsim::SpecOverride> all = s.baselineOverrides;
    all.insert(all.end(), s.overrides.begin(), s.overrides.end());
    return all;
}

void setOverride(std::vector<netsim::SpecOverride>& overrides, const netsim::SpecOverride& o)
{
    for (netsim::SpecOverride& e : overrides)
        if (e.key == o.key) {
            e.value = o.value;
            return;
        }
    overrides.push_back(o);
}

Scenario withParam(const Scenario& scenario, const std::string& param, const std::string& value)
{
    Scenario s = scenario;
    if (param == "target") {
        uint32_t n = 0;
        if (!parseNumber(value, n) || n == 0)
            throw TraceError("target: '" + value + "' is not a rank count (a whole number >= 1)");
        s.target = n;
    } else if (param == "cpu_factor") {
        double f = 0;
        if (!parseNumber(value, f) || !(f > 0) || f > 1000)
            throw TraceError("cpu_factor: '" + value + "' is not a factor in (0, 1000]");
        s.cpuFactor = f;
    } else {
        setOverride(s.overrides, {param, value});
    }
    return s;
}

Scenario sweepPoint(const Scenario& scenario, size_t index)
{
    const std::string& value = scenario.sweepValues.at(index);
    Scenario point = withParam(scenario, scenario.sweepParam, value);
    point.name = scenario.name + " (" + scenario.sweepParam + "=" + value + ")";
    point.sweepParam.clear();
    point.sweepValues.clear();
    return point;
}

std::string validate(const Scenario& s)
{
    if (s.name.empty()) return "the scenario has no name";
    if (s.kind == ScenarioKind::Replay && s.baselines.size() != 1)
        return "a network replay needs exactly one baseline trace";
    if (s.kind == ScenarioKind::Scale && s.baselines.size() < 3)
        return "a scale prediction needs baseline traces at three or more scales";
    if (s.kind == ScenarioKind::Extrapolate) {
        if (s.baselines.size() < 3)
            return "an extrapolation needs baseline traces at three or more scales";
        if (s.target == 0) return "the target scale must be at least 1 rank";
        if (s.method != "auto" && s.method != "rankscope" && s.method != "classic")
            return "unknown method '" + s.method + "' (expected auto, rankscope or classic)";
        if (s.mode != "interval" && s.mode != "sum")
            return "unknown mode '" + s.mode + "' (expected interval or sum)";
        if (!s.sweepParam.empty()) return "an extrapolation has no sweep (run one per target)";
        if (s.engine != "rankscope") return "an extrapolation has no engine to choose";
        return {};
    }
    if (s.network.empty()) return "no network spec chosen";
    if (s.calibrate != "auto" && s.calibrate != "on" && s.calibrate != "off")
        return "calibrate: expected auto, on or off, not '" + s.calibrate + "'";
    if (!knownModel(s.model))
        return "unknown network model '" + s.model + "' (expected loggp, packet or flow)";
    if (!(s.cpuFactor > 0) || s.cpuFactor > 1000 || !std::isfinite(s.cpuFactor))
        return "the CPU factor must be in (0, 1000]";
    if (s.kind == ScenarioKind::Scale) {
        if (s.target == 0) return "the target scale must be at least 1 rank";
        if (s.method != "rankscope" && s.method != "classic")
            return "unknown method '" + s.method + "' (expected rankscope or classic)";
    }
    if (!s.sweepParam.empty() && s.sweepValues.empty())
        return "the sweep of " + s.sweepParam + " has no values";
    if (s.engine != "rankscope" && s.engine != "simgrid")
        return "unknown engine '" + s.engine + "' (expected rankscope or simgrid)";
    if (s.engine == "simgrid" && s.kind != ScenarioKind::Replay)
        return "SimGrid replays network replays only; choose the Rankscope engine for a scale "
               "prediction";
    if (s.engine == "simgrid" && !s.sweepParam.empty())
        return "SimGrid runs one replay at a time, not a sweep; choose the Rankscope engine to "
               "sweep " +
               s.sweepParam;
    return {};
}

std::string describe(const Scenario& s)
{
    std::ostringstream out;
    const auto base = [](const std::string& path) {
        std::string p = path;
        while (!p.empty() && p.back() == '/')
            p.pop_back();
        if (p.size() > 12 && p.ends_with("/traces.otf2")) p.resize(p.size() - 12);
        const size_t slash = p.find_last_of('/');
        return slash == std::string::npos ? p : p.substr(slash + 1);
    };
    if (s.kind == ScenarioKind::Replay) {
        out << "Replay of " << (s.baselines.empty() ? "?" : base(s.baselines.front()));
    } else if (s.kind == ScenarioKind::Extrapolate) {
        out << "Extrapolate " << s.baselines.size() << " runs to " << s.target << " ranks ("
            << s.method << ")";
        if (!s.sweepParam.empty())
            out << "; sweep " << s.sweepParam << " over " << s.sweepValues.size() << " values";
        return out.str();
    } else {
        out << "Scale " << s.baselines.size() << " runs to " << s.target << " ranks (" << s.method
            << ")";
    }
    std::string net = base(s.network);
    if (net.ends_with(".yaml")) net.resize(net.size() - 5);
    out << " on " << (net.empty() ? "?" : net);
    if (!s.baselineOverrides.empty()) out << " (calibrated)";
    if (!s.overrides.empty()) {
        out << " (";
        for (size_t i = 0; i < s.overrides.size(); ++i)
            out << (i ? ", " : "") << s.overrides[i].key << '=' << s.overrides[i].value;
        out << ')';
    }
    out << ", " << s.model;
    for (const auto& [op, alg] : s.collectives)
        out << ", " << op << '=' << alg;
    if (s.cpuFactor != 1.0) out << ", CPU x" << s.cpuFactor;
    if (s.engine == "simgrid") out << ", with SimGrid";
    if (!s.sweepParam.empty())
        out << "; sweep " << s.sweepParam << " over " << s.sweepValues.size() << " values";
    return out.str();
}

YAML::Node toYaml(const Scenario& s)
{
    YAML::Node n(YAML::NodeType::Map);
    n["name"] = s.name;
    n["kind"] = kindName(s.kind);
    for (const std::string& b : s.baselines)
        n["baselines"].push_back(b);
    if (!s.compareWith.empty()) n["compare_with"] = s.compareWith;
    if (s.kind != ScenarioKind::Extrapolate || !s.network.empty()) n["network"] = s.network;
    for (const netsim::SpecOverride& o : s.baselineOverrides)
        n["baseline_set"].push_back(o.key + "=" + o.value);
    for (const netsim::SpecOverride& o : s.overrides)
        n["set"].push_back(o.key + "=" + o.value);
    n["model"] = s.model;
    for (const auto& [op, alg] : s.collectives)
        n["collectives"][op] = alg;
    n["cpu_factor"] = s.cpuFactor;
    if (s.engine != "rankscope") n["engine"] = s.engine;
    if (s.calibrate != "auto") n["calibrate"] = s.calibrate;
    if (s.kind == ScenarioKind::Scale) {
        n["target"] = s.target;
        n["method"] = s.method;
        n["seed"] = s.seed;
    }
    if (s.kind == ScenarioKind::Extrapolate) {
        n["target"] = s.target;
        n["method"] = s.method;
        if (s.mode != "interval") n["mode"] = s.mode;
    }
    if (!s.sweepParam.empty()) {
        n["sweep"]["param"] = s.sweepParam;
        for (const std::string& v : s.sweepValues)
            n["sweep"]["values"].push_back(v);
    }
    return n;
}

Scenario scenarioFromYaml(const YAML::Node& node, const std::string& source)
{
    if (!node.IsMap()) fail(source, node, "scenario", "expected a map of scenario keys");
    for (const auto& kv : node) {
        static const char* const allowed[] = {
            "name",   "kind",  "baselines",   "compare_with", "network", "baseline_set",
            "set",    "model", "collectives", "cpu_factor",   "engine",  "target",
            "method", "seed",  "sweep",       "calibrate",    "mode"};
        const std::string key = kv.first.Scalar();
        bool ok = false;
        for (const char* a : allowed)
            ok = ok || key == a;
        if (!ok)
            fail(source, kv.first, key,
                 "unknown scenario key (expected name, kind, baselines, compare_with, network, "
                 "set, model, collectives, cpu_factor, engine, calibrate, target, method, mode, "
                 "seed "
                 "or sweep)");
    }
    Scenario s;
    s.name = scalar(node, "name", source, true);
    const std::string kind = scalar(node, "kind", source);
    if (kind == "scale")
        s.kind = ScenarioKind::Scale;
    else if (kind == "extrapolate")
        s.kind = ScenarioKind::Extrapolate;
    else if (kind.empty() || kind == "replay")
        s.kind = ScenarioKind::Replay;
    else
        fail(source, node["kind"], "kind",
             "expected replay, scale or extrapolate, not '" + kind + "'");
    s.baselines = stringList(node, "baselines", source);
    s.compareWith = scalar(node, "compare_with", source);
    s.network = scalar(node, "network", source, s.kind != ScenarioKind::Extrapolate);
    if (s.kind == ScenarioKind::Extrapolate) s.method = "auto";
    if (const std::string c = scalar(node, "calibrate", source); !c.empty()) s.calibrate = c;
    if (const std::string m = scalar(node, "mode", source); !m.empty()) s.mode = m;
    for (const char* key : {"baseline_set", "set"})
        for (const std::string& o : stringList(node, key, source)) {
            const size_t eq = o.find('=');
            if (eq == std::string::npos || eq == 0)
                fail(source, node[key], key, "expected KEY=VALUE, not '" + o + "'");
            (std::string(key) == "set" ? s.overrides : s.baselineOverrides)
                .push_back({o.substr(0, eq), o.substr(eq + 1)});
        }
    if (const std::string m = scalar(node, "model", source); !m.empty()) s.model = m;
    if (const YAML::Node c = node["collectives"]) {
        if (!c.IsMap()) fail(source, c, "collectives", "expected a map of op: algorithm");
        for (const auto& kv : c) {
            if (!kv.second.IsScalar())
                fail(source, kv.second, "collectives." + kv.first.Scalar(),
                     "expected an algorithm name");
            s.collectives.emplace_back(kv.first.Scalar(), kv.second.Scalar());
        }
    }
    if (const std::string f = scalar(node, "cpu_factor", source); !f.empty())
        if (!parseNumber(f, s.cpuFactor))
            fail(source, node["cpu_factor"], "cpu_factor", "expected a number, not '" + f + "'");
    if (const std::string e = scalar(node, "engine", source); !e.empty()) {
        if (e != "rankscope" && e != "simgrid")
            fail(source, node["engine"], "engine",
                 "expected rankscope or simgrid, not '" + e + "'");
        s.engine = e;
    }
    if (const std::string t = scalar(node, "target", source); !t.empty())
        if (!parseNumber(t, s.target))
            fail(source, node["target"], "target", "expected a rank count, not '" + t + "'");
    if (const std::string m = scalar(node, "method", source); !m.empty()) s.method = m;
    if (const std::string seed = scalar(node, "seed", source); !seed.empty())
        if (!parseNumber(seed, s.seed))
            fail(source, node["seed"], "seed", "expected a whole number, not '" + seed + "'");
    if (const YAML::Node sw = node["sweep"]) {
        if (!sw.IsMap()) fail(source, sw, "sweep", "expected param and values");
        s.sweepParam = scalar(sw, "param", source, true);
        s.sweepValues = stringList(sw, "values", source);
    }
    if (const std::string problem = validate(s); !problem.empty())
        fail(source, node, "scenario '" + s.name + "'", problem);
    return s;
}

} // namespace rankscope::whatif
