// RecentFiles: most recent first, no duplicates, at most ten, kept in QSettings.

#include "app/recentfiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QTest>

using rankscope::RecentFiles;

class TestRecentFiles : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("RankscopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_recentfiles"));
    }
    void init() { RecentFiles().clear(); }
    void cleanupTestCase() { RecentFiles().clear(); }

    void newestFirstWithoutDuplicates()
    {
        RecentFiles r;
        r.add(QStringLiteral("/t/a/traces.otf2"));
        r.add(QStringLiteral("/t/b"));
        r.add(QStringLiteral("/t/a/traces.otf2"));
        QCOMPARE(r.paths(), QStringList({"/t/a/traces.otf2", "/t/b"}));
        r.remove(QStringLiteral("/t/b"));
        QCOMPARE(r.paths(), QStringList({"/t/a/traces.otf2"}));
    }

    void keepsTheTenNewest()
    {
        RecentFiles r;
        for (int i = 0; i < 12; ++i)
            r.add(QStringLiteral("/t/%1").arg(i));
        QStringList expected;
        for (int i = 11; i >= 2; --i)
            expected << QStringLiteral("/t/%1").arg(i);
        QCOMPARE(r.paths(), expected);
        QCOMPARE(RecentFiles().paths(), expected); // persisted, seen by a new instance
    }

    void storesAbsolutePaths()
    {
        RecentFiles r;
        r.add(QStringLiteral("relative/traces.otf2"));
        QCOMPARE(r.paths().value(0), QDir::current().absoluteFilePath("relative/traces.otf2"));
    }
};

QTEST_MAIN(TestRecentFiles)
#include "tst_recentfiles.moc"
