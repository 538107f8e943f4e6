// writeFileAtomically (model/support/atomicfile.h), the one way sessions, scenarios and specs are
// saved: nothing planted next to the target is followed, the target keeps its permissions, a
// symbolic link stays a link with its target updated, and no temporary file is left behind.

#include "model/support/atomicfile.h"
#include "model/trace/traceerror.h"

#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>

using namespace rankscope;
namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
}

void writePlain(const fs::path& p, const std::string& text)
{
    std::ofstream(p, std::ios::binary) << text;
}

unsigned modeOf(const fs::path& p)
{
    struct stat st
    {
    };
    return ::stat(p.c_str(), &st) == 0 ? st.st_mode & 07777 : 0xFFFFu;
}

/// The names in `dir`, sorted.
QStringList entries(const fs::path& dir)
{
    QStringList names;
    for (const auto& e : fs::directory_iterator(dir))
        names << QString::fromStdString(e.path().filename().string());
    names.sort();
    return names;
}

} // namespace

class TestAtomicFile : public QObject
{
    Q_OBJECT
private slots:
    void writesAndReplacesLeavingNoTemporary()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const fs::path file = dir / "a.yaml";
        writeFileAtomically(file.string(), "first\n");
        QCOMPARE(readAll(file), std::string("first\n"));
        writeFileAtomically(file.string(), "second, longer\n");
        QCOMPARE(readAll(file), std::string("second, longer\n"));
        writeFileAtomically(file.string(), "");
        QCOMPARE(readAll(file), std::string());
        QCOMPARE(entries(dir), QStringList{QStringLiteral("a.yaml")});
    }

    void plantedLinksAreNotFollowed()
    {
        // The old fixed temporary name (<file>.saving), planted as a link to a file the user
        // cares about: the save must neither follow nor remove it.
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const fs::path victim = dir / "precious.txt";
        writePlain(victim, "precious");
        const fs::path file = dir / "s.rsession";
        fs::create_symlink(victim, file.string() + ".saving");
        writeFileAtomically(file.string(), "session");
        QCOMPARE(readAll(file), std::string("session"));
        QCOMPARE(readAll(victim), std::string("precious"));
        QVERIFY(fs::is_symlink(file.string() + ".saving"));
        QCOMPARE(entries(dir),
                 (QStringList{QStringLiteral("precious.txt"), QStringLiteral("s.rsession"),
                              QStringLiteral("s.rsession.saving")}));
    }

    void permissionsAreKept()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const fs::path file = dir / "spec.yaml";
        writePlain(file, "old");
        QCOMPARE(::chmod(file.c_str(), 0640), 0);
        writeFileAtomically(file.string(), "new");
        QCOMPARE(readAll(file), std::string("new"));
        QCOMPARE(modeOf(file), 0640u);
        QCOMPARE(::chmod(file.c_str(), 0600), 0);
        writeFileAtomically(file.string(), "newer");
        QCOMPARE(modeOf(file), 0600u);
        // A new file gets what the umask leaves of rw-rw-rw-, like any other new file:
        // 0666 & ~0027 = 0640.
        const mode_t before = ::umask(0027);
        writeFileAtomically((dir / "fresh.yaml").string(), "x");
        ::umask(before);
        QCOMPARE(modeOf(dir / "fresh.yaml"), 0640u);
    }

    void symbolicLinkStaysALink()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        fs::create_directory(dir / "store");
        const fs::path real = dir / "store" / "real.rsession";
        writePlain(real, "old");
        ::chmod(real.c_str(), 0640);
        // A relative link, and a link to that link.
        const fs::path link = dir / "link.rsession";
        fs::create_symlink("store/real.rsession", link);
        const fs::path link2 = dir / "link2.rsession";
        fs::create_symlink("link.rsession", link2);

        writeFileAtomically(link2.string(), "through two links");
        QVERIFY(fs::is_symlink(link2));
        QVERIFY(fs::is_symlink(link));
        QCOMPARE(fs::read_symlink(link).string(), std::string("store/real.rsession"));
        QCOMPARE(fs::read_symlink(link2).string(), std::string("link.rsession"));
        QCOMPARE(readAll(real), std::string("through two links"));
        QCOMPARE(modeOf(real), 0640u);
        QCOMPARE(entries(dir / "store"), QStringList{QStringLiteral("real.rsession")});
        QCOMPARE(followSymlinks(link2.string()), (dir / "store" / "real.rsession").string());

        // A dangling link: the file it names is created, the link stays.
        const fs::path dangling = dir / "dangling.yaml";
        fs::create_symlink("store/new.yaml", dangling);
        writeFileAtomically(dangling.string(), "created");
        QVERIFY(fs::is_symlink(dangling));
        QCOMPARE(readAll(dir / "store" / "new.yaml"), std::string("created"));
    }

    void errorsNameTheFile()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const auto errorOf = [](const std::string& path) -> std::string {
            try {
                writeFileAtomically(path, "x", "the session file");
            } catch (const TraceError& e) {
                return e.what();
            }
            return {};
        };
        // A folder where the file should be.
        fs::create_directory(dir / "folder.rsession");
        std::string e = errorOf((dir / "folder.rsession").string());
        QVERIFY2(e.find((dir / "folder.rsession").string() + ": cannot write the session file") ==
                     0,
                 e.c_str());
        QVERIFY2(e.find("not a regular file") != std::string::npos, e.c_str());
        // A folder that does not exist.
        e = errorOf((dir / "no" / "such" / "s.rsession").string());
        QVERIFY2(e.find((dir / "no" / "such" / "s.rsession").string() + ": cannot write") == 0,
                 e.c_str());
        // A link to itself.
        fs::create_symlink("loop", dir / "loop");
        e = errorOf((dir / "loop").string());
        QVERIFY2(e.find("symbolic links") != std::string::npos, e.c_str());
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomicfile.moc"
