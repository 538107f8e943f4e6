// Bookmarks of time ranges: the session file's `bookmarks` key (round trip, relative paths, a
// malformed entry skipped with a warning naming file, line and key while the rest loads), and
// in a real window: Ctrl+B bookmarks the visible range, the Bookmarks panel renames (F2),
// deletes (Del) and jumps (Enter, double-click) with Back returning, typing in the panel fires no
// single-key shortcut, Ctrl+Z / Ctrl+Shift+Z in the panel undo
// and redo, the Bookmarks menu jumps, and a saved session brings the bookmarks back.
//
// Expectations by hand: a bookmark holds exactly the range the view showed when it was made
// (the ranges below are whole nanoseconds, which TimeMapping keeps exactly); the session text in
// malformedEntriesAreSkipped has its bad entries on lines 7-10 and 12, counted in the text.

#include "app/bookmarkcontroller.h"
#include "app/bookmarkpanel.h"
#include "app/helpdialogs.h"
#include "app/mainactions.h"
#include "app/mainwindow.h"
#include "app/session.h"
#include "app/shortcutfallback.h"
#include "app/tracedocument.h"
#include "testsupport/modalanswer.h"
#include "views/timeline/overviewstrip.h"
#include "views/timeline/timelineview.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>
#include <QUndoStack>
#include <cmath>
#include <set>

using namespace rankscope;

namespace {

QString casita()
{
    return QStringLiteral(RANKSCOPE_SOURCE_DIR
                          "/resources/demo/traces/casita-mpi-late-sender-barrier-4r");
}

std::pair<double, double> visible(const TraceDocument* doc)
{
    return {doc->timeline()->mapping().begin(), doc->timeline()->mapping().end()};
}

/// Two whole-ns ranges inside the fitted view: its second quarter and its third quarter.
std::pair<Bookmark, Bookmark> quarters(const TraceDocument* doc)
{
    const auto [b, e] = visible(doc);
    const double q = (e - b) / 4;
    return {{"Bookmark 1", std::round(b + q), std::round(b + 2 * q)},
            {"Bookmark 2", std::round(b + 2 * q), std::round(b + 3 * q)}};
}

/// F2 on the list's current bookmark, `name` typed over the old one, then Enter: as a user
/// renames in place.
void renameWithF2(QTreeWidget* list, const char* name)
{
    QTest::keyClick(list, Qt::Key_F2);
    auto* editor = qobject_cast<QLineEdit*>(QApplication::focusWidget());
    QVERIFY(editor);
    editor->selectAll();
    QTest::keyClicks(editor, name);
    QTest::keyClick(editor, Qt::Key_Return);
}

struct Window
{
    MainWindow w;
    TraceDocument* doc = nullptr;
    bool open(const QString& trace)
    {
        w.setInteractive(false);
        w.resize(1400, 900);
        w.show();
        if (!QTest::qWaitForWindowActive(&w)) return false;
        QSignalSpy opened(&w, &MainWindow::traceOpened);
        w.openTrace(trace);
        if (!opened.wait(30000)) return false;
        doc = w.document(0);
        return doc != nullptr;
    }
    void setRange(const Bookmark& b) { doc->timeline()->setVisibleRange(b.begin, b.end); }
};

} // namespace

class TestBookmarks : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("RankscopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_bookmarks"));
    }

    void sessionRoundTrip()
    {
        Session s;
        s.traces = {"/d/runs/a", "/d/runs/b"};
        s.bookmarks["/d/runs/a"] = {{"first exchange", 1.5e8, 2.25e8}, {"all", 0, 1e9}};
        s.bookmarks["/d/runs/b"] = {{"name: with \"quotes\" & #", 12.5, 13}};
        const std::string text = s.toYaml("/d");
        QVERIFY(text.find("bookmarks:") != std::string::npos);
        QVERIFY(text.find("runs/a:") != std::string::npos); // relative to the session's folder
        QVERIFY(text.find("/d/runs") == std::string::npos);
        const Session back = Session::parse(text, "s.rsession", "/d");
        QVERIFY(back.warnings.empty());
        QVERIFY(back.bookmarks == s.bookmarks);
        QVERIFY(back == s);
    }

    void malformedEntriesAreSkipped()
    {
        const std::string text = "rankscope_session: 1\n"                 // 1
                                 "traces: [runs/a]\n"                     // 2
                                 "view: {ranges: {runs/a: [100, 900]}}\n" // 3
                                 "bookmarks:\n"                           // 4
                                 "  runs/a:\n"                            // 5
                                 "    - {name: first exchange, begin: 1.5e8, end: 2.25e8}\n"
                                 "    - {name: no end, begin: 10}\n"                // 7
                                 "    - {name: backwards, begin: 50, end: 40}\n"    // 8
                                 "    - just a string\n"                            // 9
                                 "    - {name: x, begin: 1, end: 2, colour: red}\n" // 10
                                 "    - {name: last, begin: 0, end: 1000}\n"        // 11
                                 "  runs/b: 7\n";                                   // 12
        const Session s = Session::parse(text, "s.rsession", "/d");
        QCOMPARE(s.traces, std::vector<std::string>{"/d/runs/a"});
        QCOMPARE(s.view.ranges.at("/d/runs/a"), std::make_pair(100.0, 900.0));
        const std::vector<Bookmark> good{{"first exchange", 1.5e8, 2.25e8}, {"last", 0, 1000}};
        QCOMPARE(s.bookmarks.size(), size_t(1));
        QVERIFY(s.bookmarks.at("/d/runs/a") == good);
        const std::vector<std::string> expected{
            "s.rsession:7: bookmarks.runs/a[1]: expected a time in ns for 'end'; bookmark skipped",
            "s.rsession:8: bookmarks.runs/a[2]: the end must be after the begin; bookmark skipped",
            "s.rsession:9: bookmarks.runs/a[3]: expected {name: ..., begin: ns, end: ns}; "
            "bookmark skipped",
            "s.rsession:10: bookmarks.runs/a[4]: unknown key 'colour'; bookmark skipped",
            "s.rsession:12: bookmarks.runs/b: expected a list of {name: ..., begin: ns, end: ns}; "
            "bookmark skipped"};
        QCOMPARE(s.warnings, expected);

        // A `bookmarks` that is no map at all: one warning, the rest stays.
        const Session t = Session::parse("rankscope_session: 1\ntraces: [a]\nbookmarks: [1, 2]\n",
                                         "t.rsession", "/d");
        QCOMPARE(t.traces, std::vector<std::string>{"/d/a"});
        QCOMPARE(t.warnings,
                 std::vector<std::string>{"t.rsession:3: bookmarks: expected trace: [bookmarks]; "
                                          "bookmarks skipped"});
    }

    void ctrlBAndThePanel()
    {
        Window win;
        QVERIFY(win.open(casita()));
        TraceDocument* doc = win.doc;
        BookmarkController* c = win.w.bookmarks();
        const std::pair<double, double> fitted = visible(doc);
        const auto [first, second] = quarters(doc);

        win.setRange(first);
        QCOMPARE(visible(doc), std::make_pair(first.begin, first.end));
        QTest::keyClick(doc->timeline(), Qt::Key_B, Qt::ControlModifier);
        win.setRange(second);
        QTest::keyClick(doc->timeline(), Qt::Key_B, Qt::ControlModifier);
        QVERIFY(doc->bookmarks() == std::vector<Bookmark>({first, second}));

        // The panel lists them; Ctrl+Shift+B shows it.
        QTest::keyClick(doc->timeline(), Qt::Key_B, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(c->dock()->isVisible());
        QVERIFY(win.w.actions()->bookmarksPanel()->isChecked());
        QTreeWidget* list = c->panel()->list();
        QCOMPARE(list->topLevelItemCount(), 2);
        QCOMPARE(list->topLevelItem(1)->text(0), QString("Bookmark 2"));

        // Fit, then Enter on the first bookmark jumps there; Alt+Left returns to the fit.
        doc->timeline()->fitToWindow();
        QCOMPARE(visible(doc), fitted);
        list->setFocus();
        c->panel()->setCurrentIndex(0);
        QTest::keyClick(list, Qt::Key_Return);
        QCOMPARE(visible(doc), std::make_pair(first.begin, first.end));
        QTest::keyClick(doc->timeline(), Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(visible(doc), fitted);

        // F2 renames in place.
        list->setFocus();
        c->panel()->setCurrentIndex(0);
        renameWithF2(list, "late sender");
        if (QTest::currentTestFailed()) return;
        // The delegate commits on the next turn of the event loop.
        QTRY_COMPARE(doc->bookmarks()[0].name, std::string("late sender"));
        QCOMPARE(list->topLevelItem(0)->text(0), QString("late sender"));
        // An empty name is refused; the old one stays.
        QVERIFY(!c->rename(doc, 0, "   "));
        QCOMPARE(doc->bookmarks()[0].name, std::string("late sender"));

        // Del deletes without asking; Ctrl+Z in the panel brings it back, twice undoes the rename.
        list->setFocus();
        c->panel()->setCurrentIndex(1);
        QTest::keyClick(list, Qt::Key_Delete);
        QCOMPARE(doc->bookmarks().size(), size_t(1));
        QCOMPARE(list->topLevelItemCount(), 1);
        QTest::keyClick(list, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(doc->bookmarks()[1] == second);
        QTest::keyClick(list, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(doc->bookmarks()[0].name, std::string("Bookmark 1"));
        QTest::keyClick(list, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(doc->bookmarks()[0].name, std::string("late sender"));
        QCOMPARE(c->undoStack()->count(), 4); // add, add, rename, delete

        // A new bookmark is numbered one past the highest "Bookmark N".
        QCOMPARE(c->addVisibleRange(doc), 2);
        QCOMPARE(doc->bookmarks()[2].name, std::string("Bookmark 3"));

        // The Bookmarks menu lists them and jumps.
        QMenu* menu = win.w.actions()->bookmarksMenu();
        emit menu->aboutToShow();
        QAction* jumpSecond = nullptr;
        for (QAction* a : menu->actions())
            if (a->text().startsWith("Bookmark 2\t")) jumpSecond = a;
        QVERIFY(jumpSecond);
        jumpSecond->trigger();
        QCOMPARE(visible(doc), std::make_pair(second.begin, second.end));

        // The overview strip draws them; a click on one there jumps to it, one step of Back
        // (Bookmark 3, the whole fitted run, lies under the narrower first one).
        OverviewStrip* strip = doc->overview();
        QCOMPARE(strip->marks().size(), size_t(3));
        QCOMPARE(strip->marks()[0].name, QString("late sender"));
        QCOMPARE(strip->marks()[1].begin, second.begin);
        doc->timeline()->fitToWindow();
        const auto [a, b] = strip->markPixels(0);
        QTest::mouseClick(strip, Qt::LeftButton, {}, QPoint((a + b) / 2, 4));
        QCOMPARE(visible(doc), std::make_pair(first.begin, first.end));
        QTest::keyClick(doc->timeline(), Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(visible(doc), fitted);
    }

    void typingInThePanelFiresNoShortcut()
    {
        // Activating a bookmark jumps there and leaves the focus in the list, so F2 and
        // "smoother" rename it; M (messages) and R (order ranks by MPI time) in the name fire
        // nothing, nor do they with the list itself focused. On the timeline M still toggles
        // the messages.
        Window win;
        QVERIFY(win.open(casita()));
        TraceDocument* doc = win.doc;
        BookmarkController* c = win.w.bookmarks();
        MainActions* a = win.w.actions();
        const auto [first, second] = quarters(doc);
        win.setRange(first);
        QTest::keyClick(doc->timeline(), Qt::Key_B, Qt::ControlModifier);
        doc->timeline()->fitToWindow();
        QTest::keyClick(doc->timeline(), Qt::Key_B, Qt::ControlModifier | Qt::ShiftModifier);
        QTreeWidget* list = c->panel()->list();
        QCOMPARE(list->topLevelItemCount(), 1);
        QVERIFY(a->showMessages()->isChecked());
        QVERIFY(!a->orderByMpiTime()->isChecked());

        // Activation (Enter here; a double-click emits the same itemActivated): QTest's click
        // before its double-click would also start the delayed rename of a selected item.
        list->setFocus();
        c->panel()->setCurrentIndex(0);
        QTest::keyClick(list, Qt::Key_Return);
        QCOMPARE(visible(doc), std::make_pair(first.begin, first.end));
        QCOMPARE(QApplication::focusWidget(), list);

        QTest::keyClick(list, Qt::Key_M);
        QTest::keyClick(list, Qt::Key_R);
        QVERIFY(a->showMessages()->isChecked());
        QVERIFY(!a->orderByMpiTime()->isChecked());

        const int panelWidth = c->panel()->sizeHint().width();
        renameWithF2(list, "smoother");
        if (QTest::currentTestFailed()) return;
        QTRY_COMPARE(QString::fromStdString(doc->bookmarks()[0].name), QString("smoother"));
        QVERIFY(a->showMessages()->isChecked());
        QVERIFY(!a->orderByMpiTime()->isChecked());
        // The Undo button keeps its text (the step is in its tooltip): the dock does not widen.
        auto* undoButton = c->panel()->findChild<QToolButton*>(QStringLiteral("bookmarkUndo"));
        QVERIFY(undoButton);
        QCOMPARE(undoButton->text(), QString("Undo"));
        QVERIFY2(undoButton->toolTip().contains(QLatin1String("smoother")),
                 qPrintable(undoButton->toolTip()));
        QCOMPARE(c->panel()->sizeHint().width(), panelWidth);

        doc->timeline()->setFocus();
        QTest::keyClick(doc->timeline(), Qt::Key_M);
        QVERIFY(!a->showMessages()->isChecked());
        QTest::keyClick(doc->timeline(), Qt::Key_M);
        QVERIFY(a->showMessages()->isChecked());
    }

    void noTwoActionsShareAKey()
    {
        MainWindow w;
        std::set<QString> seen;
        for (const QAction* a : w.actions()->allActions())
            for (const QKeySequence& k : a->shortcuts())
                QVERIFY2(seen.insert(k.toString()).second, qPrintable(k.toString()));
        QKeyEvent ctrlB(QEvent::KeyPress, Qt::Key_B, Qt::ControlModifier);
        w.actions()->addBookmark()->setEnabled(true);
        QCOMPARE(ShortcutFallback::match(w.actions()->allActions(), ctrlB),
                 w.actions()->addBookmark());
        // The Help sheet lists the new keys.
        const QString sheet = HelpDialogs::shortcutsHtml(w.actions());
        for (const char* entry : {"Add Bookmark", "Bookmarks Panel", "In the Bookmarks panel"})
            QVERIFY2(sheet.contains(entry), entry);
        QVERIFY(sheet.contains(
            QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B).toString(QKeySequence::NativeText)));
    }

    void sessionKeepsBookmarks()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("marks.rsession");
        std::vector<Bookmark> made;
        {
            Window win;
            QVERIFY(win.open(casita()));
            const auto [first, second] = quarters(win.doc);
            for (const Bookmark& b : {first, second}) {
                win.setRange(b);
                win.w.bookmarks()->addVisibleRange(win.doc);
            }
            QVERIFY(win.w.bookmarks()->rename(win.doc, 1, "barrier"));
            made = win.doc->bookmarks();
            QCOMPARE(win.w.sessions()->unsavedWork(),
                     QStringList{"Bookmarks of casita-mpi-late-sender-barrier-4r"});
            QVERIFY(win.w.saveSession(file));
            QVERIFY(win.w.sessions()->unsavedWork().isEmpty());
        }
        const Session onDisk = Session::load(file.toStdString());
        QCOMPARE(onDisk.bookmarks.size(), size_t(1));
        QVERIFY(onDisk.bookmarks.begin()->second == made);

        MainWindow back;
        back.setInteractive(false);
        QSignalSpy restored(&back, &MainWindow::sessionRestored);
        QSignalSpy errors(&back, &MainWindow::errorReported);
        QVERIFY(back.openSession(file));
        QVERIFY(restored.count() == 1 || restored.wait(60000));
        QCOMPARE(errors.count(), 0);
        QVERIFY(back.document(0));
        QVERIFY(back.document(0)->bookmarks() == made);
        QCOMPARE(back.bookmarks()->panel()->list()->topLevelItemCount(), 2);
        QCOMPARE(back.bookmarks()->panel()->list()->topLevelItem(1)->text(0), QString("barrier"));
        QVERIFY(back.sessions()->unsavedWork().isEmpty());
    }

    void closeTabAsksForUnsavedBookmarks()
    {
        QTemporaryDir dir;
        auto w = std::make_unique<MainWindow>(); // interactive: the question is asked
        w->show();
        QSignalSpy opened(w.get(), &MainWindow::traceOpened);
        w->openTrace(casita());
        QVERIFY(opened.wait(30000));
        BookmarkController* c = w->bookmarks();
        QCOMPARE(c->addVisibleRange(w->document(0)), 0);
        QCOMPARE(c->undoStack()->count(), 1);

        bool asked = false;
        rankscope::test::answerNextBox("closeTabBox", QMessageBox::Cancel, &asked);
        w->actions()->closeTab()->trigger();
        QVERIFY(asked);
        QCOMPARE(w->tabs()->count(), 1);

        // Saved: closing asks nothing, and the undo history of the closed trace goes with it.
        QVERIFY(w->saveSession(dir.filePath("s.rsession")));
        w->actions()->closeTab()->trigger();
        QCOMPARE(w->tabs()->count(), 0);
        QCOMPARE(c->undoStack()->count(), 0);
        QVERIFY(w->close());
    }

    void malformedBookmarkStillRestoresTheSession()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("bad.rsession");
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        const QByteArray trace = QFile::encodeName(casita());
        out.write("rankscope_session: 1\ntraces: [" + trace + "]\nview: {ranges: {" + trace +
                  ": [2000, 5000]}}\nbookmarks:\n  " + trace +
                  ":\n    - {name: kept, begin: 2500, end: 4000}\n"
                  "    - {name: broken, begin: later, end: 4000}\n");
        out.close();

        MainWindow w;
        w.setInteractive(false);
        QSignalSpy restored(&w, &MainWindow::sessionRestored);
        QSignalSpy errors(&w, &MainWindow::errorReported);
        QVERIFY(w.openSession(file));
        QVERIFY(restored.count() == 1 || restored.wait(60000));
        QCOMPARE(errors.count(), 1);
        QCOMPARE(errors[0][0].toString(), QString("Session partly restored"));
        const QString message = errors[0][1].toString();
        QVERIFY2(message.contains(file + ":7: bookmarks." + casita() +
                                  "[1]: expected a time in ns for 'begin'; bookmark skipped"),
                 qPrintable(message));
        QCOMPARE(w.tabs()->count(), 1);
        TraceDocument* doc = w.document(0);
        QVERIFY(doc);
        QVERIFY(doc->bookmarks() == std::vector<Bookmark>({{"kept", 2500, 4000}}));
        // The panel shows the range as its length and start, 4 significant digits each.
        QCOMPARE(w.bookmarks()->panel()->list()->topLevelItem(0)->text(1),
                 QString("1.500 us at 2.500 us"));
        QCOMPARE(visible(doc), std::make_pair(2000.0, 5000.0));
    }
};

QTEST_MAIN(TestBookmarks)
#include "tst_bookmarks.moc"
