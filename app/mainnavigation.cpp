#include "app/mainnavigation.h"

#include "app/helpdialogs.h"
#include "app/mainactions.h"
#include "app/mainwindow.h"
#include "app/tracedocument.h"
#include "views/panes/durationformat.h"
#include "views/timeline/ranklist.h"
#include "views/timeline/timelinefindbar.h"
#include "views/timeline/timelineview.h"
#include "views/whatif/comparisonview.h"
#include "whatif/netsim/units.h"

#include <QAction>
#include <QInputDialog>
#include <QStatusBar>
#include <QTabWidget>

namespace rankscope::MainNavigation {

namespace {

/// The timeline navigation acts on: the current trace tab's, or the focused one of a comparison.
TimelineView* currentTimeline(const MainWindow* w)
{
    const int i = w->tabs()->currentIndex();
    if (TraceDocument* doc = w->document(i)) return doc->timeline();
    if (ComparisonView* cmp = w->comparison(i))
        return cmp->timeline(1)->hasFocus() ? cmp->timeline(1) : cmp->timeline(0);
    return nullptr;
}

void find(MainWindow* w, bool forward)
{
    TraceDocument* doc = w->document(w->tabs()->currentIndex());
    if (!doc) return;
    doc->findBar()->findNext(forward);
}

void goToTime(MainWindow* w)
{
    TimelineView* view = currentTimeline(w);
    if (!view || !view->trace()) return;
    const double centre = (view->mapping().begin() + view->mapping().end()) / 2;
    QString text = formatTimestamp(int64_t(centre));
    while (true) {
        bool ok = false;
        text = QInputDialog::getText(w, QObject::tr("Go to Time"),
                                     QObject::tr("Time on the axis (e.g. 13.04975 s, 250 ms, "
                                                 "1500 us; a bare number is seconds):"),
                                     QLineEdit::Normal, text, &ok);
        if (!ok) return;
        if (const std::optional<double> ns = parseTime(text)) {
            view->goToTime(*ns);
            w->statusBar()->showMessage(
                QObject::tr("At %1").arg(formatTimestamp(int64_t(view->markedTime()))), 5000);
            return;
        }
        w->reportError(QObject::tr("Go to Time"),
                       QObject::tr("'%1' is not a time; write it with a unit, e.g. 2.5 s or "
                                   "40 ms.")
                           .arg(text));
        if (!w->isInteractive()) return;
    }
}

void chooseRankFilter(MainWindow* w)
{
    TimelineView* view = w->currentTimeline();
    if (!view || !view->trace()) return;
    // The text the user typed last for this view, so the dialog starts from it.
    const char* kFilterText = "rankscopeFilterText";
    bool ok = false;
    const QString text = QInputDialog::getText(
        w, QObject::tr("Filter Ranks"),
        QObject::tr("Ranks to show, e.g. 0-7, 12, 20-23 (empty for all %1 ranks):")
            .arg(view->trace()->rankCount()),
        QLineEdit::Normal, view->property(kFilterText).toString(), &ok);
    if (!ok) return;
    QString error;
    const auto ranks = parseRankList(text, view->trace()->rankCount(), &error);
    if (!ranks) {
        w->reportError(QObject::tr("Filter Ranks"), error);
        return;
    }
    view->setRankFilter(*ranks);
    view->setProperty(kFilterText, text.trimmed());
}

} // namespace

std::optional<double> parseTime(const QString& text)
{
    const QString t = text.trimmed();
    bool isNumber = false;
    const double seconds = t.toDouble(&isNumber);
    if (isNumber) return seconds * 1e9;
    return netsim::parseDuration(t.toStdString());
}

void connect(MainWindow* w)
{
    const MainActions* a = w->actions();
    QObject::connect(a->back(), &QAction::triggered, w, [w] {
        if (TimelineView* v = currentTimeline(w)) v->goBack();
    });
    QObject::connect(a->forward(), &QAction::triggered, w, [w] {
        if (TimelineView* v = currentTimeline(w)) v->goForward();
    });
    QObject::connect(a->find(), &QAction::triggered, w, [w] {
        if (TraceDocument* doc = w->document(w->tabs()->currentIndex())) doc->findBar()->activate();
    });
    QObject::connect(a->findNext(), &QAction::triggered, w, [w] { find(w, true); });
    QObject::connect(a->findPrevious(), &QAction::triggered, w, [w] { find(w, false); });
    QObject::connect(a->goToTime(), &QAction::triggered, w, [w] { goToTime(w); });
    QObject::connect(a->filterRanks(), &QAction::triggered, w, [w] { chooseRankFilter(w); });
    QObject::connect(a->shortcutSheet(), &QAction::triggered, w,
                     [w] { HelpDialogs::showShortcuts(w, w->actions()); });
    QObject::connect(a->about(), &QAction::triggered, w, [w] { HelpDialogs::showAbout(w); });
}

} // namespace rankscope::MainNavigation
