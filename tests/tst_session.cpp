// Session files and what-if scenarios: YAML round trips, paths relative to the session file,
// sweep points, and errors that name the file, line and key.

#include "app/session.h"
#include "model/trace/traceerror.h"
#include "whatif/scenario/scenario.h"

#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>

using namespace rankscope;
using whatif::Scenario;
using whatif::ScenarioKind;

namespace {

Scenario fullScenario(const std::string& root)
{
    Scenario s;
    s.name = "WAN 20 ms";
    s.kind = ScenarioKind::Scale;
    s.baselines = {root + "/traces/s16", root + "/traces/s36", root + "/traces/s64"};
    s.compareWith = root + "/traces/s256";
    s.network = root + "/networks/two-clusters-wan.yaml";
    s.overrides = {{"links.wan.latency", "20ms"}, {"eager_limit", "4KiB"}};
    s.model = "flow";
    s.collectives = {{"bcast", "binomial"}, {"allreduce", "ring"}};
    s.cpuFactor = 0.5;
    s.target = 256;
    s.method = "classic";
    s.seed = 42;
    s.sweepParam = "links.wan.latency";
    s.sweepValues = {"1ms", "5ms", "20ms"};
    return s;
}

std::string errorOf(const std::function<void()>& f)
{
    try {
        f();
    } catch (const TraceError& e) {
        return e.what();
    }
    return {};
}

} // namespace

class TestSession : public QObject
{
    Q_OBJECT
private slots:
    void scenarioYamlRoundTrip()
    {
        const Scenario s = fullScenario("/data/demo");
        const Scenario back = whatif::scenarioFromYaml(whatif::toYaml(s), "mem");
        QVERIFY(back == s);
        // A replay scenario leaves out what only scale predictions use.
        Scenario r;
        r.name = "replay";
        r.baselines = {"/a/t"};
        r.network = "/n.yaml";
        const YAML::Node n = whatif::toYaml(r);
        QVERIFY(!n["target"]);
        QVERIFY(whatif::scenarioFromYaml(n, "mem") == r);
    }

    void sweepPoints()
    {
        Scenario s = fullScenario("/d");
        const Scenario t = whatif::withParam(s, "target", "1024");
        QCOMPARE(t.target, 1024u);
        QCOMPARE(t.overrides, s.overrides);
        QCOMPARE(whatif::withParam(s, "cpu_factor", "2.5").cpuFactor, 2.5);
        // A spec key replaces an existing override of that key, or is appended.
        const Scenario w = whatif::withParam(s, "links.wan.latency", "5ms");
        QCOMPARE(w.overrides.size(), size_t(2));
        QCOMPARE(w.overrides[0].value, std::string("5ms"));
        const Scenario n = whatif::withParam(s, "wide_area_streams", "8");
        QCOMPARE(n.overrides.size(), size_t(3));
        QCOMPARE(n.overrides[2].key, std::string("wide_area_streams"));
        QVERIFY(errorOf([&] { whatif::withParam(s, "target", "many"); }).find("target") == 0);
        QVERIFY(!errorOf([&] { whatif::withParam(s, "target", "0"); }).empty());
        QVERIFY(!errorOf([&] { whatif::withParam(s, "cpu_factor", "-1"); }).empty());
    }

    void validation()
    {
        Scenario s = fullScenario("/d");
        QCOMPARE(whatif::validate(s), std::string());
        s.baselines.pop_back();
        QVERIFY(whatif::validate(s).find("three or more") != std::string::npos);
        s = fullScenario("/d");
        s.kind = ScenarioKind::Replay;
        QVERIFY(whatif::validate(s).find("exactly one") != std::string::npos);
        s = fullScenario("/d");
        s.model = "magic";
        QVERIFY(whatif::validate(s).find("magic") != std::string::npos);
        s = fullScenario("/d");
        s.cpuFactor = 0;
        QVERIFY(!whatif::validate(s).empty());
        s = fullScenario("/d");
        s.sweepValues.clear();
        QVERIFY(whatif::validate(s).find("no values") != std::string::npos);
    }

    void sessionRoundTripWithRelativePaths()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string root = dir.path().toStdString();
        std::filesystem::create_directories(root + "/demo");
        Session s;
        s.traces = {root + "/demo/traces/s16", root + "/traces/s36", "/elsewhere/far/away/t"};
        s.scenarios = {fullScenario(root)};
        // A saved scenario's result (written by name) and an unsaved run's (written in full).
        Scenario unsaved = fullScenario(root);
        unsaved.name = "unsaved";
        unsaved.sweepParam.clear();
        unsaved.sweepValues.clear();
        s.results = {fullScenario(root), unsaved};
        SessionExtrapolation e;
        e.traces = {root + "/demo/traces/s16", root + "/traces/s36", root + "/traces/s64"};
        e.measured = root + "/traces/s256";
        e.target = 256;
        e.method = "both";
        e.classicMode = "sum";
        e.bins = 30;
        s.extrapolations = {e};
        s.view.currentTab = 2;
        s.view.whatIfPanel = true;
        s.view.tour = true;
        s.view.tourStep = 3;
        s.view.comparisons = {{root + "/demo/traces/s16", root + "/traces/s36"}};
        s.view.ranges[root + "/demo/traces/s16"] = {1234.5, 987654321.25};
        const std::string file = root + "/demo/session.rsession";
        s.save(file);

        std::ifstream in(file);
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        // Inside the session's folder and one level up: relative; farther away: absolute.
        QVERIFY(text.find("- traces/s16") != std::string::npos);
        QVERIFY(text.find("- ../traces/s36") != std::string::npos);
        QVERIFY(text.find("/elsewhere/far/away/t") != std::string::npos);
        QVERIFY(text.find(root) == std::string::npos);
        QVERIFY(text.find("results:\n  - WAN 20 ms\n  - name: unsaved") != std::string::npos);
        QVERIFY(text.find("traces: [traces/s16, ../traces/s36, ../traces/s64]") !=
                std::string::npos);

        const Session back = Session::load(file);
        QCOMPARE(back.traces, s.traces);
        QVERIFY(back.scenarios == s.scenarios);
        QVERIFY(back.results == s.results);
        QVERIFY(back.extrapolations == s.extrapolations);
        QVERIFY(back.view == s.view);
        QVERIFY(back == s);
        QVERIFY(!std::filesystem::exists(file + ".saving"));
    }

    void saveKeepsLinksAndPermissions()
    {
        // The session file is a link into another folder (a dotfiles repository, say), mode
        // 0640, and the old fixed temporary name is planted as a link to a precious file.
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        namespace fs = std::filesystem;
        fs::create_directories(root + "/store/traces");
        fs::create_directories(root + "/projects");
        const std::string real = root + "/store/s.rsession";
        std::ofstream(real) << "rankscope_session: 1\n";
        QCOMPARE(::chmod(real.c_str(), 0640), 0);
        const std::string link = root + "/projects/s.rsession";
        fs::create_symlink("../store/s.rsession", link);
        std::ofstream(root + "/precious") << "precious";
        fs::create_symlink(root + "/precious", link + ".saving");

        Session s;
        s.traces = {root + "/store/traces/t16"};
        s.scenarios = {fullScenario(root + "/store")};
        s.save(link);

        QVERIFY(fs::is_symlink(link));
        QCOMPARE(fs::read_symlink(link).string(), std::string("../store/s.rsession"));
        struct stat st
        {
        };
        QCOMPARE(::stat(real.c_str(), &st), 0);
        QCOMPARE(unsigned(st.st_mode & 07777), 0640u);
        std::ifstream precious(root + "/precious");
        QCOMPARE(std::string((std::istreambuf_iterator<char>(precious)), {}),
                 std::string("precious"));
        // Paths are relative to the folder the file really is in, and read back through the
        // link and directly alike.
        std::ifstream in(real);
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        QVERIFY2(text.find("- traces/t16") != std::string::npos, text.c_str());
        QVERIFY(Session::load(link) == s);
        QVERIFY(Session::load(real) == s);
    }

    void errorsNameFileLineAndKey()
    {
        const auto parseError = [](const std::string& text) {
            return errorOf([&] { Session::parse(text, "s.rsession", "/d"); });
        };
        QVERIFY(parseError("traces: [a]\n").find("not a Rankscope session") != std::string::npos);
        QVERIFY(parseError("rankscope_session: 7\n").find("format 7") != std::string::npos);
        const std::string badKey =
            parseError("rankscope_session: 1\nscenarios:\n  - name: x\n    network: n.yaml\n"
                       "    baselines: [t]\n    colour: red\n");
        QVERIFY2(badKey.find("s.rsession:6: colour: unknown scenario key") == 0, badKey.c_str());
        const std::string badResult = parseError("rankscope_session: 1\nresults: [ghost]\n");
        QVERIFY2(badResult.find("s.rsession:2: results: no scenario named 'ghost'") == 0,
                 badResult.c_str());
        const std::string badExtrap =
            parseError("rankscope_session: 1\nextrapolations:\n  - {traces: [a, b, c], target: 64, "
                       "method: best}\n");
        QVERIFY2(badExtrap.find("s.rsession:3: extrapolations.method: 'best' is not") == 0,
                 badExtrap.c_str());
        const std::string twoScales =
            parseError("rankscope_session: 1\nextrapolations:\n  - {traces: [a, b], target: 64}\n");
        QVERIFY2(twoScales.find("extrapolations.traces: expected three or more") !=
                     std::string::npos,
                 twoScales.c_str());
        const std::string badRange =
            parseError("rankscope_session: 1\nview:\n  ranges: {t: [5, 1]}\n");
        QVERIFY2(badRange.find("s.rsession:3: view.ranges.t") == 0, badRange.c_str());
        const std::string notYaml = parseError("rankscope_session: 1\ntraces: [a\n");
        QVERIFY2(notYaml.find("s.rsession:") == 0 &&
                     notYaml.find("not valid YAML") != std::string::npos,
                 notYaml.c_str());
        const std::string badScenario =
            parseError("rankscope_session: 1\nscenarios:\n  - name: x\n    network: n.yaml\n"
                       "    kind: scale\n    baselines: [a, b]\n    target: 64\n");
        QVERIFY2(badScenario.find("three or more") != std::string::npos, badScenario.c_str());
        QVERIFY(errorOf([] {
                    Session::load("/no/such/file.rsession");
                }).find("/no/such/file.rsession: no such file") == 0);
    }
};

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
