#pragma once
// Runs the command-line tool from a test, as a user would, and keeps what it printed.

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace rankscope::test {

struct CliResult
{
    int exitCode = -1; ///< -1: crashed or timed out; -2: a sanitizer reported a problem
    QByteArray out;
    QByteArray err;
};

/// Runs the program `cli` with `args` (at most `timeoutMs`, then it is killed: exit code -1).
CliResult runProgram(const QString& cli, const QStringList& args, int timeoutMs = 300000);

#ifdef RANKSCOPE_CLI
/// Runs this build's rankscope-cli (tests that link it get RANKSCOPE_CLI, its path).
inline CliResult runCli(const QStringList& args)
{
    return runProgram(QStringLiteral(RANKSCOPE_CLI), args);
}
#endif

/// Standard output parsed as one JSON object; empty when it is not one.
QJsonObject jsonOf(const CliResult& result);

} // namespace rankscope::test
