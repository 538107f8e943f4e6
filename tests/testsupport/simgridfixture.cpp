#include "testsupport/simgridfixture.h"

#include <QFile>
#include <QStandardPaths>
#include <QTest>

namespace rankscope::test {

void writeTestFile(const QString& path, const QByteArray& text, bool executable)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
    f.close();
    if (executable)
        f.setPermissions(f.permissions() | QFileDevice::ExeOwner | QFileDevice::ExeUser);
}

QString writeSimGridPingPong(const QString& dir)
{
    writeTestFile(dir + "/pp-0.txt", "0 init\n0 compute 1000\n0 send 1 7 800\n0 recv 1 8 1600\n"
                                     "0 finalize\n");
    writeTestFile(dir + "/pp-1.txt", "1 init\n1 recv 0 7 800\n1 compute 200\n1 send 0 8 1600\n"
                                     "1 finalize\n");
    writeTestFile(dir + "/pp.ti", "pp-0.txt\npp-1.txt\n");
    return dir + "/pp.ti";
}

bool haveSmpirun()
{
    return !QStandardPaths::findExecutable(QStringLiteral("smpirun")).isEmpty();
}

} // namespace rankscope::test
