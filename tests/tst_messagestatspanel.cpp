// The Message Statistics pane (offscreen) on a hand-built trace of three messages whose sizes,
// transfer times and bandwidths are worked out by hand below; the main window's tab for it; and
// the pane's groups on a real trace against `rankscope-cli messages --json`.

#include "app/mainwindow.h"
#include "app/tracedocument.h"
#include "importers/otf2/otf2writer.h"
#include "model/analysis/messagestats.h"
#include "testsupport/clirunner.h"
#include "testsupport/handtrace.h"
#include "testsupport/testpaths.h"
#include "views/panes/messagestatspanel.h"
#include "views/plots/log2histogramchart.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace rankscope;
using namespace rankscope::test;

namespace {

/// Rank 0, inside "solve", sends 8 B at 25 (received at 35: 10 ns) and 1000 B at 55 (received
/// at 555: 500 ns); rank 1, outside any user region, sends 8 B at 705, received at 725 (20 ns).
Trace threeMessages()
{
    TwoRanks t;
    const RegionId solve = t.h.user("solve");
    TraceBuilder& b = t.h.builder();
    t.h.enter(t.r0, 15, solve);
    t.h.enter(t.r0, 20, t.send);
    b.send(t.r0, 25, 1, t.world, 0, 8);
    t.h.leave(t.r0, 30, t.send);
    t.h.enter(t.r1, 20, t.recv);
    b.recv(t.r1, 35, 0, t.world, 0, 8);
    t.h.leave(t.r1, 40, t.recv);
    t.h.enter(t.r0, 50, t.send);
    b.send(t.r0, 55, 1, t.world, 0, 1000);
    t.h.leave(t.r0, 60, t.send);
    t.h.leave(t.r0, 65, solve);
    t.h.enter(t.r1, 50, t.recv);
    b.recv(t.r1, 555, 0, t.world, 0, 1000);
    t.h.leave(t.r1, 560, t.recv);
    t.h.enter(t.r1, 700, t.send);
    b.send(t.r1, 705, 0, t.world, 1, 8);
    t.h.leave(t.r1, 710, t.send);
    t.h.enter(t.r0, 700, t.recv);
    b.recv(t.r0, 725, 1, t.world, 1, 8);
    t.h.leave(t.r0, 730, t.recv);
    return t.end(800);
}

std::vector<uint64_t> counts(const Log2HistogramChart* c)
{
    std::vector<uint64_t> out;
    for (const Log2HistogramChart::Bar& b : c->bars())
        out.push_back(b.count);
    return out;
}

} // namespace

class TestMessageStatsPanel : public QObject
{
    Q_OBJECT

private slots:
    void handTrace()
    {
        auto stats =
            std::make_shared<const MessageStatistics>(computeMessageStatistics(threeMessages()));
        MessageStatsPanel panel;
        panel.resize(900, 500);
        panel.setStatistics(stats);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));

        // Top level: "All messages", then the call-site and communicator headings.
        QTreeWidget* tree = panel.tree();
        QCOMPARE(tree->topLevelItemCount(), 3);
        QTreeWidgetItem* all = tree->topLevelItem(0);
        QCOMPARE(all->text(MessageStatsPanel::GroupColumn), QStringLiteral("All messages"));
        QCOMPARE(all->text(MessageStatsPanel::CountColumn), QStringLiteral("3"));
        // 8 + 1000 + 8 = 1016 B; mean (10 + 500 + 20) / 3 = 176.67 ns, shown in whole ns (below
        // 1 us durations are rounded to the ns); max 500 ns.
        QCOMPARE(all->text(MessageStatsPanel::BytesColumn), QStringLiteral("1016 B"));
        QCOMPARE(all->text(MessageStatsPanel::MeanColumn), QStringLiteral("177 ns"));
        QCOMPARE(all->text(MessageStatsPanel::MaxColumn), QStringLiteral("500 ns"));
        QCOMPARE(panel.shownGroup(), &stats->all);

        // Sizes 8, 1000, 8: bins 4 [8 B, 16 B) twice and 10 [512 B, 1 KiB) once; the bars run
        // from bin 4 to bin 10, the empty ones between included.
        QCOMPARE(counts(panel.sizeChart()), (std::vector<uint64_t>{2, 0, 0, 0, 0, 0, 1}));
        QCOMPARE(panel.sizeChart()->bars().front().range, QStringLiteral("[8 B, 16 B)"));
        QCOMPARE(panel.sizeChart()->bars().back().range, QStringLiteral("[512 B, 1.00 KiB)"));
        // Transfers 10, 500, 20 ns: bins 4 [8, 16), 9 [256, 512), 5 [16, 32).
        QCOMPARE(counts(panel.timeChart()), (std::vector<uint64_t>{1, 1, 0, 0, 0, 1}));
        QCOMPARE(panel.timeChart()->bars().front().bin, 4u);
        // Bandwidths 8 B / 10 ns = 8e8 B/s (2^29 <= 8e8 < 2^30: bin 30), 1000 / 500 = 2e9
        // (bin 31), 8 / 20 = 4e8 (2^28 <= 4e8 < 2^29: bin 29).
        QCOMPARE(counts(panel.bandwidthChart()), (std::vector<uint64_t>{1, 1, 1}));
        QCOMPARE(panel.bandwidthChart()->bars().front().bin, 29u);

        // Call sites: rank 0's two sends from solve, rank 1's one from the top level.
        QTreeWidgetItem* sites = tree->topLevelItem(1);
        QCOMPARE(sites->childCount(), 2);
        QTreeWidgetItem* solve = sites->child(0);
        QCOMPARE(solve->text(MessageStatsPanel::GroupColumn), QStringLiteral("solve:MPI_Send"));
        QCOMPARE(solve->text(MessageStatsPanel::CountColumn), QStringLiteral("2"));
        QCOMPARE(solve->text(MessageStatsPanel::BytesColumn), QStringLiteral("1008 B"));
        QCOMPARE(sites->child(1)->text(MessageStatsPanel::GroupColumn), QStringLiteral("MPI_Send"));
        tree->setCurrentItem(solve);
        QCOMPARE(panel.shownGroup(), &stats->byCallSite[0]);
        // Its transfers: 10 ns (bin 4) and 500 ns (bin 9).
        QCOMPARE(counts(panel.timeChart()), (std::vector<uint64_t>{1, 0, 0, 0, 0, 1}));
        QVERIFY(panel.summary()->text().contains(QStringLiteral("2 messages")));
        // A heading shows nothing new.
        tree->setCurrentItem(sites);
        QCOMPARE(panel.shownGroup(), &stats->byCallSite[0]);
        // One communicator.
        QTreeWidgetItem* comms = tree->topLevelItem(2);
        QCOMPARE(comms->childCount(), 1);
        QCOMPARE(comms->child(0)->text(MessageStatsPanel::GroupColumn),
                 QStringLiteral("MPI_COMM_WORLD"));
        QCOMPARE(comms->child(0)->text(MessageStatsPanel::CountColumn), QStringLiteral("3"));

        panel.setStatistics(nullptr);
        QCOMPARE(tree->topLevelItemCount(), 0);
        QVERIFY(panel.sizeChart()->bars().empty());
    }

    void inTheMainWindow()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeOtf2(threeMessages(), dir.path().toStdString());
        MainWindow w;
        w.setInteractive(false);
        QSignalSpy opened(&w, &MainWindow::traceOpened);
        QVERIFY(w.openTrace(dir.path()));
        QVERIFY(opened.wait(20000));
        TraceDocument* doc = w.document(0);
        QVERIFY(doc);
        const int tab = doc->panes()->indexOf(doc->messagesPanel());
        QVERIFY(tab >= 0);
        QCOMPARE(doc->panes()->tabText(tab), QStringLiteral("Message Statistics"));
        QVERIFY(doc->data().messages);
        QCOMPARE(doc->data().messages->all.count, 3u);
        QCOMPARE(
            doc->messagesPanel()->tree()->topLevelItem(0)->text(MessageStatsPanel::CountColumn),
            QStringLiteral("3"));
    }

    void agreesWithTheCli()
    {
        const QString anchor = sharedTraceAnchor(QStringLiteral("casita-mpi-tags-10r"));
        if (anchor.isEmpty()) QSKIP("shared trace not present");
        MainWindow w;
        w.setInteractive(false);
        QSignalSpy opened(&w, &MainWindow::traceOpened);
        QVERIFY(w.openTrace(anchor));
        QVERIFY(opened.wait(60000));
        const MessageStatsPanel* panel = w.document(0)->messagesPanel();
        const CliResult r = runCli({QStringLiteral("messages"), anchor, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = jsonOf(r);
        // Same number of call sites and communicators, same counts, same size histogram.
        QTreeWidget* tree = panel->tree();
        const QJsonArray sites = j.value(QLatin1String("by_callsite")).toArray();
        QCOMPARE(tree->topLevelItem(1)->childCount(), sites.size());
        for (int i = 0; i < sites.size(); ++i) {
            const QJsonObject s = sites[i].toObject();
            QCOMPARE(tree->topLevelItem(1)->child(i)->text(MessageStatsPanel::GroupColumn),
                     s.value(QLatin1String("name")).toString());
            QCOMPARE(tree->topLevelItem(1)->child(i)->text(MessageStatsPanel::CountColumn),
                     QString::number(s.value(QLatin1String("count")).toInteger()));
        }
        QCOMPARE(tree->topLevelItem(2)->childCount(),
                 j.value(QLatin1String("by_communicator")).toArray().size());
        uint64_t total = 0;
        for (const Log2HistogramChart::Bar& b : panel->sizeChart()->bars())
            total += b.count;
        // 18 messages (tst_clicommmatrix, from otf2-print).
        QCOMPARE(total, uint64_t(18));
        QCOMPARE(j.value(QLatin1String("messages")).toInteger(), 18);
        const QJsonArray sizes =
            j.value(QLatin1String("all")).toObject().value(QLatin1String("size_bytes")).toArray();
        for (const QJsonValue& v : sizes) {
            const QJsonObject bin = v.toObject();
            const auto lower = uint64_t(bin.value(QLatin1String("lower")).toInteger());
            const auto k = lower == 0 ? 0u : Log2Histogram::binOf(int64_t(lower));
            bool found = false;
            for (const Log2HistogramChart::Bar& b : panel->sizeChart()->bars())
                if (b.bin == k) {
                    QCOMPARE(qint64(b.count), bin.value(QLatin1String("count")).toInteger());
                    found = true;
                }
            QVERIFY(found);
        }
    }
};

QTEST_MAIN(TestMessageStatsPanel)
#include "tst_messagestatspanel.moc"
