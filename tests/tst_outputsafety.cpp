// Outputs under kill -9, a full disk and two writers at once (model/support/staging.h). Before,
// `convert -o s.ti --to ti` wrote its rank files under their final names one by one (a kill left
// dozens half-written, a full disk left an old set half new, two writers made a set that did not
// read), `generate --force` removed the old archive before writing the new one, a killed OTF2
// `convert` left a partial archive under its final names and killed Paje or Paraver exports left
// their hidden temporaries forever.
//
// Every writer is run by the command line, as a user would. What each case expects follows from
// the rules alone: an output is either the old one, byte for byte, or a complete new one that
// `info` reads with the rank count of its input; a temporary outlives only a dead writer, and the
// next writer into its folder removes it.

#include "model/support/staging.h"
#include "testsupport/clirunner.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/file.h>
#include <unistd.h>

using namespace rankscope;
namespace fs = std::filesystem;

namespace {

test::CliResult cli(const QStringList& args)
{
    return test::runProgram(QStringLiteral(RANKSCOPE_CLI), args, 600000);
}

/// A generated stencil trace of `ranks` ranks in `dir` (an OTF2 folder).
void generate(const QString& dir, int ranks, int iterations)
{
    const test::CliResult r =
        cli({"generate", "--pattern", "stencil2d", "--ranks", QString::number(ranks),
             "--iterations", QString::number(iterations), "-q", "-o", dir});
    QVERIFY2(r.exitCode == 0, r.err.constData());
}

/// True when a component of `file` below `root` is a Rankscope temporary.
bool inTemporary(const QString& root, const QString& file)
{
    for (const QString& part : file.mid(root.size()).split('/', Qt::SkipEmptyParts))
        if (isTemporaryName(part.toStdString())) return true;
    return false;
}

/// SHA-256 over every file under `path` (a file, or a folder: names and contents, sorted),
/// leaving out temporaries (".<name>.<12>.saving" and what is in them).
QByteArray digestOf(const QString& path)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    QStringList files;
    if (QFileInfo(path).isDir()) {
        QDirIterator it(path, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString f = it.next();
            if (!inTemporary(path, f)) files << f;
        }
        files.sort();
    } else {
        files << path;
    }
    for (const QString& f : files) {
        QFile file(f);
        if (!file.open(QIODevice::ReadOnly)) return {};
        h.addData(f.toUtf8());
        h.addData(file.readAll());
    }
    return h.result().toHex();
}

/// The Rankscope temporaries (".<name>.<12>.saving") in `dir`.
QStringList temporariesIn(const QString& dir)
{
    QStringList found;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir.toStdString(), ec))
        if (isTemporaryName(e.path().filename().string()))
            found << QString::fromStdString(e.path().filename().string());
    return found;
}

/// `info --json`'s rank count of `trace`, or -1 when it does not read.
int ranksOf(const QString& trace)
{
    const test::CliResult r = cli({"info", trace, "--json"});
    if (r.exitCode != 0) return -1;
    return test::jsonOf(r).value("ranks").toInt(-1);
}

/// Starts the CLI with `args`, waits until a temporary appears in `watch` (the writer is
/// writing), then kills it with SIGKILL. False when it finished before a temporary was seen.
bool killWhileWriting(const QStringList& args, const QString& watch)
{
    QProcess p;
    p.start(QStringLiteral(RANKSCOPE_CLI), args);
    if (!p.waitForStarted(10000)) return false;
    QElapsedTimer clock;
    clock.start();
    while (p.state() == QProcess::Running && clock.elapsed() < 300000) {
        if (!temporariesIn(watch).isEmpty()) {
            QThread::msleep(50); // well into the write
            ::kill(pid_t(p.processId()), SIGKILL);
            p.waitForFinished();
            return p.exitStatus() == QProcess::CrashExit;
        }
        QThread::msleep(2);
    }
    p.waitForFinished();
    return false;
}

} // namespace

class TestOutputSafety : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp_;
    QString small_, large_, eight_;

    QString path(const QString& name) const { return tmp_.path() + "/" + name; }

private slots:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        small_ = path("small");
        large_ = path("large");
        eight_ = path("eight");
        generate(small_, 4, 4);
        generate(eight_, 8, 4);
        // Large enough that each export writes for a while (tens of MB) and beats a small
        // tmpfs: 64 ranks of 1,500 iterations.
        generate(large_, 64, 1500);
    }

    /// The names a sweep may remove, worked from the rule ".<name>.<12 of [0-9a-z]>.saving".
    void temporaryNamesAndTheSweep()
    {
        QVERIFY(isTemporaryName(".a.yaml.0123456789ab.saving"));
        QVERIFY(isTemporaryName(".x.zzzzzzzzzzzz.saving"));
        QVERIFY(!isTemporaryName("..zzzzzzzzzzzz.saving"));      // no name
        QVERIFY(!isTemporaryName(".x.zzzzzzzzzzz.saving"));      // 11 letters
        QVERIFY(!isTemporaryName(".x.ZZZZZZZZZZZZ.saving"));     // upper case
        QVERIFY(!isTemporaryName("x.y.0123456789ab.saving"));    // not hidden
        QVERIFY(!isTemporaryName(".x.0123456789ab.saving.txt")); // another suffix
        QVERIFY(!isTemporaryName(".x-0123456789ab.saving"));     // no dot before
        const fs::path t = temporaryNameFor("/some/where/out.paje");
        QCOMPARE(QString::fromStdString(t.parent_path().string()), QString("/some/where"));
        QVERIFY(isTemporaryName(t.filename().string()));
        QVERIFY(t.filename().string().rfind(".out.paje.", 0) == 0);

        QTemporaryDir d;
        const fs::path dir = d.path().toStdString();
        const fs::path deadFile = dir / ".a.0123456789ab.saving";
        const fs::path deadFolder = dir / ".b.0123456789ab.saving";
        const fs::path liveFile = dir / ".c.0123456789ab.saving";
        const fs::path other = dir / ".d.saving";
        std::ofstream(deadFile) << "x";
        fs::create_directories(deadFolder / "traces");
        std::ofstream(deadFolder / "traces" / "0.evt") << "x";
        std::ofstream(liveFile) << "x";
        std::ofstream(other) << "x";
        fs::create_symlink(dir / "elsewhere", dir / ".e.0123456789ab.saving");
        // A live writer holds its lock (flock locks belong to an open file, so a second open in
        // this process cannot take it either).
        const int live = ::open(liveFile.c_str(), O_RDONLY);
        QVERIFY(live >= 0 && ::flock(live, LOCK_EX) == 0);
        {
            FolderLock lock(dir);
            QCOMPARE(removeAbandonedTemporaries(dir), size_t(2));
        }
        QVERIFY(!fs::exists(deadFile));
        QVERIFY(!fs::exists(deadFolder));
        QVERIFY(fs::exists(liveFile));
        QVERIFY(fs::exists(other));
        QVERIFY(fs::is_symlink(dir / ".e.0123456789ab.saving"));
        ::close(live);
        FolderLock lock(dir);
        QCOMPARE(removeAbandonedTemporaries(dir), size_t(1)); // its writer is gone now
    }

    void killedWritersLeaveTheOldOutputAndNoTemporaryForLong_data()
    {
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("output");
        QTest::newRow("ti") << "ti"
                            << "k-ti/s.ti";
        QTest::newRow("paje") << "paje"
                              << "k-paje/s.paje";
        QTest::newRow("prv") << "prv"
                             << "k-prv/s.prv";
        QTest::newRow("chrome") << "chrome"
                                << "k-chrome/s.json";
        QTest::newRow("otf2") << "otf2"
                              << "k-otf2/out";
    }

    void killedWritersLeaveTheOldOutputAndNoTemporaryForLong()
    {
        QFETCH(QString, to);
        QFETCH(QString, output);
        const QString out = path(output);
        const QString folder = QFileInfo(out).absolutePath();
        QDir().mkpath(folder);
        if (to == "otf2") {
            // convert never replaces an OTF2 archive: it is killed writing into an empty folder.
            QDir().mkpath(out);
            QVERIFY2(killWhileWriting({"convert", large_, "-o", out, "--to", to}, out),
                     "the export finished before it could be killed");
            QVERIFY(!temporariesIn(out).isEmpty());        // the dead writer's, still there
            QVERIFY(!QFile::exists(out + "/traces.otf2")); // no partial archive
            QVERIFY(!QFile::exists(out + "/traces.def"));
            QVERIFY(!QFile::exists(out + "/traces"));
        } else {
            // An old output from the small trace, then a kill while the large one is written.
            QCOMPARE(cli({"convert", small_, "-o", out, "--to", to}).exitCode, 0);
            const QByteArray before = digestOf(folder);
            QVERIFY2(killWhileWriting({"convert", large_, "-o", out, "--to", to}, folder),
                     "the export finished before it could be killed");
            QVERIFY(!temporariesIn(folder).isEmpty());
            QCOMPARE(digestOf(folder), before);            // the old output, every byte
            if (to != "chrome") QCOMPARE(ranksOf(out), 4); // Chrome JSON is written, not read
        }
        // The next write into the folder removes the dead writer's temporary.
        const test::CliResult again = cli({"convert", eight_, "-o", out, "--to", to});
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QCOMPARE(temporariesIn(folder), QStringList());
        if (to == "otf2") QCOMPARE(temporariesIn(out), QStringList());
        if (to != "chrome") QCOMPARE(ranksOf(out), 8);
    }

    void generateForceKilledKeepsTheOldArchive()
    {
        const QString g = path("k-generate");
        generate(g, 4, 4);
        const QByteArray before = digestOf(g);
        QVERIFY(killWhileWriting({"generate", "--pattern", "stencil2d", "--ranks", "64",
                                  "--iterations", "1500", "--force", "-q", "-o", g},
                                 g));
        QCOMPARE(digestOf(g), before);
        QCOMPARE(ranksOf(g), 4);
    }

    /// A full disk, two ways: a 4 MiB tmpfs (ENOSPC; skipped where this process may not mount
    /// one), and a 256 KiB file size limit (RLIMIT_FSIZE with SIGXFSZ ignored, EFBIG; per file,
    /// so below one rank's event file). The limit found that OTF2 returns success for event
    /// chunks it failed to write at close.
    void fullDiskKeepsTheOldOutput_data()
    {
        QTest::addColumn<bool>("tmpfs");
        QTest::newRow("tmpfs") << true;
        QTest::newRow("file size limit") << false;
    }

    void fullDiskKeepsTheOldOutput()
    {
        QFETCH(bool, tmpfs);
        const QString disk = path(tmpfs ? "disk-tmpfs" : "disk-limit");
        QDir().mkpath(disk);
        const bool mounted =
            tmpfs && ::geteuid() == 0 &&
            QProcess::execute("mount", {"-t", "tmpfs", "-o", "size=4m", "tmpfs", disk}) == 0;
        if (tmpfs && !mounted) QSKIP("cannot mount a tmpfs here (not root)");
        struct Unmount
        {
            bool mounted;
            QString disk;
            ~Unmount()
            {
                if (mounted) QProcess::execute("umount", {disk});
            }
        } unmount{mounted, disk};
        const auto run = [&](const QStringList& args) {
            if (mounted) return cli(args);
            QStringList shell = {"-c", "trap '' XFSZ; ulimit -f 256; exec \"$0\" \"$@\"",
                                 QStringLiteral(RANKSCOPE_CLI)};
            return test::runProgram("bash", shell + args, 600000);
        };
        struct Case
        {
            QStringList args; ///< the big write, into `out`
            QString out;
            QString whole; ///< what to compare (the output's folder for sets)
        };
        const QList<Case> cases = {
            {{"convert", large_, "-o", disk + "/s.ti", "--to", "ti"}, disk + "/s.ti", disk},
            {{"convert", large_, "-o", disk + "/s.paje", "--to", "paje"},
             disk + "/s.paje",
             disk + "/s.paje"},
            {{"convert", large_, "-o", disk + "/s.prv", "--to", "prv"}, disk + "/s.prv", disk},
            {{"convert", large_, "-o", disk + "/s.json", "--to", "chrome"},
             disk + "/s.json",
             disk + "/s.json"},
            {{"generate", "--pattern", "stencil2d", "--ranks", "64", "--iterations", "1500",
              "--force", "-q", "-o", disk + "/g"},
             disk + "/g",
             disk + "/g"},
        };
        for (const Case& c : cases) {
            // The old output: the small trace's.
            QStringList first = c.args;
            if (c.args.front() == "convert")
                first[1] = small_;
            else
                first[4] = "4", first[6] = "4";
            const test::CliResult old = cli(first);
            QVERIFY2(old.exitCode == 0, old.err.constData());
            const QByteArray before = digestOf(c.whole);
            const test::CliResult r = run(c.args);
            QVERIFY2(r.exitCode == 1, qPrintable(c.args.join(' ') + ": exit " +
                                                 QString::number(r.exitCode) + " " + r.err));
            QVERIFY2(r.err.contains(QFileInfo(c.out).fileName().toUtf8()), r.err.constData());
            QCOMPARE(digestOf(c.whole), before);
            if (!c.out.endsWith(".json")) QCOMPARE(ranksOf(c.out), 4);
            QCOMPARE(temporariesIn(QFileInfo(c.out).absolutePath()), QStringList());
            QCOMPARE(temporariesIn(c.out), QStringList());
            if (!mounted) continue;
            // Make room for the next case.
            for (const QString& e :
                 QDir(disk).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden)) {
                QFileInfo info(disk + "/" + e);
                if (info.isDir())
                    QDir(info.filePath()).removeRecursively();
                else
                    QFile::remove(info.filePath());
            }
        }
    }

    /// Two writers of one output at once: the output is one of the two, whole, every time.
    void twoWritersLeaveOneWholeOutput_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("ti") << "ti";
        QTest::newRow("generate --force") << "generate";
        QTest::newRow("otf2") << "otf2";
    }

    void twoWritersLeaveOneWholeOutput()
    {
        QFETCH(QString, kind);
        for (int run = 0; run < 3; ++run) {
            const QString out =
                path(QString("two-%1-%2").arg(kind).arg(run)) + (kind == "ti" ? "/s.ti" : "");
            QDir().mkpath(QFileInfo(out).absolutePath());
            QList<QStringList> args;
            for (const QString& ranks : {QString("4"), QString("8")}) {
                if (kind == "generate")
                    args << QStringList{"generate", "--pattern",    "stencil2d", "--ranks",
                                        ranks,      "--iterations", "200",       "--force",
                                        "-q",       "-o",           out};
                else
                    args << QStringList{
                        "convert", ranks == "4" ? small_ : eight_, "-o", out, "--to", kind};
            }
            QProcess a, b;
            a.start(QStringLiteral(RANKSCOPE_CLI), args[0]);
            b.start(QStringLiteral(RANKSCOPE_CLI), args[1]);
            QVERIFY(a.waitForFinished(600000) && b.waitForFinished(600000));
            const int ea = a.exitCode(), eb = b.exitCode();
            if (kind == "otf2") {
                // An OTF2 folder is never replaced by convert: one writes it, the other is told.
                QVERIFY2((ea == 0) != (eb == 0),
                         qPrintable(QString("exits %1 and %2").arg(ea).arg(eb)));
                const QByteArray err = (ea == 0 ? b : a).readAllStandardError();
                QVERIFY2(err.contains("already exists there"), err.constData());
            } else {
                QVERIFY2(ea == 0 && eb == 0, qPrintable(QString("exits %1 and %2: %3 %4")
                                                            .arg(ea)
                                                            .arg(eb)
                                                            .arg(a.readAllStandardError())
                                                            .arg(b.readAllStandardError())));
            }
            const int ranks = ranksOf(out);
            QVERIFY2(ranks == 4 || ranks == 8, qPrintable(QString::number(ranks)));
            QCOMPARE(temporariesIn(QFileInfo(out).absolutePath()), QStringList());
            if (kind == "ti") {
                // The list names exactly the rank files there are.
                QStringList rankFiles =
                    QDir(QFileInfo(out).absolutePath()).entryList({"s-rank-*.txt"});
                QCOMPARE(rankFiles.size(), ranks);
            }
        }
    }

    /// A TI trace is replaced only when it is one Rankscope wrote.
    void tiReplacesOnlyItsOwnSet()
    {
        const QString d = path("foreign");
        QDir().mkpath(d);
        {
            std::ofstream(d.toStdString() + "/s.ti") << "mine-0.txt\nmine-1.txt\n";
            std::ofstream(d.toStdString() + "/mine-0.txt") << "0 init\n0 finalize\n";
        }
        const QByteArray before = digestOf(d);
        test::CliResult r = cli({"convert", small_, "-o", d + "/s.ti", "--to", "ti"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("s.ti:1: exists and is not a TI trace Rankscope wrote (it names "
                                "'mine-0.txt', not 's-rank-0.txt')"),
                 r.err.constData());
        QCOMPARE(digestOf(d), before);
        // A rank file name taken by a file no list names.
        const QString e = path("stray");
        QDir().mkpath(e);
        std::ofstream(e.toStdString() + "/s-rank-2.txt") << "mine\n";
        r = cli({"convert", small_, "-o", e + "/s.ti", "--to", "ti"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("s-rank-2.txt: exists and is not part of the TI trace"),
                 r.err.constData());
        QVERIFY(!QFile::exists(e + "/s.ti"));
        // Its own set, of 8 ranks, replaced by one of 4: the 4 extra rank files go.
        const QString own = path("own");
        QDir().mkpath(own);
        QCOMPARE(cli({"convert", eight_, "-o", own + "/s.ti", "--to", "ti"}).exitCode, 0);
        QCOMPARE(QDir(own).entryList({"s-rank-*.txt"}).size(), 8);
        QCOMPARE(cli({"convert", small_, "-o", own + "/s.ti", "--to", "ti"}).exitCode, 0);
        QCOMPARE(QDir(own).entryList({"s-rank-*.txt"}).size(), 4);
        QCOMPARE(ranksOf(own + "/s.ti"), 4);
    }
};

QTEST_GUILESS_MAIN(TestOutputSafety)
#include "tst_outputsafety.moc"
