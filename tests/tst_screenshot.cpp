// `rankscope --screenshot` run as a user would: the built binary (one folder above the tests),
// offscreen, writing a PNG of exactly the requested size; bad input exits 1 with a message.

#include "testsupport/testpaths.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestScreenshot : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void writesPngOfRequestedSize_data();
    void writesPngOfRequestedSize();
    void failsOnBadTrace();
    void correctedClocks();

private:
    struct Result
    {
        int exitCode = -1;
        QByteArray err;
    };
    Result run(const QStringList& args) const;

    QString binary_;
    QString trace_;
};

void TestScreenshot::initTestCase()
{
    binary_ = QCoreApplication::applicationDirPath() + QStringLiteral("/../rankscope");
    if (!QFileInfo(binary_).isExecutable()) QSKIP("rankscope binary not built");
    trace_ = rankscope::test::traceAnchor(QStringLiteral("casita-mpi-late-sender-barrier-4r"));
    QVERIFY(!trace_.isEmpty()); // checked in under resources/demo/traces
}

TestScreenshot::Result TestScreenshot::run(const QStringList& args) const
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    p.start(binary_, args);
    if (!p.waitForFinished(120000)) return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardError()};
}

void TestScreenshot::writesPngOfRequestedSize_data()
{
    QTest::addColumn<QString>("size");
    QTest::addColumn<bool>("compare");
    QTest::addColumn<QSize>("expected");
    QTest::addColumn<QString>("pane");
    QTest::newRow("default") << QString() << false << QSize(1600, 1000) << QString();
    QTest::newRow("900x700") << QStringLiteral("900x700") << false << QSize(900, 700) << QString();
    QTest::newRow("compare") << QStringLiteral("1280x900") << true << QSize(1280, 900) << QString();
    QTest::newRow("calltree") << QStringLiteral("1920x1080") << false << QSize(1920, 1080)
                              << QStringLiteral("calltree");
    QTest::newRow("criticalpath") << QStringLiteral("1920x1080") << false << QSize(1920, 1080)
                                  << QStringLiteral("criticalpath");
    QTest::newRow("messages") << QStringLiteral("1920x1080") << false << QSize(1920, 1080)
                              << QStringLiteral("messages");
}

void TestScreenshot::writesPngOfRequestedSize()
{
    QFETCH(QString, size);
    QFETCH(bool, compare);
    QFETCH(QSize, expected);
    QFETCH(QString, pane);
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("shot.png"));
    QStringList args{QStringLiteral("--screenshot"), out};
    if (!size.isEmpty()) args << QStringLiteral("--size") << size;
    if (!pane.isEmpty()) args << QStringLiteral("--pane") << pane;
    if (compare)
        args << QStringLiteral("--compare") << trace_ << QFileInfo(trace_).absolutePath();
    else
        args << trace_;
    const Result r = run(args);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QImage image(out);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), expected);
    // Not blank: a rendered window has many distinct colours.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    QVERIFY(colours.size() > 10);
    // The critical-path pane draws the path on the timeline, in its cyan (0, 229, 255).
    if (pane == QLatin1String("criticalpath")) {
        bool cyan = false;
        for (int y = 0; y < image.height() && !cyan; ++y)
            for (int x = 0; x < image.width() && !cyan; ++x)
                cyan = image.pixel(x, y) == qRgb(0, 229, 255);
        QVERIFY(cyan);
    }
}

void TestScreenshot::failsOnBadTrace()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("shot.png"));
    const Result r =
        run({QStringLiteral("--screenshot"), out, dir.filePath(QStringLiteral("none"))});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("does not exist"), r.err.constData());
    QVERIFY(!QFileInfo::exists(out));

    const Result bad = run({QStringLiteral("--screenshot"), out, QStringLiteral("--size"),
                            QStringLiteral("big"), trace_});
    QCOMPARE(bad.exitCode, 2);

    const Result pane = run({QStringLiteral("--screenshot"), out, QStringLiteral("--pane"),
                             QStringLiteral("tree"), trace_});
    QCOMPARE(pane.exitCode, 1);
    QVERIFY2(pane.err.contains("calltree"), pane.err.constData());
    QVERIFY2(pane.err.contains("messages"), pane.err.constData());
}

void TestScreenshot::correctedClocks()
{
    // --correct-clocks waits for the correction before rendering (Analysis > Correct Clocks).
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("shot.png"));
    const Result r = run({QStringLiteral("--screenshot"), out, QStringLiteral("--size"),
                          QStringLiteral("1000x700"), QStringLiteral("--correct-clocks"),
                          QStringLiteral("--pane"), QStringLiteral("messages"), trace_});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(QImage(out).size(), QSize(1000, 700));
}

QTEST_MAIN(TestScreenshot)
#include "tst_screenshot.moc"
