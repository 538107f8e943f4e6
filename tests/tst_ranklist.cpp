// Rank lists typed to filter the timeline: expected lists written out by hand.

#include "views/timeline/ranklist.h"

#include <QTest>

using namespace rankscope;

class TestRankList : public QObject
{
    Q_OBJECT
private slots:
    void parses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<int>>("expected");
        QTest::newRow("empty means all") << QString() << QList<int>{};
        QTest::newRow("blank means all") << QStringLiteral("  ") << QList<int>{};
        QTest::newRow("one") << QStringLiteral("3") << QList<int>{3};
        QTest::newRow("range") << QStringLiteral("4-7") << QList<int>{4, 5, 6, 7};
        QTest::newRow("mixed, order kept")
            << QStringLiteral("12, 0-2 9") << QList<int>{12, 0, 1, 2, 9};
        QTest::newRow("duplicates dropped") << QStringLiteral("1-3,2,3") << QList<int>{1, 2, 3};
        QTest::newRow("last rank") << QStringLiteral("15") << QList<int>{15};
    }
    void parses()
    {
        QFETCH(QString, text);
        QFETCH(QList<int>, expected);
        const auto ranks = parseRankList(text, 16);
        QVERIFY(ranks.has_value());
        QList<int> got;
        for (RankId r : *ranks)
            got.push_back(int(r.value));
        QCOMPARE(got, expected);
    }

    void rejects_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("word") << QStringLiteral("all") << QStringLiteral("'all'");
        QTest::newRow("negative") << QStringLiteral("-3") << QStringLiteral("'-3'");
        QTest::newRow("past the end") << QStringLiteral("16") << QStringLiteral("0 to 15");
        QTest::newRow("range past the end") << QStringLiteral("10-40") << QStringLiteral("0 to 15");
        QTest::newRow("backwards") << QStringLiteral("9-3") << QStringLiteral("'9-3'");
        QTest::newRow("huge") << QStringLiteral("99999999999999999999")
                              << QStringLiteral("0 to 15");
    }
    void rejects()
    {
        QFETCH(QString, text);
        QFETCH(QString, mentions);
        QString error;
        QVERIFY(!parseRankList(text, 16, &error).has_value());
        QVERIFY2(error.contains(mentions), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestRankList)
#include "tst_ranklist.moc"
