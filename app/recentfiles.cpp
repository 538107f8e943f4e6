#include "app/recentfiles.h"

#include <QFileInfo>
#include <QSettings>

namespace rankscope {

RecentFiles::RecentFiles(QString key) : key_(std::move(key)) {}

QStringList RecentFiles::paths() const
{
    QStringList list = QSettings().value(key_).toStringList();
    list.removeAll(QString());
    return list.mid(0, kMax);
}

void RecentFiles::add(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = paths();
    list.removeAll(absolute);
    list.prepend(absolute);
    store(list.mid(0, kMax));
}

void RecentFiles::remove(const QString& path)
{
    QStringList list = paths();
    list.removeAll(QFileInfo(path).absoluteFilePath());
    list.removeAll(path);
    store(list);
}

void RecentFiles::clear()
{
    store({});
}

void RecentFiles::store(const QStringList& paths)
{
    QSettings settings;
    settings.setValue(key_, paths);
}

} // namespace rankscope
