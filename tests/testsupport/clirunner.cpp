#include "testsupport/clirunner.h"

#include <QJsonDocument>
#include <QProcess>

namespace rankscope::test {

CliResult runProgram(const QString& cli, const QStringList& args, int timeoutMs)
{
    QProcess p;
    p.start(cli, args);
    CliResult r;
    if (!p.waitForStarted(10000)) return r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    // In sanitizer builds AddressSanitizer exits with 1, the code of bad input: a report must
    // not pass for an expected failure.
    if (r.err.contains("Sanitizer") || r.err.contains("runtime error:")) r.exitCode = -2;
    return r;
}

QJsonObject jsonOf(const CliResult& result)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(result.out, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) return {};
    return doc.object();
}

} // namespace rankscope::test
