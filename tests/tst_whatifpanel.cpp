// The what-if panel and its editable spec copy (SpecItemModel) on a temporary copy of the bundled
// two-clusters-wan.yaml. Expected values are the file's by hand: the wan link has latency 10 ms
// = 1e7 ns, the spec chooses van_de_geijn for bcast, and 4KiB = 4096 bytes. Every test also
// checks that the file's bytes and modification time never change.

#include "testsupport/testpaths.h"
#include "views/whatif/specitemmodel.h"
#include "views/whatif/whatifpanel.h"
#include "whatif/netsim/networkspec.h"
#include "whatif/scenario/scenario.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBox>
#include <QToolButton>
#include <QTreeView>
#include <QUndoStack>

using namespace rankscope;

namespace {

QString bundledSpec(const QString& name)
{
    // From the checked-in fixtures folder (an absolute path), so the working directory of
    // the test does not matter (__FILE__ is relative to the build folder).
    return rankscope::test::testData(QStringLiteral("../../resources/networks/") + name);
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

template <class T> T* child(QWidget& w, const char* name)
{
    T* c = w.findChild<T*>(QString::fromLatin1(name));
    if (!c) qFatal("no child %s", name);
    return c;
}

} // namespace

class TestWhatIfPanel : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();

    void modelPassesTester();
    void editChangesOnlyTheCopy();
    void badEditIsRejected();
    void newKeyBecomesARow();
    void fileValueDropsTheEdit();
    void resetAllIsOneUndoStep();
    void panelControlsEditTheScenario();
    void badEagerLimitShowsTheError();
    void runNeedsABaseline();
    void scenarioRoundTrips();
    void sweepNeedsValues();
    void specChoiceAsksTheApp();
    void targetPresetsUseTheLargestBaseline();
    void treeEditsThroughTheDelegate();

private:
    void checkFileUntouched() const;

    std::unique_ptr<QTemporaryDir> dir_;
    QString path_;
    QByteArray bytes_;
    QDateTime mtime_;
    netsim::NetworkSpec spec_;
};

void TestWhatIfPanel::init()
{
    dir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(dir_->isValid());
    path_ = dir_->filePath(QStringLiteral("two-clusters-wan.yaml"));
    QVERIFY2(QFile::copy(bundledSpec(QStringLiteral("two-clusters-wan.yaml")), path_),
             qPrintable(bundledSpec(QStringLiteral("two-clusters-wan.yaml"))));
    bytes_ = readAll(path_);
    QVERIFY(!bytes_.isEmpty());
    mtime_ = QFileInfo(path_).lastModified();
    spec_ = netsim::NetworkSpec::fromFile(path_.toStdString());
    QCOMPARE(spec_.link("wan")->latencyNs, 1e7);
}

void TestWhatIfPanel::cleanup()
{
    checkFileUntouched();
    dir_.reset();
}

void TestWhatIfPanel::checkFileUntouched() const
{
    QCOMPARE(readAll(path_), bytes_);
    QCOMPARE(QFileInfo(path_).lastModified(), mtime_);
}

void TestWhatIfPanel::modelPassesTester()
{
    SpecItemModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSpec(spec_);
    // links > wan > latency: three levels, the leaf in the value column.
    const QModelIndex latency = model.indexOfKey("links.wan.latency");
    QVERIFY(latency.isValid());
    QCOMPARE(latency.column(), int(SpecItemModel::ValueColumn));
    QCOMPARE(latency.data().toString(), QStringLiteral("10ms"));
    QCOMPARE(latency.parent().data().toString(), QStringLiteral("wan"));
    QCOMPARE(latency.parent().parent().data().toString(), QStringLiteral("links"));
    QVERIFY(!latency.parent().parent().parent().isValid());
    QVERIFY(latency.flags() & Qt::ItemIsEditable);
    QVERIFY(!(latency.siblingAtColumn(SpecItemModel::KeyColumn).flags() & Qt::ItemIsEditable));
    // Edits that keep the rows, add a row, undo and reset.
    QVERIFY(model.setValue("links.wan.latency", "20ms"));
    QVERIFY(model.setValue("packet_size", "8KiB"));
    model.undoStack()->undo();
    model.undoStack()->redo();
    model.resetAll();
    model.setSpec(
        netsim::NetworkSpec::fromFile(bundledSpec(QStringLiteral("ib-switch.yaml")).toStdString()),
        {{"links.hdr.latency", "1us"}});
}

void TestWhatIfPanel::editChangesOnlyTheCopy()
{
    SpecItemModel model;
    model.setSpec(spec_);
    QSignalSpy changed(&model, &SpecItemModel::editedChanged);
    const QModelIndex latency = model.indexOfKey("links.wan.latency");
    // As the tree's delegate does it.
    QVERIFY(model.setData(latency, QStringLiteral("20ms"), Qt::EditRole));
    QCOMPARE(model.edited().link("wan")->latencyNs, 2e7);
    QCOMPARE(model.fileSpec().link("wan")->latencyNs, 1e7);
    QCOMPARE(model.overrides(), (std::vector<netsim::SpecOverride>{{"links.wan.latency", "20ms"}}));
    QCOMPARE(changed.count(), 1);
    checkFileUntouched();

    const QModelIndex shown = model.indexOfKey("links.wan.latency");
    QCOMPARE(shown.data().toString(), QStringLiteral("20ms"));
    QVERIFY(shown.data(Qt::FontRole).value<QFont>().bold());
    QCOMPARE(shown.data(Qt::ToolTipRole).toString(), QStringLiteral("edited; in file: 10ms"));
    QCOMPARE(shown.siblingAtColumn(SpecItemModel::FileValueColumn).data().toString(),
             QStringLiteral("10ms"));
    QVERIFY(!model.indexOfKey("links.wan.bandwidth").data(Qt::FontRole).value<QFont>().bold());

    QCOMPARE(model.undoStack()->count(), 1);
    model.undoStack()->undo();
    QCOMPARE(model.edited().link("wan")->latencyNs, 1e7);
    QVERIFY(model.overrides().empty());
    model.undoStack()->redo();
    QCOMPARE(model.edited().link("wan")->latencyNs, 2e7);
    QCOMPARE(changed.count(), 3);
    checkFileUntouched();
}

void TestWhatIfPanel::badEditIsRejected()
{
    SpecItemModel model;
    model.setSpec(spec_);
    QVERIFY(model.setValue("links.wan.latency", "20ms"));
    const netsim::NetworkSpec before = model.edited();
    QSignalSpy rejected(&model, &SpecItemModel::editRejected);
    QSignalSpy changed(&model, &SpecItemModel::editedChanged);
    QString error;
    QVERIFY(!model.setValue("links.wan.latency", "fast", &error));
    QVERIFY2(error.contains(QStringLiteral("links.wan.latency")), qPrintable(error));
    QCOMPARE(rejected.count(), 1);
    QCOMPARE(rejected.at(0).at(0).toString(), error);
    QCOMPARE(changed.count(), 0);
    QVERIFY(model.edited() == before);
    QCOMPARE(model.undoStack()->count(), 1);
    // Through setData too: the view keeps the old value.
    QVERIFY(!model.setData(model.indexOfKey("links.wan.latency"), QStringLiteral("fast")));
    QCOMPARE(model.indexOfKey("links.wan.latency").data().toString(), QStringLiteral("20ms"));
    QCOMPARE(rejected.count(), 2);
    // A key path that does not exist.
    QVERIFY(!model.setValue("links.lan.latency", "1us", &error));
    QVERIFY2(error.contains(QStringLiteral("links.lan")), qPrintable(error));
}

void TestWhatIfPanel::newKeyBecomesARow()
{
    // The file has no packet_size: the edit adds it (4096 by default, 8KiB = 8192 bytes).
    SpecItemModel model;
    model.setSpec(spec_);
    QVERIFY(!model.indexOfKey("packet_size").isValid());
    QCOMPARE(spec_.packetBytes, uint64_t(4096));
    QVERIFY(model.setValue("packet_size", "8KiB"));
    QCOMPARE(model.edited().packetBytes, uint64_t(8192));
    const QModelIndex row = model.indexOfKey("packet_size");
    QVERIFY(row.isValid());
    QCOMPARE(row.data().toString(), QStringLiteral("8KiB"));
    QCOMPARE(row.data(Qt::ToolTipRole).toString(), QStringLiteral("edited; not in the file"));
    QCOMPARE(row.siblingAtColumn(SpecItemModel::FileValueColumn).data().toString(),
             QStringLiteral("—"));
    model.undoStack()->undo();
    QVERIFY(!model.indexOfKey("packet_size").isValid());
}

void TestWhatIfPanel::fileValueDropsTheEdit()
{
    SpecItemModel model;
    model.setSpec(spec_, {{"links.wan.latency", "20ms"}});
    QCOMPARE(model.edited().link("wan")->latencyNs, 2e7);
    QCOMPARE(model.undoStack()->count(), 0);
    // Setting the file's value again is no edit any more; the same value twice is no step.
    QVERIFY(model.setValue("links.wan.latency", "10ms"));
    QVERIFY(model.overrides().empty());
    QVERIFY(!model.isEdited("links.wan.latency"));
    QVERIFY(model.setValue("links.wan.latency", "10ms"));
    QCOMPARE(model.undoStack()->count(), 1);
    model.undoStack()->undo();
    QCOMPARE(model.edited().link("wan")->latencyNs, 2e7);
}

void TestWhatIfPanel::resetAllIsOneUndoStep()
{
    SpecItemModel model;
    model.setSpec(spec_);
    QVERIFY(model.setValue("links.wan.latency", "20ms"));
    QVERIFY(model.setValue("wide_area_streams", "4"));
    QCOMPARE(model.edited().wideAreaStreams, 4u);
    model.resetKey("wide_area_streams");
    QCOMPARE(model.edited().wideAreaStreams, 2u);
    QCOMPARE(model.edited().link("wan")->latencyNs, 2e7);
    model.undoStack()->undo();
    QCOMPARE(model.edited().wideAreaStreams, 4u);
    model.resetAll();
    QVERIFY(model.overrides().empty());
    QCOMPARE(model.edited().link("wan")->latencyNs, 1e7);
    QCOMPARE(model.edited().wideAreaStreams, 2u);
    model.undoStack()->undo();
    QCOMPARE(model.overrides().size(), size_t(2));
    QCOMPARE(model.edited().wideAreaStreams, 4u);
    QCOMPARE(model.edited().link("wan")->latencyNs, 2e7);
}

void TestWhatIfPanel::panelControlsEditTheScenario()
{
    WhatIfPanel panel;
    panel.resize(440, 900);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setSpec(spec_);

    auto* eager = child<QLineEdit>(panel, "eagerLimit");
    eager->setFocus();
    QTest::keyClicks(eager, QStringLiteral("4KiB"));
    QTest::keyClick(eager, Qt::Key_Return);
    QCOMPARE(panel.editedSpec().eagerLimit, uint64_t(4096));
    QCOMPARE(panel.scenario().overrides,
             (std::vector<netsim::SpecOverride>{{"eager_limit", "4KiB"}}));
    // The tree shows the same edit.
    QCOMPARE(panel.specModel()->indexOfKey("eager_limit").data().toString(),
             QStringLiteral("4KiB"));

    auto* bcast = child<QComboBox>(panel, "collective.bcast");
    QCOMPARE(bcast->itemText(0), QStringLiteral("(spec default: van_de_geijn)"));
    QVERIFY(panel.scenario().collectives.empty());
    bcast->setCurrentIndex(bcast->findData(QStringLiteral("binomial")));
    const auto collectives = panel.scenario().collectives;
    QCOMPARE(collectives.size(), size_t(1));
    QCOMPARE(collectives[0].first, std::string("bcast"));
    QCOMPARE(collectives[0].second, std::string("binomial"));

    QCOMPARE(panel.scenario().cpuFactor, 1.0);
    child<QDoubleSpinBox>(panel, "cpuFactor")->setValue(2);
    QCOMPARE(panel.scenario().cpuFactor, 2.0);

    // Clearing the eager limit goes back to the file's 64KiB.
    eager->clear();
    QTest::keyClick(eager, Qt::Key_Return);
    QCOMPARE(panel.editedSpec().eagerLimit, uint64_t(64 * 1024));
    QVERIFY(panel.scenario().overrides.empty());
    checkFileUntouched();
}

void TestWhatIfPanel::badEagerLimitShowsTheError()
{
    WhatIfPanel panel;
    panel.setSpec(spec_);
    auto* eager = child<QLineEdit>(panel, "eagerLimit");
    eager->setText(QStringLiteral("lots"));
    emit eager->editingFinished();
    QCOMPARE(panel.editedSpec().eagerLimit, uint64_t(64 * 1024));
    auto* error = child<QLabel>(panel, "specEditError");
    QVERIFY2(error->text().contains(QStringLiteral("eager_limit")), qPrintable(error->text()));
    QVERIFY(!error->isHidden());
    QCOMPARE(eager->text(), QStringLiteral("lots")); // left for the user to fix
    eager->setText(QStringLiteral("8KiB"));
    emit eager->editingFinished();
    QCOMPARE(panel.editedSpec().eagerLimit, uint64_t(8192));
    QVERIFY(error->isHidden());
}

void TestWhatIfPanel::runNeedsABaseline()
{
    WhatIfPanel panel;
    panel.setOpenTraces(
        {{QStringLiteral("cg.C.64"), QStringLiteral("/traces/cg64/traces.otf2"), 64},
         {QStringLiteral("cg.C.16"), QStringLiteral("/traces/cg16/traces.otf2"), 16}});
    panel.setSpec(spec_);
    QVERIFY(panel.specModel()->setValue("links.wan.latency", "20ms"));
    QSignalSpy runs(&panel, &WhatIfPanel::runRequested);
    whatif::Scenario ran;
    netsim::NetworkSpec ranOn;
    connect(&panel, &WhatIfPanel::runRequested, this,
            [&](const whatif::Scenario& s, const netsim::NetworkSpec& spec) {
                ran = s;
                ranOn = spec;
            });
    auto* run = child<QPushButton>(panel, "run");
    run->click();
    QCOMPARE(runs.count(), 0);
    QVERIFY2(panel.message().contains(QStringLiteral("baseline")), qPrintable(panel.message()));

    auto* baselines = child<QListWidget>(panel, "baselines");
    QCOMPARE(baselines->count(), 2);
    QCOMPARE(baselines->item(1)->text(), QStringLiteral("cg.C.16 (16 ranks)"));
    baselines->item(1)->setCheckState(Qt::Checked);
    run->click();
    QCOMPARE(runs.count(), 1);
    QVERIFY(panel.message().isEmpty());
    QCOMPARE(ran.kind, whatif::ScenarioKind::Replay);
    QCOMPARE(ran.baselines, std::vector<std::string>{"/traces/cg16/traces.otf2"});
    QCOMPARE(ran.network, path_.toStdString());
    QCOMPARE(ran.overrides, (std::vector<netsim::SpecOverride>{{"links.wan.latency", "20ms"}}));
    QCOMPARE(ranOn.link("wan")->latencyNs, 2e7);
    QCOMPARE(ranOn.source, path_.toStdString());

    // A replay has one baseline: checking another moves the check.
    baselines->item(0)->setCheckState(Qt::Checked);
    QCOMPARE(baselines->item(1)->checkState(), Qt::Unchecked);
    QCOMPARE(panel.scenario().baselines, std::vector<std::string>{"/traces/cg64/traces.otf2"});

    // While running, Run is disabled and Cancel asks to stop.
    QSignalSpy cancels(&panel, &WhatIfPanel::cancelRequested);
    panel.setRunning(true, QStringLiteral("Replaying"));
    QVERIFY(!run->isEnabled());
    QVERIFY(!child<QPushButton>(panel, "sweep")->isEnabled());
    child<QPushButton>(panel, "cancel")->click();
    QCOMPARE(cancels.count(), 1);
    panel.setRunning(false);
    QVERIFY(run->isEnabled());
    QVERIFY(!child<QPushButton>(panel, "cancel")->isEnabled());
}

void TestWhatIfPanel::scenarioRoundTrips()
{
    WhatIfPanel panel;
    panel.setOpenTraces({{QStringLiteral("a"), QStringLiteral("/t/a.otf2"), 4},
                         {QStringLiteral("b"), QStringLiteral("/t/b.otf2"), 16},
                         {QStringLiteral("c"), QStringLiteral("/t/c.otf2"), 64},
                         {QStringLiteral("d"), QStringLiteral("/t/d.otf2"), 256}});
    whatif::Scenario s;
    s.name = "wan at 20ms, 256 ranks";
    s.kind = whatif::ScenarioKind::Scale;
    s.baselines = {"/t/c.otf2", "/t/a.otf2", "/t/b.otf2"};
    s.compareWith = "/t/d.otf2";
    s.network = path_.toStdString();
    s.overrides = {{"links.wan.latency", "20ms"}, {"eager_limit", "4KiB"}};
    s.model = "flow";
    s.collectives = {{"bcast", "binomial"}, {"allreduce", "ring"}}; // in CollKind order
    s.cpuFactor = 2.5;
    s.target = 256;
    s.method = "classic";
    s.seed = 42;
    s.sweepParam = "links.wan.bandwidth";
    s.sweepValues = {"1Gbps", "40Gbps"};
    QVERIFY(whatif::validate(s).empty());

    panel.setScenario(s, spec_);
    const whatif::Scenario back = panel.scenario();
    QCOMPARE(back.name, s.name);
    QCOMPARE(back.kind, s.kind);
    QCOMPARE(back.baselines, s.baselines);
    QCOMPARE(back.compareWith, s.compareWith);
    QCOMPARE(back.network, s.network);
    QCOMPARE(back.overrides, s.overrides);
    QCOMPARE(back.model, s.model);
    QCOMPARE(back.collectives, s.collectives);
    QCOMPARE(back.cpuFactor, s.cpuFactor);
    QCOMPARE(back.target, s.target);
    QCOMPARE(back.method, s.method);
    QCOMPARE(back.seed, s.seed);
    QCOMPARE(back.sweepParam, s.sweepParam);
    QCOMPARE(back.sweepValues, s.sweepValues);
    QVERIFY(back == s);
    QCOMPARE(panel.editedSpec().link("wan")->latencyNs, 2e7);
    QCOMPARE(panel.editedSpec().eagerLimit, uint64_t(4096));
    QVERIFY(panel.message().isEmpty());

    // A baseline that is not open is kept (marked), so the scenario still round-trips.
    whatif::Scenario replay;
    replay.name = "replay";
    replay.baselines = {"/elsewhere/x.otf2"};
    replay.network = s.network;
    panel.setScenario(replay, spec_);
    QVERIFY(panel.scenario() == replay);
    QVERIFY(panel.specModel()->overrides().empty());

    // The saved list: names, describe() as tooltip; Load asks for the row.
    panel.setScenarios({s, replay});
    auto* list = child<QListWidget>(panel, "scenarioList");
    QCOMPARE(list->count(), 2);
    QCOMPARE(list->item(0)->text(), QString::fromStdString(s.name));
    QCOMPARE(list->item(0)->toolTip(), QString::fromStdString(whatif::describe(s)));
    QSignalSpy activated(&panel, &WhatIfPanel::scenarioActivated);
    list->setCurrentRow(1);
    child<QPushButton>(panel, "loadScenario")->click();
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toInt(), 1);
}

void TestWhatIfPanel::sweepNeedsValues()
{
    WhatIfPanel panel;
    panel.setOpenTraces({{QStringLiteral("a"), QStringLiteral("/t/a.otf2"), 4}});
    panel.setSpec(spec_);
    child<QListWidget>(panel, "baselines")->item(0)->setCheckState(Qt::Checked);
    QSignalSpy sweeps(&panel, &WhatIfPanel::sweepRequested);
    whatif::Scenario swept;
    connect(&panel, &WhatIfPanel::sweepRequested, this,
            [&](const whatif::Scenario& s, const netsim::NetworkSpec&) { swept = s; });
    child<QComboBox>(panel, "sweepParam")->setCurrentText(QStringLiteral("links.wan.latency"));
    auto* sweep = child<QPushButton>(panel, "sweep");
    sweep->click();
    QCOMPARE(sweeps.count(), 0);
    QVERIFY(!panel.message().isEmpty());

    auto* values = child<QLineEdit>(panel, "sweepValues");
    values->setText(QStringLiteral("1ms,slow"));
    sweep->click();
    QCOMPARE(sweeps.count(), 0);
    QVERIFY2(panel.message().contains(QStringLiteral("slow")), qPrintable(panel.message()));

    values->setText(QStringLiteral("1ms, 5ms"));
    sweep->click();
    QCOMPARE(sweeps.count(), 1);
    QCOMPARE(swept.sweepParam, std::string("links.wan.latency"));
    QCOMPARE(swept.sweepValues, (std::vector<std::string>{"1ms", "5ms"}));
}

void TestWhatIfPanel::specChoiceAsksTheApp()
{
    WhatIfPanel panel;
    const QString fatTree = bundledSpec(QStringLiteral("fat-tree.yaml"));
    panel.setBundledSpecs({fatTree, path_});
    panel.setSpec(spec_);
    auto* combo = child<QComboBox>(panel, "specCombo");
    QCOMPARE(combo->currentData().toString(), path_);
    QSignalSpy requested(&panel, &WhatIfPanel::specFileRequested);
    const int fatIndex = combo->findData(fatTree);
    combo->setCurrentIndex(fatIndex);
    emit combo->activated(fatIndex); // as a user's choice does
    QCOMPARE(requested.count(), 1);
    QCOMPARE(requested.at(0).at(0).toString(), fatTree);

    // The app could not read it: the old spec stays, the message shows.
    panel.setSpecError(QStringLiteral("fat-tree.yaml:3: nodes: expected a number"));
    auto* error = child<QLabel>(panel, "specError");
    QVERIFY(!error->isHidden());
    QCOMPARE(combo->currentData().toString(), path_);
    QCOMPARE(panel.scenario().network, path_.toStdString());
    QCOMPARE(panel.editedSpec().name, std::string("two-clusters-wan"));
}

void TestWhatIfPanel::targetPresetsUseTheLargestBaseline()
{
    WhatIfPanel panel;
    panel.setOpenTraces({{QStringLiteral("a"), QStringLiteral("/t/a.otf2"), 16},
                         {QStringLiteral("b"), QStringLiteral("/t/b.otf2"), 64},
                         {QStringLiteral("c"), QStringLiteral("/t/c.otf2"), 32}});
    auto* target = child<QSpinBox>(panel, "target");
    QVERIFY(!target->isEnabled()); // a replay has no target
    child<QComboBox>(panel, "kind")->setCurrentIndex(1);
    QVERIFY(target->isEnabled());
    auto* baselines = child<QListWidget>(panel, "baselines");
    for (int i = 0; i < 3; ++i)
        baselines->item(i)->setCheckState(Qt::Checked);
    QCOMPARE(target->value(), 128); // until edited: twice the largest (64)

    QMenu* menu = child<QToolButton>(panel, "targetPresets")->menu();
    QVERIFY(menu);
    emit menu->aboutToShow();
    QAction* times4 = nullptr;
    for (QAction* a : menu->actions())
        if (a->text() == QStringLiteral("×4 of the largest baseline (256 ranks)")) times4 = a;
    QVERIFY(times4);
    times4->trigger();
    QCOMPARE(target->value(), 256);
    QCOMPARE(panel.scenario().target, 256u);
    // Chosen by hand now: unchecking a baseline keeps it.
    baselines->item(1)->setCheckState(Qt::Unchecked);
    QCOMPARE(target->value(), 256);
    QCOMPARE(panel.scenario().baselines, (std::vector<std::string>{"/t/a.otf2", "/t/c.otf2"}));
}

void TestWhatIfPanel::treeEditsThroughTheDelegate()
{
    WhatIfPanel panel;
    panel.resize(440, 900);
    panel.show();
    panel.activateWindow(); // shortcuts need the active window
    QVERIFY(QTest::qWaitForWindowActive(&panel));
    panel.setSpec(spec_);
    child<QToolBox>(panel, "sections")->setCurrentIndex(1); // Network: the tree must be visible
    auto* tree = child<QTreeView>(panel, "specTree");
    tree->setFocus();

    // A plain value: a line edit.
    const QModelIndex latency = panel.specModel()->indexOfKey("links.wan.latency");
    tree->setCurrentIndex(latency);
    tree->edit(latency);
    auto* line = qobject_cast<QLineEdit*>(QApplication::focusWidget());
    QVERIFY(line);
    line->selectAll();
    QTest::keyClicks(line, QStringLiteral("20ms"));
    QTest::keyClick(line, Qt::Key_Return); // the delegate commits from the event loop
    QTRY_COMPARE(panel.editedSpec().link("wan")->latencyNs, 2e7);

    // A rejected value leaves the spec as it was and shows the reader's message.
    tree->edit(latency);
    line = qobject_cast<QLineEdit*>(QApplication::focusWidget());
    QVERIFY(line);
    line->selectAll();
    QTest::keyClicks(line, QStringLiteral("soon"));
    QTest::keyClick(line, Qt::Key_Return);
    auto* error = child<QLabel>(panel, "specEditError");
    QTRY_VERIFY(!error->isHidden());
    QVERIFY2(error->text().contains(QStringLiteral("links.wan.latency")),
             qPrintable(error->text()));
    QCOMPARE(panel.editedSpec().link("wan")->latencyNs, 2e7);
    QCOMPARE(latency.data().toString(), QStringLiteral("20ms"));

    // A key with known values (the algorithms of bcast): a combo.
    const QModelIndex bcast = panel.specModel()->indexOfKey("collectives.bcast");
    tree->setCurrentIndex(bcast);
    tree->edit(bcast);
    auto* combo = qobject_cast<QComboBox*>(QApplication::focusWidget());
    if (!combo && QApplication::focusWidget())
        combo = qobject_cast<QComboBox*>(QApplication::focusWidget()->parentWidget());
    QVERIFY(combo);
    QVERIFY(combo->findText(QStringLiteral("binomial")) >= 0);
    combo->setCurrentIndex(combo->findText(QStringLiteral("binomial"))); // as a click in its list
    emit combo->activated(combo->currentIndex());
    QCOMPARE(panel.editedSpec().collectiveAlgorithm("bcast"), std::string("binomial"));
    QCOMPARE(child<QComboBox>(panel, "collective.bcast")->itemText(0),
             QStringLiteral("(spec default: binomial)"));

    // Ctrl+Z in the tree undoes the last accepted edit.
    tree->setFocus();
    QCOMPARE(QApplication::focusWidget(), tree);
    QTest::keyClick(tree, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(panel.editedSpec().collectiveAlgorithm("bcast"), std::string("van_de_geijn"));
    QCOMPARE(panel.editedSpec().link("wan")->latencyNs, 2e7);
}

QTEST_MAIN(TestWhatIfPanel)
#include "tst_whatifpanel.moc"
