// Damaged copies of the real Score-P traces (../shared/traces) read by the command-line tool:
// files truncated at several offsets, single bytes changed in definitions and in events, a
// file deleted, two files swapped. A fixed-seed sample of such damages per trace; for each
// damaged copy `rankscope-cli info --json` (and again with `--allow-partial`) must
// - exit 1 with a message naming a file of the archive, or
// - exit 0 with the undamaged trace's counts (ranks, locations, events, regions, MPI calls,
//   messages, unmatched sends and receives, collectives, bytes sent), or
// - exit 0 with other counts and a warning the undamaged trace does not have.
// Never exit 0 with other counts silently, never crash. The third case is for damage that
// leaves a well-formed trace of another run, which no reader can refuse: two event files of
// equal event counts swapped (nothing in an event file says whose it is), a region reference
// changed into another region's. Real traces hold unmatched messages and unbalanced
// Enter/Leave records too, so these are warnings, not errors.
//
// Every damage is undone before the next, so one copy of each trace serves all its damages.
// RANKSCOPE_TEST_QUICK (the sanitizer run) samples fewer damages of the small traces only.
// damagedCheckedInCopies does the same to the small traces checked in under
// resources/demo/traces that are not shared traces as well, so it runs without ../shared.

#include "testsupport/clirunner.h"
#include "testsupport/testpaths.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <random>

using namespace rankscope;

namespace {

bool quick()
{
    return !qEnvironmentVariableIsEmpty("RANKSCOPE_TEST_QUICK");
}

struct Damage
{
    enum Kind
    {
        Truncate,
        FlipDefinitions,
        FlipEvents,
        Delete,
        Swap
    } kind = Truncate;
    QString file;      ///< relative to the archive's folder
    QString other;     ///< Swap: the second file
    qint64 offset = 0; ///< Truncate: the new size; Flip*: the byte changed
    int mask = 0;      ///< Flip*: XORed into the byte (1..255)

    Damage(Kind k, const QString& f) : kind(k), file(f) {}

    QString describe() const
    {
        switch (kind) {
        case Truncate:
            return QStringLiteral("%1 truncated to %2 bytes").arg(file).arg(offset);
        case FlipDefinitions:
        case FlipEvents:
            return QStringLiteral("%1: byte %2 xor 0x%3")
                .arg(file)
                .arg(offset)
                .arg(mask, 2, 16, QChar('0'));
        case Delete:
            return QStringLiteral("%1 deleted").arg(file);
        case Swap:
            return QStringLiteral("%1 and %2 swapped").arg(file, other);
        }
        return {};
    }
};

/// The figures of `info --json` a damaged copy must keep unless it says it is partial.
QJsonObject counts(const QJsonObject& info)
{
    QJsonObject c;
    for (const char* key :
         {"ranks", "locations", "events", "regions", "mpi_calls", "messages", "unmatched_sends",
          "unmatched_receives", "collectives", "incomplete_collectives", "bytes_sent"})
        c.insert(key, info.value(key));
    return c;
}

QString jsonText(const QJsonValue& v)
{
    const QByteArray a = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(a.mid(1, a.size() - 2)); // without the array's brackets
}

QStringList warnings(const QJsonObject& info)
{
    QStringList out;
    for (const QJsonValue& w : info.value("warnings").toArray())
        out << w.toString();
    return out;
}

/// The archive's files, relative to its folder: the anchor, the global and local definitions
/// and the event files.
struct ArchiveFiles
{
    QStringList all, definitions, events;

    explicit ArchiveFiles(const QString& folder)
    {
        all << QStringLiteral("traces.otf2") << QStringLiteral("traces.def");
        definitions << QStringLiteral("traces.def");
        const QDir traces(folder + QStringLiteral("/traces"));
        for (const QString& f : traces.entryList({"*.def", "*.evt"}, QDir::Files, QDir::Name)) {
            const QString rel = QStringLiteral("traces/") + f;
            all << rel;
            (f.endsWith(QLatin1String(".def")) ? definitions : events) << rel;
        }
    }
};

/// A fixed-seed sample of damages of one archive: truncations at the start, inside and one
/// byte short of the end, byte changes in definitions and in events, a deleted file and two
/// swapped event (or definition) files.
std::vector<Damage> sample(const QString& folder, const ArchiveFiles& files, std::mt19937& random,
                           int perKind)
{
    const auto pick = [&random](const QStringList& from) {
        return from.at(int(std::uniform_int_distribution<qsizetype>(0, from.size() - 1)(random)));
    };
    const auto sizeOf = [&folder](const QString& f) { return QFileInfo(folder + '/' + f).size(); };
    const auto below = [&random](qint64 n) {
        return n <= 1 ? qint64(0) : std::uniform_int_distribution<qint64>(0, n - 1)(random);
    };
    std::vector<Damage> out;
    for (int i = 0; i < perKind; ++i) {
        Damage t(Damage::Truncate, pick(files.all));
        const qint64 size = sizeOf(t.file);
        t.offset = i == 0 ? 0 : i == 1 ? std::max<qint64>(0, size - 1) : below(size);
        out.push_back(t);
    }
    for (const auto& [kind, from] : {std::pair{Damage::FlipDefinitions, &files.definitions},
                                     std::pair{Damage::FlipEvents, &files.events}}) {
        for (int i = 0; i < perKind && !from->isEmpty(); ++i) {
            Damage f(kind, pick(*from));
            f.offset = below(sizeOf(f.file));
            f.mask = std::uniform_int_distribution<int>(1, 255)(random);
            out.push_back(f);
        }
    }
    out.emplace_back(Damage::Delete, pick(files.all));
    const QStringList& swappable = files.events.size() > 1 ? files.events : files.definitions;
    if (swappable.size() > 1) {
        Damage s(Damage::Swap, pick(swappable));
        do
            s.other = pick(swappable);
        while (s.other == s.file);
        out.push_back(s);
    }
    return out;
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

/// Applies `d` to the archive in `folder`; the returned contents restore it.
std::map<QString, QByteArray> apply(const QString& folder, const Damage& d)
{
    std::map<QString, QByteArray> saved;
    const QString path = folder + '/' + d.file;
    saved[path] = readAll(path);
    QByteArray bytes = saved[path];
    switch (d.kind) {
    case Damage::Truncate:
        bytes.truncate(d.offset);
        writeAll(path, bytes);
        break;
    case Damage::FlipDefinitions:
    case Damage::FlipEvents:
        bytes[d.offset] = char(uchar(bytes[d.offset]) ^ d.mask);
        writeAll(path, bytes);
        break;
    case Damage::Delete:
        QFile::remove(path);
        break;
    case Damage::Swap: {
        const QString other = folder + '/' + d.other;
        saved[other] = readAll(other);
        writeAll(path, saved[other]);
        writeAll(other, saved[path]);
        break;
    }
    }
    return saved;
}

/// Whether an error message names one of the archive's files.
bool namesAFile(const QByteArray& err)
{
    static const QRegularExpression file(
        QStringLiteral(R"((traces\.otf2|traces\.def|\d+\.(def|evt))\b)"));
    return file.match(QString::fromUtf8(err)).hasMatch();
}

} // namespace

class TestCliTraceDamage : public QObject
{
    Q_OBJECT

private slots:
    void damagedCopies()
    {
        QStringList traces = test::sharedTraceNames();
        if (traces.isEmpty()) QSKIP("the shared traces (../shared/traces) are not available");
        if (quick()) {
            // Under the sanitizers: the traces of at most 1 MB.
            QStringList small;
            for (const QString& t : traces) {
                qint64 bytes = 0;
                const QString folder = test::sharedTrace(t);
                for (const QString& f : ArchiveFiles(folder).all)
                    bytes += QFileInfo(folder + '/' + f).size();
                if (bytes <= 1'000'000) small << t;
            }
            traces = small;
        }
        damageEach(traces);
    }

    void damagedCheckedInCopies()
    {
        // The small checked-in traces (a Score-P 1.3 one and one written by Rankscope), unless
        // damagedCopies covers them already.
        QStringList traces;
        for (const QString name : {"casita-mpi-late-sender-barrier-4r", "stencil2d-9"}) {
            QVERIFY(!test::checkedInTraceAnchor(name).isEmpty());
            if (test::sharedTraceAnchor(name).isEmpty()) traces << name;
        }
        if (traces.isEmpty()) QSKIP("damagedCopies covers the checked-in traces");
        damageEach(traces);
    }

private:
    /// Damages copies of the traces `traces` (found by test::copyTrace) and checks each answer.
    static void damageEach(const QStringList& traces)
    {
        QElapsedTimer clock;
        clock.start();
        std::mt19937 random(17);
        QStringList problems;
        int copies = 0;
        for (const QString& name : traces) {
            QTemporaryDir dir;
            QVERIFY(dir.isValid());
            const QString anchor = test::copyTrace(name, dir.path());
            QVERIFY(!anchor.isEmpty());
            const QString folder = QFileInfo(anchor).absolutePath();
            const test::CliResult good = cli({"info", anchor, "--json"});
            QVERIFY2(good.exitCode == 0, good.err.constData());
            const QJsonObject goodInfo = test::jsonOf(good);
            const QStringList goodWarnings = warnings(goodInfo);

            for (const Damage& d : sample(folder, ArchiveFiles(folder), random, quick() ? 1 : 4)) {
                const std::map<QString, QByteArray> saved = apply(folder, d);
                ++copies;
                const QString what = name + ": " + d.describe();
                for (const bool partial : {false, true}) {
                    QStringList args{"info", anchor, "--json"};
                    if (partial) args << "--allow-partial";
                    const QString problem = check(cli(args), goodInfo, goodWarnings);
                    if (!problem.isEmpty())
                        problems << what + (partial ? " (--allow-partial): " : ": ") + problem;
                }
                for (const auto& [path, bytes] : saved)
                    QVERIFY(writeAll(path, bytes));
            }
        }
        qInfo("%d damaged copies of %lld traces in %.1f s", copies, qlonglong(traces.size()),
              clock.elapsed() / 1000.0);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }

    static test::CliResult cli(const QStringList& args)
    {
        return test::runProgram(QStringLiteral(RANKSCOPE_CLI), args);
    }

    /// What is wrong with the answer `r` to a damaged copy, or empty.
    static QString check(const test::CliResult& r, const QJsonObject& good,
                         const QStringList& goodWarnings)
    {
        if (r.exitCode == 1) {
            if (!namesAFile(r.err))
                return "exit 1 without naming a file: " + QString::fromUtf8(r.err.trimmed());
            return {};
        }
        if (r.exitCode != 0)
            return QStringLiteral("exit %1: %2")
                .arg(r.exitCode)
                .arg(QString::fromUtf8(r.err.left(2000)));
        const QJsonObject info = test::jsonOf(r);
        if (info.isEmpty()) return "exit 0 without JSON output";
        if (counts(info) == counts(good)) return {};
        bool said = false;
        for (const QString& w : warnings(info))
            said = said || !goodWarnings.contains(w);
        if (said) return {};
        QStringList differ;
        const QJsonObject a = counts(good), b = counts(info);
        for (auto it = a.begin(); it != a.end(); ++it)
            if (b.value(it.key()) != it.value())
                differ << it.key() + ' ' + jsonText(it.value()) + " -> " +
                              jsonText(b.value(it.key()));
        return "exit 0 with other counts silently: " + differ.join(", ");
    }
};

QTEST_GUILESS_MAIN(TestCliTraceDamage)
#include "tst_clitracedamage.moc"
