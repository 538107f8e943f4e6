// Answers drawn from a partial or odd trace say so (issue "never destroy the user's data ...",
// items 5 and 6): every command's --json carries the shared envelope "inputs" (path, partial,
// warnings of each trace read) and "partial", and its stderr says PARTIAL and the warnings;
// every output written from a partial trace carries the mark in its own metadata, so that it
// reads back as partial (OTF2 archive property, a comment line of Paje, Paraver and TI, the
// Chrome JSON's otherData, the .rsum's NOTE section).
//
// The inputs: a copy of the checked-in Score-P run casita-mpi-late-sender-barrier-4r with
// rank 1's event file emptied (read only with --allow-partial), and one with rank 1's event
// file copied over rank 0's (a whole trace of another run: unmatched messages, a warning).
// What is expected comes from `info --json`, the command that said it before: its `partial`
// and `warnings` are what every other command's envelope must repeat.

#include "testsupport/clirunner.h"
#include "testsupport/testpaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;
using test::CliResult;

namespace {

const QString kTrace = QStringLiteral("casita-mpi-late-sender-barrier-4r");

QStringList stringsOf(const QJsonArray& a)
{
    QStringList s;
    for (const auto& v : a)
        s << v.toString();
    return s;
}

} // namespace

class TestPartialNotice : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        whole_ = test::copyTrace(kTrace, dir_.filePath("whole"));
        QVERIFY2(!whole_.isEmpty(), "the checked-in trace is missing");
        partial_ = test::copyTrace(kTrace, dir_.filePath("partial"));
        QVERIFY(QFile::resize(QFileInfo(partial_).path() + "/traces/1.evt", 0));
        odd_ = test::copyTrace(kTrace, dir_.filePath("odd"));
        const QString events = QFileInfo(odd_).path() + "/traces/";
        QVERIFY(QFile::remove(events + "0.evt"));
        QVERIFY(QFile::copy(events + "1.evt", events + "0.evt"));

        // What info says of each: the reference.
        const CliResult p = test::runCli({"info", partial_, "--allow-partial", "--json"});
        QCOMPARE(p.exitCode, 0);
        QVERIFY(test::jsonOf(p).value("partial").toBool());
        partialWarnings_ = stringsOf(test::jsonOf(p).value("warnings").toArray());
        QVERIFY(!partialWarnings_.isEmpty());
        const CliResult o = test::runCli({"info", odd_, "--json"});
        QCOMPARE(o.exitCode, 0);
        QVERIFY(!test::jsonOf(o).value("partial").toBool());
        QVERIFY(test::jsonOf(o).value("unmatched_messages").toInt() > 0);
        oddWarnings_ = stringsOf(test::jsonOf(o).value("warnings").toArray());
        QVERIFY(!oddWarnings_.isEmpty());
        const CliResult w = test::runCli({"info", whole_, "--json"});
        QCOMPARE(w.exitCode, 0);
        QVERIFY(stringsOf(test::jsonOf(w).value("warnings").toArray()).isEmpty());
    }

    void analysesCarryTheEnvelope_data()
    {
        QTest::addColumn<QString>("command");
        for (const char* c : {"waitstates", "profile", "criticalpath", "rootcause", "intervals",
                              "messages", "metrics", "commmatrix"})
            QTest::newRow(c) << QString(c);
    }

    void analysesCarryTheEnvelope()
    {
        QFETCH(QString, command);
        // Partial: refused without --allow-partial, flagged with it.
        QCOMPARE(test::runCli({command, partial_, "--json"}).exitCode, 1);
        const CliResult p = test::runCli({command, partial_, "--allow-partial", "--json"});
        QVERIFY2(p.exitCode == 0, p.err.constData());
        const QJsonObject pj = test::jsonOf(p);
        QVERIFY(pj.value("partial").toBool());
        const QJsonArray inputs = pj.value("inputs").toArray();
        QCOMPARE(inputs.size(), 1);
        QCOMPARE(inputs[0].toObject().value("path").toString(), partial_);
        QVERIFY(inputs[0].toObject().value("partial").toBool());
        QCOMPARE(stringsOf(inputs[0].toObject().value("warnings").toArray()), partialWarnings_);
        QVERIFY2(p.err.contains(partial_.toUtf8() + ": PARTIAL trace"), p.err.constData());
        QVERIFY2(p.err.contains("warning: " + partialWarnings_.front().toUtf8()),
                 p.err.constData());

        // Whole but odd: not partial, its warnings said.
        const CliResult o = test::runCli({command, odd_, "--json"});
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const QJsonObject oj = test::jsonOf(o);
        QVERIFY(!oj.value("partial").toBool());
        const QJsonObject oi = oj.value("inputs").toArray()[0].toObject();
        QVERIFY(!oi.value("partial").toBool());
        QCOMPARE(stringsOf(oi.value("warnings").toArray()), oddWarnings_);
        for (const QString& w : oddWarnings_)
            QVERIFY2(o.err.contains("warning: " + w.toUtf8()), o.err.constData());
        QVERIFY(!o.err.contains("PARTIAL"));

        // Whole and clean: an empty envelope and a quiet stderr.
        const CliResult w = test::runCli({command, whole_, "--json"});
        QCOMPARE(w.exitCode, 0);
        const QJsonObject wi = test::jsonOf(w).value("inputs").toArray()[0].toObject();
        QVERIFY(!wi.value("partial").toBool());
        QVERIFY(wi.value("warnings").toArray().isEmpty());
        QVERIFY2(!w.err.contains("warning:") && !w.err.contains("PARTIAL"), w.err.constData());
    }

    void textOutputWarnsOnStderr()
    {
        const CliResult r = test::runCli({"waitstates", odd_});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("warning: " + oddWarnings_.front().toUtf8()), r.err.constData());
        // info prints them in its report, once.
        const CliResult i = test::runCli({"info", odd_});
        QCOMPARE(i.exitCode, 0);
        QVERIFY(!i.err.contains("warning:"));
        QCOMPARE(i.out.count(QByteArray("warning: ") + oddWarnings_.front().toUtf8()), 1);
    }

    void compareListsBothInputs()
    {
        const CliResult r =
            test::runCli({"compare", whole_, partial_, "--allow-partial", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject j = test::jsonOf(r);
        QVERIFY(j.value("partial").toBool());
        const QJsonArray inputs = j.value("inputs").toArray();
        QCOMPARE(inputs.size(), 2);
        QCOMPARE(inputs[0].toObject().value("path").toString(), whole_);
        QVERIFY(!inputs[0].toObject().value("partial").toBool());
        QCOMPARE(inputs[1].toObject().value("path").toString(), partial_);
        QVERIFY(inputs[1].toObject().value("partial").toBool());
    }

    void outputsOfAPartialTraceReadBackPartial_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("file");
        QTest::newRow("otf2") << "otf2"
                              << "c-otf2/traces.otf2";
        QTest::newRow("paje") << "paje"
                              << "c.paje";
        QTest::newRow("prv") << "prv"
                             << "c.prv";
        QTest::newRow("ti") << "ti"
                            << "c.ti";
    }

    void outputsOfAPartialTraceReadBackPartial()
    {
        QFETCH(QString, format);
        QFETCH(QString, file);
        const QString out = dir_.filePath(file);
        const QString target = format == "otf2" ? QFileInfo(out).path() : out;
        const CliResult c =
            test::runCli({"convert", partial_, "--allow-partial", "-o", target, "--to", format});
        QVERIFY2(c.exitCode == 0, c.err.constData());
        // Read back without --allow-partial: the copy is whole on disk, its answers are not.
        const CliResult r = test::runCli({"info", out, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject j = test::jsonOf(r);
        QVERIFY(j.value("partial").toBool());
        const QStringList warnings = stringsOf(j.value("warnings").toArray());
        bool said = false;
        for (const QString& w : warnings)
            said = said || (w.contains("written from a partial trace") &&
                            w.contains(QString::number(partialWarnings_.size()) + " warning(s)"));
        QVERIFY2(said, qPrintable(warnings.join('\n')));
        // and again through a command that is not info
        const CliResult p = test::runCli({"profile", out, "--json"});
        QCOMPARE(p.exitCode, 0);
        QVERIFY(test::jsonOf(p).value("partial").toBool());

        // The same conversion of the whole trace carries no mark.
        const QString clean = dir_.filePath("clean-" + file);
        const QString cleanTarget = format == "otf2" ? QFileInfo(clean).path() : clean;
        QCOMPARE(test::runCli({"convert", whole_, "-o", cleanTarget, "--to", format}).exitCode, 0);
        const CliResult back = test::runCli({"info", clean, "--json"});
        QCOMPARE(back.exitCode, 0);
        QVERIFY(!test::jsonOf(back).value("partial").toBool());
    }

    void chromeExportSaysPartial()
    {
        const QString out = dir_.filePath("c.json");
        QCOMPARE(test::runCli({"convert", partial_, "--allow-partial", "-o", out, "--to", "chrome"})
                     .exitCode,
                 0);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject other =
            QJsonDocument::fromJson(f.readAll()).object().value("otherData").toObject();
        QVERIFY(other.value("partial").toBool());
        QVERIFY(other.value("partial_note")
                    .toString()
                    .startsWith("rankscope: written from a partial trace"));
        const QString clean = dir_.filePath("clean.json");
        QCOMPARE(test::runCli({"convert", whole_, "-o", clean, "--to", "chrome"}).exitCode, 0);
        QFile g(clean);
        QVERIFY(g.open(QIODevice::ReadOnly));
        QVERIFY(!QJsonDocument::fromJson(g.readAll())
                     .object()
                     .value("otherData")
                     .toObject()
                     .contains("partial"));
    }

    void summaryOfAPartialTraceSaysSo()
    {
        const QString rsum = dir_.filePath("p.rsum");
        const CliResult s =
            test::runCli({"summarize", partial_, "--allow-partial", "-o", rsum, "--json"});
        QVERIFY2(s.exitCode == 0, s.err.constData());
        QVERIFY(test::jsonOf(s).value("partial").toBool());
        const CliResult r = test::runCli({"summarize", rsum, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject j = test::jsonOf(r);
        QVERIFY(j.value("partial").toBool());
        QCOMPARE(stringsOf(j.value("source_problems").toArray()), partialWarnings_);
        QVERIFY(j.value("inputs").toArray()[0].toObject().value("partial").toBool());
        QVERIFY2(r.err.contains(rsum.toUtf8() + ": PARTIAL trace"), r.err.constData());
        // A whole trace's summary has no NOTE, reads back whole.
        const QString clean = dir_.filePath("w.rsum");
        QCOMPARE(test::runCli({"summarize", whole_, "-o", clean}).exitCode, 0);
        const CliResult w = test::runCli({"summarize", clean, "--json"});
        QCOMPARE(w.exitCode, 0);
        QVERIFY(!test::jsonOf(w).value("partial").toBool());
        QVERIFY(test::jsonOf(w).value("source_problems").toArray().isEmpty());
    }

    void replayOfAPartialTraceSaysSo()
    {
        const QString out = dir_.filePath("sim");
        const CliResult s = test::runCli({"simulate", partial_, "--allow-partial", "--network",
                                          "ib-switch", "-o", out, "--json"});
        QVERIFY2(s.exitCode == 0, s.err.constData());
        QVERIFY(test::jsonOf(s).value("partial").toBool());
        const CliResult r = test::runCli({"info", out, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(test::jsonOf(r).value("partial").toBool());
        QVERIFY(stringsOf(test::jsonOf(r).value("warnings").toArray())
                    .join('\n')
                    .contains("computed from " + partial_));
    }

private:
    QTemporaryDir dir_;
    QString whole_, partial_, odd_;
    QStringList partialWarnings_, oddWarnings_;
};

QTEST_GUILESS_MAIN(TestPartialNotice)
#include "tst_partialnotice.moc"
