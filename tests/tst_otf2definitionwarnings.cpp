// Global definitions that OTF2 accepts but that a flipped byte could have produced: a name
// whose string is not defined, references to a system tree node or parent communicator that
// does not exist, a communicator over the wrong kind of group, names that are not UTF-8. Each
// imports (the trace is whole, not partial) with exactly the warnings listed here, derived
// from the fixture (testsupport/otf2fixture.h), and `info` prints them.

// moc (Qt 6.4) cannot parse GCC 12's <concepts>, which the model headers pull in.
#ifndef Q_MOC_RUN
#include "importers/otf2/otf2definitionissues.h"
#include "importers/otf2/otf2reader.h"
#include "model/trace/traceerror.h"
#include "testsupport/clirunner.h"
#include "testsupport/otf2fixture.h"
#endif

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <string>

using namespace rankscope;
using namespace rankscope::test::otf2fixture;

namespace {

QStringList warningsOf(const Trace& t)
{
    QStringList out;
    for (const std::string& w : t.diagnostics().warnings)
        out << QString::fromStdString(w);
    return out;
}

/// The one region of `t` whose name is `name`, or an invalid id.
RegionId regionNamed(const Trace& t, std::string_view name)
{
    for (uint32_t r = 0; r < t.regions().size(); ++r)
        if (t.regionName(RegionId(r)) == name) return RegionId(r);
    return RegionId();
}

} // namespace

Q_DECLARE_METATYPE(Fixture)

class TestOtf2DefinitionWarnings : public QObject
{
    Q_OBJECT

private slots:
    void utf8_data()
    {
        // RFC 3629: the valid forms and the classic ways to break them.
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("valid");
        QTest::newRow("empty") << QByteArray() << true;
        QTest::newRow("ASCII") << QByteArray("MPI_Send") << true;
        QTest::newRow("U+00E9") << QByteArray("\xC3\xA9") << true;
        QTest::newRow("U+20AC") << QByteArray("\xE2\x82\xAC") << true;
        QTest::newRow("U+1F600") << QByteArray("\xF0\x9F\x98\x80") << true;
        QTest::newRow("U+10FFFF") << QByteArray("\xF4\x8F\xBF\xBF") << true;
        QTest::newRow("truncated") << QByteArray("ab\xC3") << false;
        QTest::newRow("lone continuation") << QByteArray("\x80") << false;
        QTest::newRow("bad continuation") << QByteArray("\xC3\x28") << false;
        QTest::newRow("overlong /") << QByteArray("\xC0\xAF") << false;
        QTest::newRow("overlong 3-byte") << QByteArray("\xE0\x80\xAF") << false;
        QTest::newRow("surrogate U+D800") << QByteArray("\xED\xA0\x80") << false;
        QTest::newRow("past U+10FFFF") << QByteArray("\xF4\x90\x80\x80") << false;
        QTest::newRow("0xFF") << QByteArray("\xFF") << false;
    }

    void utf8()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, valid);
        QCOMPARE(isValidUtf8(std::string_view(text.constData(), size_t(text.size()))), valid);
    }

    void warned_data()
    {
        QTest::addColumn<Fixture>("fixture");
        QTest::addColumn<QStringList>("expected"); // after "<dir>/traces.def: "
        Fixture f;
        f.regionName[kRegionMain] = 42; // strings 0..13 are defined
        QTest::newRow("region name undefined")
            << f
            << QStringList{"the name of region 0 refers to undefined string 42; shown as "
                           "\"<undefined string 42>\""};
        f = {};
        f.locationName = 99;
        QTest::newRow("location names undefined")
            << f
            << QStringList{"the name of location 0 (and 1 other definition) refers to "
                           "undefined string 99; shown as \"<undefined string 99>\""};
        f = {};
        f.stringText[kMain] = "ma\xC3(in";
        QTest::newRow("region name not UTF-8")
            << f
            << QStringList{"the name of region 0, string 1 \"ma\\xC3(in\", is not valid "
                           "UTF-8 (JSON output shows U+FFFD for the bad bytes)"};
        f = {};
        f.stringText[kThread] = "Master thread \xE2\x9C\x93";
        f.stringText[kRank0] = "Rang 0 \xC3\xA9";
        QTest::newRow("UTF-8 names are fine") << f << QStringList{};
        f = {};
        f.nodeOfGroup1 = 7;
        QTest::newRow("location group on an undefined system tree node")
            << f << QStringList{"location group 1 refers to undefined system tree node 7"};
        f = {};
        f.nodeParent = 5;
        QTest::newRow("system tree node with an undefined parent")
            << f << QStringList{"system tree node 0 has undefined parent node 5"};
        f = {};
        f.worldParent = 9;
        QTest::newRow("communicator with an undefined parent")
            << f
            << QStringList{"communicator 0 has undefined parent communicator 9; taken as "
                           "having none"};
        f = {};
        f.secondCommGroup = kLocationsGroup;
        QTest::newRow("communicator over a COMM_LOCATIONS group")
            << f
            << QStringList{"communicator 1 refers to group 0, a COMM_LOCATIONS group, not "
                           "one of a communicator's members (COMM_GROUP or COMM_SELF); the "
                           "communicator is left out"};
    }

    void warned()
    {
        QFETCH(Fixture, fixture);
        QFETCH(QStringList, expected);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString anchor = writeFixture(tmp.path(), fixture);
        QVERIFY(!anchor.isEmpty());
        const QString prefix = tmp.path() + QStringLiteral("/traces.def: ");
        for (QString& e : expected)
            e.prepend(prefix);

        const Trace t = readOtf2(anchor.toStdString());
        QCOMPARE(warningsOf(t), expected);
        QVERIFY(!t.diagnostics().partial);
        // The trace itself is whole: 5 records per location and the one message.
        QCOMPARE(t.rankCount(), size_t(2));
        QCOMPARE(t.eventCount(), quint64(10));
        QCOMPARE(t.messages().size(), size_t(1));
        QVERIFY(t.messages().front().matched());
    }

    void placeholderNamesTheString()
    {
        QTemporaryDir tmp;
        Fixture f;
        f.regionName[kRegionMain] = 42;
        const Trace t = readOtf2(writeFixture(tmp.path(), f).toStdString());
        QVERIFY(regionNamed(t, "<undefined string 42>").valid());
        QVERIFY(!regionNamed(t, "main").valid());
        QVERIFY(regionNamed(t, "MPI_Send").valid());
    }

    void manyProblemsAreBounded()
    {
        // Regions 5..34 named by the undefined strings 100..129: 30 problems, 19 listed and
        // one line for the other 11.
        QTemporaryDir tmp;
        Fixture f;
        f.regionsWithUndefinedNames = 30;
        const QString anchor = writeFixture(tmp.path(), f);
        const QStringList w = warningsOf(readOtf2(anchor.toStdString()));
        const QString prefix = tmp.path() + QStringLiteral("/traces.def: ");
        QCOMPARE(w.size(), 20);
        QCOMPARE(w.front(), prefix + "the name of region 5 refers to undefined string 100; "
                                     "shown as \"<undefined string 100>\"");
        QCOMPARE(w.at(18), prefix + "the name of region 23 refers to undefined string 118; "
                                    "shown as \"<undefined string 118>\"");
        QVERIFY2(w.back().startsWith(prefix + "11 more problems of the global definitions"),
                 qPrintable(w.back()));
    }

    void infoPrintsThem()
    {
        QTemporaryDir tmp;
        Fixture f;
        f.nodeOfGroup1 = 7;
        const QString anchor = writeFixture(tmp.path(), f);
        const QString warning =
            tmp.path() + QStringLiteral("/traces.def: location group 1 refers to undefined "
                                        "system tree node 7");
        const test::CliResult text =
            test::runProgram(QStringLiteral(RANKSCOPE_CLI), {QStringLiteral("info"), anchor});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(QString::fromUtf8(text.out).contains(QStringLiteral("warning: ") + warning),
                 text.out.constData());
        const test::CliResult json =
            test::runProgram(QStringLiteral(RANKSCOPE_CLI),
                             {QStringLiteral("info"), anchor, QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject j = test::jsonOf(json);
        QCOMPARE(j.value(QStringLiteral("warnings")).toArray(), QJsonArray{warning});
        QCOMPARE(j.value(QStringLiteral("partial")).toBool(true), false);
    }
};

QTEST_GUILESS_MAIN(TestOtf2DefinitionWarnings)
#include "tst_otf2definitionwarnings.moc"
