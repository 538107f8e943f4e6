#pragma once
// The result of a what-if run: the measured (or baseline) run and the predicted one as two
// stacked timelines with coupled zoom (ComparisonView) above three panes:
// - Summary: for a replay, the effect of the edit first (edited - baseline replay, red when
//   slower, green when faster), the three runs (measured, baseline replay, edited replay) and
//   the baseline's calibration error apart, and with the SimGrid engine both engines' run
//   times, their difference and wall-clocks; then run time, MPI time, computation time and wait
//   time of the measured run, the baseline replay and the edited replay, the effect (edited vs
//   baseline: red slower, green faster) and the error (prediction vs measured, never coloured
//   as good or bad, bold beyond 5 %);
// - Delta times: the measured and predicted delta-time histograms of one execution interval
//   (or all) on one rank (or all), with their W1 distance;
// - Wait states: waiting time per pattern of both runs as grouped bars;
// - Network (replays): the simulated network, its links coloured by load (NetworkView).
// Everything shown besides the timelines comes from a ComparisonData built off the GUI thread;
// this widget only bins its kept samples when the selection changes.

#include "model/analysis/comparisondata.h"
#include "views/waits/waitcomparisonchart.h"
#include "views/whatif/comparisonview.h"
#include "whatif/netsim/networklayout.h"
#include "whatif/scenario/scenariorun.h"
#include "whatif/scenario/whatifpipeline.h"

#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QStandardItemModel;
class QTabWidget;
class QSplitter;
class QTableView;

namespace rankscope {

class HistogramOverlay;
class NetworkView;

class WhatIfComparison : public QWidget
{
    Q_OBJECT
public:
    explicit WhatIfComparison(QWidget* parent = nullptr);

    /// `measured` on top, `predicted` below. `comparison` may be null while it is still being
    /// computed (the panes then say so; pass it later with setComparisonData).
    void setRuns(ComparisonView::Run measured, ComparisonView::Run predicted,
                 std::shared_ptr<const ComparisonData> comparison, const QString& scenarioName);
    /// The panes' data for the runs already shown (e.g. when the worker finishes).
    void setComparisonData(std::shared_ptr<const ComparisonData> comparison);
    const std::shared_ptr<const ComparisonData>& comparisonData() const { return data_; }
    /// The effect of a replay's edit against its baseline replay; nothing hides it.
    void setEffect(std::optional<whatif::ScenarioOutcome> effect);
    /// The what-if pipeline's answer: the Summary's baseline replay column and the effect column
    /// read it (null: those columns show "—").
    void setAnswer(std::shared_ptr<const whatif::WhatIfResult> answer);
    /// "Effect of the change: +120 ms (+148.2 %), slower than the baseline replay"; its
    /// foreground is red when slower, green when faster.
    QLabel* effectLabel() const { return effect_; }
    /// The three runs and the calibration error of the baseline replay.
    QLabel* runsLabel() const { return runs_; }

    /// The same scenario replayed by both engines (the SimGrid engine of the what-if panel).
    struct Engines
    {
        QString model; ///< Rankscope's network model
        int64_t rankscopeNs = 0;
        double rankscopeWallSeconds = 0;
        int64_t simgridNs = 0;
        double simgridWallSeconds = 0; ///< export, smpirun and import
        double smpirunSeconds = 0;
        double differencePercent = 0; ///< (SimGrid - Rankscope) / Rankscope
        bool operator==(const Engines&) const = default;
    };
    /// Shows both engines' predicted run times, their difference and wall-clocks in the
    /// Summary, under the effect of the edit; nothing hides them.
    void setEngines(std::optional<Engines> engines);
    /// "SimGrid (smpirun): 2.150 ms, +0.10 % against Rankscope's 2.148 ms (flow model)" and the
    /// wall-clocks on a second line.
    static QString enginesText(const Engines& e);
    QLabel* enginesLabel() const { return engines_; }
    /// The calibration used and the pipeline's warnings (hidden when there are none).
    QLabel* answerNotesLabel() const { return answerNotes_; }

    ComparisonView* timelines() const { return timelines_; }
    /// Columns: quantity | measured | baseline replay | edited replay | edited vs baseline (the
    /// effect, red slower, green faster) | prediction vs measured (the error, not coloured).
    QTableView* summaryTable() const { return summaryTable_; }
    HistogramOverlay* histogram() const { return histogram_; }
    WaitComparisonChart* waitChart() const { return waitChart_; }
    /// Tabs "Summary", "Delta times", "Wait states" (and "Network" for a replay).
    QTabWidget* panes() const { return panes_; }
    QComboBox* intervalBox() const { return intervalBox_; }
    QComboBox* rankBox() const { return rankBox_; }
    QCheckBox* logScaleBox() const { return logBox_; }
    /// "Scenario: ... — measured: ... — predicted: ..."
    QString headerText() const;

    /// Interval index into comparisonData()->intervals (-1: all), rank (-1: all).
    void setDeltaSelection(int interval, int rank);
    int deltaInterval() const { return interval_; }
    int deltaRank() const { return rank_; }
    /// "summary" | "deltas" | "waits" | "network" (a replay's; it also gives the panes more
    /// room); anything else is ignored.
    void showPane(const QString& name);
    /// A replay's link figures: adds the "Network" pane (null: removes it).
    void setNetwork(std::shared_ptr<const netsim::NetworkPicture> picture);
    /// The "Network" pane, or null when the result has none.
    NetworkView* networkView() const { return network_; }

private:
    QWidget* createSummaryPane();
    QWidget* createDeltaPane();
    void fillSummary();
    void fillSelectors();
    void refreshHistogram();
    void fillWaits();

    ComparisonView* timelines_;
    QTabWidget* panes_;
    QLabel* header_ = nullptr;
    QLabel* effect_ = nullptr;
    QLabel* runs_ = nullptr;
    QLabel* engines_ = nullptr;
    QLabel* answerNotes_ = nullptr; ///< the calibration used and the pipeline's warnings
    QStandardItemModel* summaryModel_ = nullptr;
    QTableView* summaryTable_ = nullptr;
    QComboBox* intervalBox_ = nullptr;
    QComboBox* rankBox_ = nullptr;
    QCheckBox* logBox_ = nullptr;
    HistogramOverlay* histogram_ = nullptr;
    NetworkView* network_ = nullptr;
    QSplitter* splitter_ = nullptr;
    WaitComparisonChart* waitChart_ = nullptr;

    std::shared_ptr<const ComparisonData> data_;
    std::shared_ptr<const whatif::WhatIfResult> answer_;
    QString scenario_;
    QString measuredName_;
    QString predictedName_;
    int interval_ = -1;
    int rank_ = -1;
};

} // namespace rankscope
