// The network view's time window and its list of a clicked link's heaviest messages
// (views/whatif/networkview.h), on a crossbar whose link figures are set by hand; every expected
// value is worked out by hand in the comments.

#include "views/whatif/networkview.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QTableWidget>
#include <QTest>

using namespace rankscope;
using namespace rankscope::netsim;

namespace {

std::shared_ptr<NetworkPicture> crossbarPicture()
{
    // Crossbar of 4 nodes: edge 1 is n1 <-> switch, links 2 (n1 -> switch) and 3 (back).
    // Windows of 10 ns from 100 ns: link 2 busy throughout windows 0 and 1, link 3 for 5 ns
    // in window 3. Over the whole run they show 0.3 and 0.6 (set apart from the windows).
    auto p = std::make_shared<NetworkPicture>();
    const std::string text = "nodes: 4\nlinks:\n  l: {latency: 1us, bandwidth: 1GB/s}\n"
                             "networks:\n  x: {topology: crossbar, link: l}\n";
    p->layouts = layoutNetworks(NetworkSpec::fromString(text, "test"));
    NetworkFigures& f = p->figures;
    f.links.resize(8);
    f.links[2].info.name = "x:n1->switch";
    f.links[3].info.name = "x:switch->n1";
    f.links[2].utilisation = 0.3;
    f.links[3].utilisation = 0.6;
    f.runNs = 640;
    f.windowNs = 10;
    f.originNs = 100;
    f.windowBusyNs.assign(8 * LinkRecorder::kWindows, 0.0);
    f.windowBusyNs[2 * LinkRecorder::kWindows + 0] = 10;
    f.windowBusyNs[2 * LinkRecorder::kWindows + 1] = 10;
    f.windowBusyNs[3 * LinkRecorder::kWindows + 3] = 5;
    f.heaviest.resize(8);
    f.heaviest[2] = {LinkMessage{7, 1, 0, 4096, 5000, 1000}, LinkMessage{3, 1, 2, 1024, 900, 0}};
    f.heaviest[3] = {LinkMessage{5, 0, 1, 2048, 3000, 0}};
    return p;
}

} // namespace

class TestNetworkView : public QObject
{
    Q_OBJECT
private slots:
    void timeWindow()
    {
        NetworkView view;
        view.resize(1200, 700);
        view.setPicture(crossbarPicture());
        NetworkCanvas* canvas = view.canvas();
        QCOMPARE(canvas->edgeLoad(1), 0.6); // the whole run: the busier direction
        QCOMPARE(view.window(), (std::pair{0.0, 0.0}));
        QVERIFY(!view.fromSlider()->isEnabled());

        // Chosen window 0..2 = [100, 120): link 2 busy 20 of 20 ns, link 3 idle.
        view.windowBox()->setCurrentIndex(int(NetworkView::WindowMode::Chosen));
        QVERIFY(view.fromSlider()->isEnabled());
        view.fromSlider()->setValue(0);
        view.toSlider()->setValue(2);
        QCOMPARE(view.window(), (std::pair{100.0, 120.0}));
        QCOMPARE(canvas->edgeLoad(1), 1.0);
        // Window 3..4 = [130, 140): link 3 busy 5 of 10 ns. (Moving the start past the end
        // pushes the end one window on.)
        view.fromSlider()->setValue(3);
        QCOMPARE(view.toSlider()->value(), 4);
        QCOMPARE(view.window(), (std::pair{130.0, 140.0}));
        QCOMPARE(canvas->edgeLoad(1), 0.5);

        // The timeline's range [125, 145): link 3's 5 ns over 20 ns; link 2 idle there.
        view.setTimelineRange(125, 145);
        QCOMPARE(view.window(), (std::pair{130.0, 140.0})); // not followed yet
        view.windowBox()->setCurrentIndex(int(NetworkView::WindowMode::Timeline));
        QCOMPARE(view.window(), (std::pair{125.0, 145.0}));
        QCOMPARE(canvas->edgeLoad(1), 0.25);
        view.setTimelineRange(100, 110); // followed as it moves: link 2 busy throughout
        QCOMPARE(canvas->edgeLoad(1), 1.0);

        view.windowBox()->setCurrentIndex(int(NetworkView::WindowMode::WholeRun));
        QCOMPARE(canvas->edgeLoad(1), 0.6);
    }

    void clickedLinkListsItsMessages()
    {
        NetworkView view;
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setPicture(crossbarPicture());
        QCOMPARE(view.messageTable()->rowCount(), 0);
        // A click on edge 1 (n1 <-> switch): the midpoint of its two ends.
        NetworkCanvas* canvas = view.canvas();
        const QPointF mid = (canvas->vertexPoint(1) + canvas->vertexPoint(4)) / 2;
        QTest::mouseClick(canvas, Qt::LeftButton, {}, mid.toPoint());
        QCOMPARE(canvas->selectedEdge(), 1);
        // Both directions merged, most bytes first: 7 (4096 B), 5 (2048 B), 3 (1024 B).
        QTableWidget* t = view.messageTable();
        QCOMPARE(t->rowCount(), 3);
        QCOMPARE(t->item(0, 0)->text(), QStringLiteral("7"));
        QCOMPARE(t->item(1, 0)->text(), QStringLiteral("5"));
        QCOMPARE(t->item(2, 0)->text(), QStringLiteral("3"));
        QCOMPARE(t->item(0, 1)->text(), QStringLiteral("1"));
        QCOMPARE(t->item(0, 2)->text(), QStringLiteral("0"));
        QCOMPARE(t->item(0, 3)->text(), QStringLiteral("4.00 KiB"));
        QCOMPARE(t->item(1, 6)->text(), QStringLiteral("x:switch->n1"));
        QVERIFY(view.messageTitle()->text().contains(QStringLiteral("x:n1->switch")));
        QSignalSpy chosen(&view, &NetworkView::messageChosen);
        t->setCurrentCell(1, 0);
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(chosen.at(0).at(0).toUInt(), 5u);
        // A click on empty space clears the list.
        QTest::mouseClick(canvas, Qt::LeftButton, {}, QPoint(5, canvas->height() - 5));
        QCOMPARE(canvas->selectedEdge(), -1);
        QCOMPARE(t->rowCount(), 0);
    }
};

QTEST_MAIN(TestNetworkView)
#include "tst_networkview.moc"
