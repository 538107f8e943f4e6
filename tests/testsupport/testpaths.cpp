#include "testsupport/testpaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace rankscope::test {

namespace {

/// Folder `name` of the trace collection `root`, or empty if absent.
QString traceIn(const QString& root, const QString& name)
{
    const QString dir = QDir(root).filePath(name);
    return !name.isEmpty() && QFileInfo(dir).isDir() ? dir : QString();
}

QString anchorIn(const QString& root, const QString& name)
{
    const QString dir = traceIn(root, name);
    if (dir.isEmpty()) return {};
    const QString anchor = QDir(dir).filePath(QStringLiteral("traces.otf2"));
    return QFileInfo::exists(anchor) ? anchor : QString();
}

QStringList namesIn(const QString& root)
{
    QStringList names;
    const QDir dir(root);
    for (const QString& name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (!anchorIn(root, name).isEmpty()) names << name;
    return names;
}

/// Copies the archive in the folder `from` to <dir>/<name>, files made writable.
QString copyArchive(const QString& from, const QString& name, const QString& dir)
{
    if (from.isEmpty()) return {};
    const QString dst = QDir(dir).filePath(name);
    QDir().mkpath(dst + QStringLiteral("/traces"));
    for (const QString& sub : {QString(), QStringLiteral("/traces")}) {
        const QDir src(from + sub);
        for (const QString& f : src.entryList(QDir::Files)) {
            const QString to = dst + sub + QLatin1Char('/') + f;
            QFile::copy(src.filePath(f), to);
            QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner);
        }
    }
    return dst + QStringLiteral("/traces.otf2");
}

const QString kShared = QStringLiteral(RANKSCOPE_SHARED_TRACES_DIR);
const QString kCheckedIn = QStringLiteral(RANKSCOPE_CHECKED_IN_TRACES_DIR);

} // namespace

QString sharedTrace(const QString& name)
{
    return traceIn(kShared, name);
}

QStringList sharedTraceNames()
{
    return namesIn(kShared);
}

QString sharedTraceAnchor(const QString& name)
{
    return anchorIn(kShared, name);
}

QString copySharedTrace(const QString& name, const QString& dir)
{
    return copyArchive(sharedTrace(name), name, dir);
}

QString checkedInTrace(const QString& name)
{
    return traceIn(kCheckedIn, name);
}

QStringList checkedInTraceNames()
{
    return namesIn(kCheckedIn);
}

QString checkedInTraceAnchor(const QString& name)
{
    return anchorIn(kCheckedIn, name);
}

QString traceAnchor(const QString& name)
{
    const QString shared = sharedTraceAnchor(name);
    return shared.isEmpty() ? checkedInTraceAnchor(name) : shared;
}

QString copyTrace(const QString& name, const QString& dir)
{
    const QString anchor = traceAnchor(name);
    return anchor.isEmpty() ? QString() : copyArchive(QFileInfo(anchor).path(), name, dir);
}

QString testData(const QString& relative)
{
    return QDir(QStringLiteral(RANKSCOPE_TEST_DATA_DIR)).filePath(relative);
}

} // namespace rankscope::test
