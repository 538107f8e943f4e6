#include "testsupport/testpaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace rankscope::test {

QString sharedTrace(const QString& name)
{
    const QString dir = QDir(QStringLiteral(RANKSCOPE_SHARED_TRACES_DIR)).filePath(name);
    return QFileInfo(dir).isDir() ? dir : QString();
}

QStringList sharedTraceNames()
{
    QStringList names;
    const QDir dir(QStringLiteral(RANKSCOPE_SHARED_TRACES_DIR));
    for (const QString& name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (!sharedTraceAnchor(name).isEmpty()) names << name;
    return names;
}

QString sharedTraceAnchor(const QString& name)
{
    const QString dir = sharedTrace(name);
    if (dir.isEmpty()) return {};
    const QString anchor = QDir(dir).filePath(QStringLiteral("traces.otf2"));
    return QFileInfo::exists(anchor) ? anchor : QString();
}

QString copySharedTrace(const QString& name, const QString& dir)
{
    const QDir src(sharedTrace(name));
    const QString dst = QDir(dir).filePath(name);
    QDir().mkpath(dst + QStringLiteral("/traces"));
    for (const QString& sub : {QString(), QStringLiteral("/traces")}) {
        const QDir from(src.path() + sub);
        for (const QString& f : from.entryList(QDir::Files)) {
            const QString to = dst + sub + QLatin1Char('/') + f;
            QFile::copy(from.filePath(f), to);
            QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner);
        }
    }
    return dst + QStringLiteral("/traces.otf2");
}

QString testData(const QString& relative)
{
    return QDir(QStringLiteral(RANKSCOPE_TEST_DATA_DIR)).filePath(relative);
}

} // namespace rankscope::test
