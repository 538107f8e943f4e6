#pragma once
// The recently opened traces, most recent first, kept in QSettings (at most kMax entries).

#include <QStringList>

namespace rankscope {

class RecentFiles
{
public:
    static constexpr int kMax = 10;

    /// Entries under `key` of the application's default QSettings.
    explicit RecentFiles(QString key = QStringLiteral("recentFiles"));

    QStringList paths() const;
    /// Moves `path` (made absolute) to the front, dropping the oldest beyond kMax.
    void add(const QString& path);
    void remove(const QString& path);
    void clear();

private:
    void store(const QStringList& paths);

    QString key_;
};

} // namespace rankscope
