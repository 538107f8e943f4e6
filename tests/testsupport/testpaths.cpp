#include "testsupport/testpaths.h"

#include <QDir>
#include <QFileInfo>

namespace rankscope::test {

QString sharedTrace(const QString& name)
{
    const QString dir = QDir(QStringLiteral(RANKSCOPE_SHARED_TRACES_DIR)).filePath(name);
    return QFileInfo(dir).isDir() ? dir : QString();
}

QString sharedTraceAnchor(const QString& name)
{
    const QString dir = sharedTrace(name);
    if (dir.isEmpty())
        return {};
    const QString anchor = QDir(dir).filePath(QStringLiteral("traces.otf2"));
    return QFileInfo::exists(anchor) ? anchor : QString();
}

QString testData(const QString& relative)
{
    return QDir(QStringLiteral(RANKSCOPE_TEST_DATA_DIR)).filePath(relative);
}

} // namespace rankscope::test
