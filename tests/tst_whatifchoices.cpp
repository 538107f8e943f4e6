// The what-if panel's first choices and resets: the trace in view as the baseline while none
// is chosen, only numeric spec keys offered to a sweep, and Reset edits with an editor open. On
// the bundled two-clusters-wan.yaml, whose values are read by hand from the file.

#include "testsupport/testpaths.h"
#include "views/whatif/specitemmodel.h"
#include "views/whatif/whatifpanel.h"
#include "whatif/netsim/networkspec.h"
#include "whatif/scenario/scenario.h"

#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QListWidget>
#include <QTest>
#include <QToolBox>
#include <QToolButton>
#include <QTreeView>

using namespace rankscope;

namespace {

template <class T> T* child(QWidget& w, const char* name)
{
    T* c = w.findChild<T*>(QString::fromLatin1(name));
    if (!c) qFatal("no child %s", name);
    return c;
}

} // namespace

class TestWhatIfChoices : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        spec_ = netsim::NetworkSpec::fromFile(
            rankscope::test::testData(
                QStringLiteral("../../resources/networks/two-clusters-wan.yaml"))
                .toStdString());
        QCOMPARE(spec_.link("wan")->latencyNs, 1e7);
    }
    void traceInViewIsTheFirstBaseline();
    void sweepOffersNumericKeysOnly();
    void resetWithAnEditorOpenResetsIt();

private:
    netsim::NetworkSpec spec_;
};

void TestWhatIfChoices::traceInViewIsTheFirstBaseline()
{
    WhatIfPanel panel;
    auto* baselines = child<QListWidget>(panel, "baselines");
    // Nothing chosen: the trace in view (the second) is checked.
    panel.setOpenTraces({{QStringLiteral("a"), QStringLiteral("/t/a.otf2"), 4, false},
                         {QStringLiteral("b"), QStringLiteral("/t/b.otf2"), 16, true}});
    QCOMPARE(baselines->item(0)->checkState(), Qt::Unchecked);
    QCOMPARE(baselines->item(1)->checkState(), Qt::Checked);
    QCOMPARE(panel.scenario().baselines, std::vector<std::string>{"/t/b.otf2"});
    // Only offered: it follows the trace in view (traces load in any order and the tab in
    // view when the panel opens is the one the user means).
    panel.setOpenTraces({{QStringLiteral("a"), QStringLiteral("/t/a.otf2"), 4, true},
                         {QStringLiteral("b"), QStringLiteral("/t/b.otf2"), 16, false}});
    QCOMPARE(baselines->item(0)->checkState(), Qt::Checked);
    QCOMPARE(baselines->item(1)->checkState(), Qt::Unchecked);
    // A result tab in view (no trace active) keeps the offer.
    panel.setOpenTraces({{QStringLiteral("a"), QStringLiteral("/t/a.otf2"), 4, false},
                         {QStringLiteral("b"), QStringLiteral("/t/b.otf2"), 16, false}});
    QCOMPARE(panel.scenario().baselines, std::vector<std::string>{"/t/a.otf2"});
    // Once the user checks one, looking at another trace does not change it.
    baselines->item(1)->setCheckState(Qt::Checked); // a replay has one: a's check moves to b
    QCOMPARE(panel.scenario().baselines, std::vector<std::string>{"/t/b.otf2"});
    panel.setOpenTraces({{QStringLiteral("a"), QStringLiteral("/t/a.otf2"), 4, true},
                         {QStringLiteral("b"), QStringLiteral("/t/b.otf2"), 16, false}});
    QCOMPARE(baselines->item(0)->checkState(), Qt::Unchecked);
    QCOMPARE(baselines->item(1)->checkState(), Qt::Checked);
}

void TestWhatIfChoices::sweepOffersNumericKeysOnly()
{
    WhatIfPanel panel;
    panel.setSpec(spec_);
    auto* param = child<QComboBox>(panel, "sweepParam");
    QStringList offered;
    for (int i = 0; i < param->count(); ++i)
        offered << param->itemText(i);
    // two-clusters-wan.yaml: numbers with units are offered, names and choices are not.
    for (const char* key : {"target", "cpu_factor", "nodes", "links.wan.latency",
                            "links.nic.bandwidth", "wide_area_streams", "eager_limit"})
        QVERIFY2(offered.contains(QLatin1String(key)), key);
    for (const char* key :
         {"name", "mapping", "networks.grid.topology", "networks.grid.link", "collectives.bcast"})
        QVERIFY2(!offered.contains(QLatin1String(key)), key);
}

void TestWhatIfChoices::resetWithAnEditorOpenResetsIt()
{
    // A value typed but not yet committed (the editor still open) when Reset edits is clicked:
    // the click commits it first, then resets everything, so no edit survives the reset.
    WhatIfPanel panel;
    panel.resize(440, 900);
    panel.show();
    panel.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&panel));
    panel.setSpec(spec_);
    child<QToolBox>(panel, "sections")->setCurrentIndex(1);
    auto* tree = child<QTreeView>(panel, "specTree");
    tree->setFocus();
    QVERIFY(panel.specModel()->setValue("wide_area_streams", "4")); // Reset is enabled
    const QModelIndex latency = panel.specModel()->indexOfKey("links.wan.latency");
    tree->setCurrentIndex(latency);
    tree->edit(latency);
    auto* line = qobject_cast<QLineEdit*>(QApplication::focusWidget());
    QVERIFY(line);
    line->selectAll();
    QTest::keyClicks(line, QStringLiteral("50ms"));
    auto* reset = child<QToolButton>(panel, "resetSpec");
    QVERIFY(reset->isEnabled());
    QTest::mouseClick(reset, Qt::LeftButton);
    QTest::qWait(50);
    QVERIFY(QApplication::focusWidget() != line);
    QVERIFY(panel.specModel()->overrides().empty());
    QCOMPARE(panel.editedSpec().link("wan")->latencyNs, 1e7);
    QCOMPARE(panel.editedSpec().wideAreaStreams, 2u);
}

QTEST_MAIN(TestWhatIfChoices)
#include "tst_whatifchoices.moc"
