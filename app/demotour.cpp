#include "app/demotour.h"

#include "app/mainwindow.h"
#include "app/tracedocument.h"
#include "app/whatifcontroller.h"
#include "model/waits/waitstates.h"
#include "views/panes/tourpanel.h"
#include "views/waits/waitstatepanel.h"
#include "views/whatif/whatifcomparison.h"
#include "views/whatif/whatifpanel.h"

#include <QDockWidget>
#include <QTabWidget>
#include <QTableView>

namespace rankscope {

namespace {

enum Step
{
    Timeline,
    LateSender,
    Extrapolate,
    Compare,
    Latency,
    Sweep,
    StepCount
};

} // namespace

DemoTour::DemoTour(MainWindow* window) : QObject(window), window_(window) {}

void DemoTour::start()
{
    TourPanel* tour = window_->tour();
    if (tour->steps().empty())
        tour->setSteps({
            {tr("Open the timeline"),
             tr("<p>Each row is one MPI rank; time runs left to right. Regions are coloured "
                "by role (legend at the top), MPI calls in red tones, and black lines are "
                "messages from sender to receiver.</p><p>Zoom with the mouse wheel or "
                "<b>+</b>/<b>-</b>, drag to pan, <b>Ctrl+0</b> shows the whole run. Click a "
                "call to see its details below.</p>")},
            {tr("See a late sender"),
             tr("<p>A <b>late sender</b>: a rank waits in MPI_Recv because its partner sends "
                "later. The wait-state table lists each pattern by call site and rank; the "
                "longest is selected and shown on the timeline, its waiting part hatched.</p>"
                "<p>The <i>Root causes</i> tab names the computation that made the sender "
                "late.</p>")},
            {tr("Extrapolate to 4× the ranks"),
             tr("<p>From runs of one program at 9, 16, 25 and 36 ranks, Rankscope fits how "
                "each part scales and synthesises the whole trace at <b>144 ranks</b>, "
                "timed by a replay on an InfiniBand switch.</p><p>The scenario is in the "
                "<i>What if…</i> panel on the right (Ctrl+I): change the target or the "
                "network and press Run.</p>")},
            {tr("Compare with the measured run"),
             tr("<p>The 144-rank run was also measured. The comparison stacks both timelines "
                "on one time axis (zoom one, the other follows), and the tabs below show the "
                "run time, MPI and wait time side by side with the difference in %, the "
                "delta-time histograms (measured blue, predicted red) per execution interval "
                "and rank, and the wait states of both runs.</p>")},
            {tr("Raise the wide-area latency"),
             tr("<p>A real 64-rank stencil replayed on two 32-node clusters joined by a "
                "wide-area link whose latency is raised from 10 ms to <b>20 ms</b>. The spec "
                "file is not changed: the panel edits a copy.</p>")},
            {tr("Sweep it"),
             tr("<p>The same replay for a wide-area latency of 1, 2, 5, 10 and 20 ms, run in "
                "the background: predicted run time (red) and wait time (orange) against the "
                "latency. Click a point to open that run.</p>")},
        });
    window_->tourDock()->show();
}

void DemoTour::doStep(int step)
{
    TourPanel* tour = window_->tour();
    WhatIfController* whatIf = window_->whatIf();
    QTabWidget* tabs = window_->tabs();
    window_->tourDock()->show();
    tour->setCurrentStep(step);
    const auto firstScenario = [whatIf](auto&& pred) -> const whatif::Scenario* {
        for (const whatif::Scenario& s : whatIf->scenarios())
            if (pred(s)) return &s;
        return nullptr;
    };
    const auto run = [this, whatIf](const whatif::Scenario* s, const QString& what,
                                    const QString& section) {
        if (!s) {
            window_->reportError(tr("Guided tour"),
                                 tr("This session has no %1 scenario.").arg(what));
            return;
        }
        whatIf->dock()->show();
        whatIf->showScenario(*s);
        whatIf->panel()->showSection(section);
        whatIf->start(whatif::Scenario(*s));
    };
    switch (step) {
    case Timeline:
    case LateSender: {
        // The trace with the most late-sender waiting (for step 1), else the first trace.
        int best = -1;
        int64_t most = -1;
        for (int i = 0; i < tabs->count(); ++i)
            if (TraceDocument* doc = window_->document(i)) {
                const int64_t late =
                    doc->data().waits
                        ? doc->data().waits->byPattern[size_t(WaitPattern::LateSender)]
                        : 0;
                if (best < 0 || (step == LateSender && late > most)) {
                    best = i;
                    most = late;
                }
            }
        if (best < 0) {
            window_->reportError(tr("Guided tour"), tr("Open a trace first (File > Open)."));
            return;
        }
        tabs->setCurrentIndex(best);
        TraceDocument* doc = window_->document(best);
        doc->timeline()->fitToWindow();
        if (step == LateSender) {
            doc->panes()->setCurrentWidget(doc->waitPanel());
            doc->waitPanel()->table()->selectRow(0);
        } else {
            doc->selectLongestMpiCall();
        }
        tour->setStepDone(step);
        return;
    }
    case Extrapolate:
        run(firstScenario([](const whatif::Scenario& s) {
                return s.kind == whatif::ScenarioKind::Scale && s.sweepParam.empty();
            }),
            tr("scale prediction"), QStringLiteral("baselines"));
        break;
    case Compare: {
        // The open result of a scale prediction, its delta-time histograms shown.
        for (int i = tabs->count() - 1; i >= 0; --i)
            if (WhatIfComparison* cmp = whatIf->comparisonTab(i)) {
                const whatif::Scenario* s =
                    whatIf->scenario(cmp->property("rankscopeScenario").toString());
                if (s && s->kind == whatif::ScenarioKind::Scale) {
                    tabs->setCurrentIndex(i);
                    cmp->showPane(QStringLiteral("deltas"));
                    tour->setStepDone(step);
                    return;
                }
            }
        window_->reportError(tr("Guided tour"),
                             tr("Run the scale prediction first (the step before this one)."));
        return;
    }
    case Latency:
        run(firstScenario([](const whatif::Scenario& s) {
                return s.kind == whatif::ScenarioKind::Replay && s.sweepParam.empty();
            }),
            tr("network replay"), QStringLiteral("network"));
        break;
    case Sweep:
        run(firstScenario([](const whatif::Scenario& s) { return !s.sweepParam.empty(); }),
            tr("sweep"), QStringLiteral("sweep"));
        break;
    default:
        return;
    }
    tour->setStepDone(step);
}

} // namespace rankscope
